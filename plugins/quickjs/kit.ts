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
  return freeze({
    f: function (e) { kind = 1; failure = e; },
    b: function (v) { kind = 2; failure = v; },
    take: function () {
      var k = kind, v = failure; kind = 0; failure = undefined;
      return k === 2 ? 'V' + nonBoolean(v) : k === 1 ? 'E' + describe(v) : '';
    },
    describe: describe,
    vars: vars,
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
