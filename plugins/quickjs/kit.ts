/**
 * The guest half of a scope: helper functions evaluated once in every QuickJS context, before any model
 * script runs, and kept by the host as a handle. They are closures over the built-ins as they were at that
 * moment, so a script that replaces or deletes `String`, `JSON`, `Object.keys` or a prototype method cannot
 * change error texts or what getData lists. Scripts cannot reach them either: the kit is never stored in a
 * global, it is frozen, and the compiled wrappers hide its name from the model code inside them (compile.ts).
 *
 * - `f(e)` / `b(v)`: compiled actions and guards report a thrown error / a non-boolean guard value here.
 * - `take()`: the text of the last reported failure, then forgets it; its first character tells whether the
 *   text is the sandbox's verdict on a guard's value (`V`) or the description of what was thrown (`E`).
 * - `describe(e)`: the text of an exception that escaped to the host.
 * - `vars()`: the scope's variables, encoded by {@link decodeVariables}.
 * - `save()` / `load(text)`: a copy of the scope's variables as text, and the variables set back from one
 *   (for planning, on a sandbox of its own); `save()` answers `''` when some value has no faithful copy.
 * - `ev`: the context's own indirect eval, for guards that are not plain expressions.
 *
 * Value texts follow docs/api-execution.md: strings as they are, numbers, booleans, bigints, symbols, null and
 * undefined as `String(v)` prints them, functions as their source text (what GraalJS prints too), other
 * objects as JSON, or `String(v)` when JSON cannot represent them (cycles, bigints inside). A guard that
 * returns a promise or any object with a `then` method is refused: a guard must decide before the step.
 */
export const KIT_SOURCE = String.raw`(function () {
  'use strict';
  var G = globalThis, S = String, keys = Object.keys, stringify = JSON.stringify, ev = G.eval, freeze = Object.freeze;
  var parse = JSON.parse, isArray = Array.isArray, protoOf = Object.getPrototypeOf, ObjectProto = Object.prototype;
  var own = Object.getOwnPropertyDescriptor, hasOwn = Object.prototype.hasOwnProperty;
  var builtIn = Object.create(null), names = Object.getOwnPropertyNames(G);
  for (var n = 0; n < names.length; n++) builtIn[names[n]] = true;
  var kind = 0, failure;
  function text(v) {
    var t = typeof v;
    if (t === 'string') return v;
    if (t !== 'object' || v === null) return S(v);
    try { var j = stringify(v); if (typeof j === 'string') return j; } catch (e) {}
    try { return S(v); } catch (e) { return '[object]'; }
  }
  function describe(e) {
    if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
      try {
        var name = e.name, message = e.message;
        if (message !== undefined) {
          name = name === undefined ? 'Error' : S(name); message = S(message);
          return message === '' ? name : name + ': ' + message;
        }
      } catch (x) {}
    }
    try { return text(e); } catch (x) { return 'Error'; }
  }
  function thenable(v) {
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return false;
    try { return typeof v.then === 'function'; } catch (e) { return false; }
  }
  function nonBoolean(v) {
    if (thenable(v)) return 'Guard returned a promise; guards must be synchronous and evaluate to true or false';
    var t = typeof v, shown = t === 'string' ? stringify(v) : text(v);
    var article = t === 'undefined' || t === 'object' ? 'an ' : 'a ';
    return 'Guard returned ' + shown + ' (' + article + t + '); a guard must evaluate to true or false';
  }
  function entry(s) { s = S(s); return s.length + ':' + s; }
  function vars() {
    var out = '', ks = keys(G);
    for (var i = 0; i < ks.length; i++) {
      var k = ks[i], v;
      if (builtIn[k] === true) continue;
      try { v = text(G[k]); } catch (e) { v = '[' + describe(e) + ']'; }
      out += entry(k) + entry(v);
    }
    return out;
  }
  // A value is copied faithfully through JSON when it is a finite number (not -0), a string, a boolean, null,
  // or a dense array or plain object of such values, without getters.
  function copyable(v, depth) {
    var t = typeof v;
    if (t === 'string' || t === 'boolean' || v === null) return true;
    if (t === 'number') return v === v && v !== 1 / 0 && v !== -1 / 0 && !(v === 0 && 1 / v < 0);
    if (t !== 'object' || depth > 64) return false;
    var i;
    if (isArray(v)) {
      for (i = 0; i < v.length; i++) if (!hasOwn.call(v, i) || !copyable(v[i], depth + 1)) return false;
      return keys(v).length === v.length;
    }
    if (protoOf(v) !== ObjectProto) return false;
    var ks = keys(v);
    for (i = 0; i < ks.length; i++) {
      var d = own(v, ks[i]);
      if (!d || !('value' in d) || !copyable(d.value, depth + 1)) return false;
    }
    return true;
  }
  function save() {
    var ks = keys(G), out = [];
    for (var i = 0; i < ks.length; i++) {
      var k = ks[i];
      if (builtIn[k] === true) continue;
      var d = own(G, k);
      if (!d || !('value' in d) || !copyable(d.value, 0)) return '';
      out.push(k, d.value);
    }
    return out.length === 0 ? '[]' : stringify(out);
  }
  function load(text) {
    var ks = keys(G), i;
    for (i = 0; i < ks.length; i++) if (builtIn[ks[i]] !== true) delete G[ks[i]];
    var values = parse(text);
    for (i = 0; i < values.length; i += 2) G[values[i]] = values[i + 1];
    return '';
  }
  return freeze({
    f: function (e) { kind = 1; failure = e; },
    b: function (v) { kind = 2; failure = v; },
    take: function () {
      var k = kind, v = failure; kind = 0; failure = undefined;
      return k === 2 ? 'V' + nonBoolean(v) : k === 1 ? 'E' + describe(v) : '';
    },
    describe: describe,
    vars: vars,
    save: save,
    load: load,
    ev: function (source) { return ev(source); }
  });
})()`;

/**
 * Reads the output of the kit's `vars()`: `<length>:<name><length>:<value>` repeated. A length-prefixed
 * encoding rather than JSON, so that nothing a script does to `JSON` or to prototypes can make it unreadable.
 */
export function decodeVariables(encoded: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let at = 0;
  const next = (): string => {
    const colon = encoded.indexOf(':', at);
    const length = Number(encoded.slice(at, colon));
    at = colon + 1 + length;
    return encoded.slice(colon + 1, at);
  };
  while (at < encoded.length) {
    const name = next();
    out.push([name, next()]);
  }
  return out;
}
