/**
 * The guest's string search, made interruptible. QuickJS searches a string for a string naively, inside one
 * call of a built-in that its interrupt handler never reaches, so a search costs the text's length times the
 * pattern's at worst, and a pattern of 40,000 characters in a text of 80,000 held a thread 10 s under a 300 ms
 * limit (README.md, "Built-ins the time limit cannot stop"). Evaluated in every context before any model
 * script, this replaces `indexOf`, `lastIndexOf`, `includes`, `split`, `replace` and `replaceAll` of strings
 * with functions that hand small searches to the built-in as before, and run a large one (a string pattern of more than 64
 * characters whose worst case passes {@link LARGE_SEARCH} character comparisons) as a Knuth–Morris–Pratt
 * search written in JavaScript: linear in the text, and a loop the interrupt handler polls, so the time limit
 * stops it. Results are the built-ins' (a string pattern has no capture groups, so `$1` and `$<name>` stay as
 * they are); a RegExp or any other object goes to the built-in.
 */

/** Character comparisons a naive search may need at worst before the search runs in JavaScript. */
export const LARGE_SEARCH = 1e7;

export const STRING_SEARCH_SOURCE = String.raw`(function () {
  'use strict';
  var P = String.prototype, S = String, max = Math.max, min = Math.min, trunc = Math.trunc;
  var indexOf = P.indexOf, lastIndexOf = P.lastIndexOf, includes = P.includes, split = P.split, replace = P.replace, replaceAll = P.replaceAll;
  var slice = P.slice, define = Object.defineProperty, call = Reflect.apply;
  var MATCH = Symbol.match, SPLIT = Symbol.split, REPLACE = Symbol.replace;
  function large(text, pattern) { return pattern.length > 64 && (text.length - pattern.length + 1) * pattern.length > ${LARGE_SEARCH}; }
  function table(pattern) {
    var next = new Array(pattern.length), k = 0;
    next[0] = 0;
    for (var i = 1; i < pattern.length; i++) {
      while (k > 0 && pattern.charCodeAt(i) !== pattern.charCodeAt(k)) k = next[k - 1];
      if (pattern.charCodeAt(i) === pattern.charCodeAt(k)) k++;
      next[i] = k;
    }
    return next;
  }
  // Every match from 'from' on, not overlapping, at most 'limit' of them.
  function matches(text, pattern, from, limit) {
    var next = table(pattern), found = [], k = 0, m = pattern.length;
    for (var i = from; i < text.length && found.length < limit; i++) {
      while (k > 0 && text.charCodeAt(i) !== pattern.charCodeAt(k)) k = next[k - 1];
      if (text.charCodeAt(i) === pattern.charCodeAt(k)) k++;
      if (k === m) { found.push(i - m + 1); k = 0; }
    }
    return found;
  }
  // The last match that starts at or before 'before': the same search run from the right, on the pattern read
  // from its end.
  function lastMatch(text, pattern, before) {
    var m = pattern.length, next = new Array(m), k = 0;
    next[0] = 0;
    for (var i = 1; i < m; i++) {
      while (k > 0 && pattern.charCodeAt(m - 1 - i) !== pattern.charCodeAt(m - 1 - k)) k = next[k - 1];
      if (pattern.charCodeAt(m - 1 - i) === pattern.charCodeAt(m - 1 - k)) k++;
      next[i] = k;
    }
    k = 0;
    for (var j = min(before + m, text.length) - 1; j >= 0; j--) {
      while (k > 0 && text.charCodeAt(j) !== pattern.charCodeAt(m - 1 - k)) k = next[k - 1];
      if (text.charCodeAt(j) === pattern.charCodeAt(m - 1 - k)) k++;
      if (k === m) return j;
    }
    return -1;
  }
  function position(value, length) {
    var n = +value;
    n = n !== n ? 0 : trunc(n);
    return min(max(n, 0), length);
  }
  function substitute(text, pattern, at, replacement) {
    if (typeof replacement === 'function') return S(replacement(pattern, at, text));
    var out = '', r = replacement;
    for (var i = 0; i < r.length; i++) {
      var c = r.charAt(i), d = r.charAt(i + 1);
      if (c !== '$' || i + 1 === r.length) { out += c; continue; }
      if (d === '$') out += '$';
      else if (d === '&') out += pattern;
      else if (d === '\u0060') out += slice.call(text, 0, at);
      else if (d === "'") out += slice.call(text, at + pattern.length);
      else { out += c; continue; }
      i++;
    }
    return out;
  }
  function replaced(text, pattern, at, replacement) {
    var out = '', last = 0;
    if (typeof replacement !== 'function') replacement = S(replacement);
    for (var i = 0; i < at.length; i++) {
      out += slice.call(text, last, at[i]) + substitute(text, pattern, at[i], replacement);
      last = at[i] + pattern.length;
    }
    return out + slice.call(text, last);
  }
  // The pattern as the built-in would search for it, or undefined when the built-in must handle it (a RegExp,
  // an object with its own search method under 'symbol', a receiver that is no string's).
  function plain(receiver, search, symbol) {
    if (receiver === null || receiver === undefined) return undefined;
    if (search !== null && (typeof search === 'object' || typeof search === 'function')) {
      var own = search[symbol];
      if (own !== undefined && own !== null) return undefined;
    }
    return S(search);
  }
  function method(name, fn) { define(P, name, { value: fn, writable: true, configurable: true, enumerable: false }); }
  method('indexOf', function indexOf_(search, from) {
    if (this === null || this === undefined) return call(indexOf, this, [search, from]);
    var text = S(this), pattern = S(search);
    if (!large(text, pattern)) return call(indexOf, text, [pattern, from]);
    var found = matches(text, pattern, position(from, text.length), 1);
    return found.length === 0 ? -1 : found[0];
  });
  method('lastIndexOf', function lastIndexOf_(search, from) {
    if (this === null || this === undefined) return call(lastIndexOf, this, [search, from]);
    var text = S(this), pattern = S(search);
    if (!large(text, pattern)) return call(lastIndexOf, text, [pattern, from]);
    var n = +from;
    return lastMatch(text, pattern, n !== n ? text.length : min(max(trunc(n), 0), text.length));
  });
  method('includes', function includes_(search, from) {
    var pattern = plain(this, search, MATCH);
    if (pattern === undefined) return call(includes, this, [search, from]);
    var text = S(this);
    if (!large(text, pattern)) return call(includes, text, [pattern, from]);
    return matches(text, pattern, position(from, text.length), 1).length === 1;
  });
  method('split', function split_(search, limit) {
    var separator = plain(this, search, SPLIT);
    if (separator === undefined) return call(split, this, [search, limit]);
    var text = S(this), count = limit === undefined ? 4294967295 : limit >>> 0;
    if (!large(text, separator) || count === 0) return call(split, text, [separator, count]);
    var at = matches(text, separator, 0, count), parts = [], last = 0;
    for (var i = 0; i < at.length && parts.length < count; i++) {
      parts.push(slice.call(text, last, at[i]));
      last = at[i] + separator.length;
    }
    if (parts.length < count) parts.push(slice.call(text, last));
    return parts;
  });
  method('replace', function replace_(search, replacement) {
    var pattern = plain(this, search, REPLACE);
    if (pattern === undefined) return call(replace, this, [search, replacement]);
    var text = S(this);
    if (!large(text, pattern)) return call(replace, text, [pattern, replacement]);
    return replaced(text, pattern, matches(text, pattern, 0, 1), replacement);
  });
  method('replaceAll', function replaceAll_(search, replacement) {
    var pattern = plain(this, search, REPLACE);
    if (pattern === undefined) return call(replaceAll, this, [search, replacement]);
    var text = S(this);
    if (!large(text, pattern)) return call(replaceAll, text, [pattern, replacement]);
    return replaced(text, pattern, matches(text, pattern, 0, 4294967295), replacement);
  });
})()`;
