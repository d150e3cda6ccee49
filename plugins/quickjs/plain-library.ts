/**
 * The built-ins plain scripts (plain-scripts.ts) may call: those whose results ECMAScript and IEEE 754 fix to
 * the bit, so that the host computes what QuickJS computes (a test holds the two to it). `Math.sin`, `exp`,
 * `log` and their kin are left out: the standard lets each engine approximate them its own way, and a plan
 * over values the walk never sees would lead nowhere.
 */

import { HostStepperDeclined } from '../../core/planning/state-space.js';

/** Thrown by a plain script that reads chance or time: what follows is not decided by the variables. */
export class Unpredictable extends Error {}

/** Thrown for what plain evaluation does not compute the way QuickJS does: the exploration falls back to the sandbox. */
export class NotPlain extends HostStepperDeclined {}

type Builtin = (...args: unknown[]) => unknown;

const chance: Builtin = () => {
  throw new Unpredictable();
};

/**
 * `a ** b` (and `Math.pow`) when both are whole numbers, `b` is not negative and the result is a safe integer:
 * then it is exactly representable, and two engines whose error is under one unit in the last place both
 * answer it exactly. Any other power is the sandbox's.
 */
export function exactPower(a: unknown, b: unknown): number {
  const base = Number(a);
  const exponent = Number(b);
  const result = base ** exponent;
  if (!Number.isInteger(base) || !Number.isInteger(exponent) || exponent < 0 || !Number.isSafeInteger(result)) {
    throw new NotPlain('power');
  }
  return result;
}

/** Functions by the name a script calls them by: `Math.floor`, `parseInt`, ... */
export const PLAIN_FUNCTIONS: ReadonlyMap<string, Builtin> = new Map<string, Builtin>([
  ...(['abs', 'ceil', 'floor', 'round', 'trunc', 'sign', 'max', 'min', 'sqrt', 'fround', 'imul', 'clz32'] as const).map(
    (name): [string, Builtin] => [`Math.${name}`, Math[name] as Builtin],
  ),
  ['Math.pow', exactPower as Builtin],
  ['Number', Number],
  ['String', String],
  ['Boolean', Boolean],
  ['parseInt', parseInt as Builtin],
  ['parseFloat', parseFloat as Builtin],
  ['isNaN', isNaN as Builtin],
  ['isFinite', isFinite as Builtin],
  ['Number.isInteger', Number.isInteger as Builtin],
  ['Number.isSafeInteger', Number.isSafeInteger as Builtin],
  ['Number.isFinite', Number.isFinite as Builtin],
  ['Math.random', chance],
  ['Date.now', chance],
]);

/** Constants by the name a script reads them by. */
export const PLAIN_CONSTANTS: ReadonlyMap<string, number> = new Map(
  (['E', 'LN10', 'LN2', 'LOG10E', 'LOG2E', 'PI', 'SQRT1_2', 'SQRT2'] as const).map((name): [string, number] => [`Math.${name}`, Math[name]]),
);

/**
 * Names that a script's global scope already holds in QuickJS (ECMAScript's global object): a plain script
 * that reads, assigns or asks `typeof` of one of them is not plain, since the host's variables do not hold
 * them (reading `Object` is no ReferenceError there, and assigning `Math` replaces it).
 */
export const GLOBAL_NAMES: ReadonlySet<string> = new Set([
  'globalThis', 'Infinity', 'NaN', 'undefined', 'eval', 'isFinite', 'isNaN', 'parseFloat', 'parseInt',
  'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'unescape',
  'AggregateError', 'Array', 'ArrayBuffer', 'Atomics', 'BigInt', 'BigInt64Array', 'BigUint64Array', 'Boolean',
  'DataView', 'Date', 'Error', 'EvalError', 'FinalizationRegistry', 'Float32Array', 'Float64Array', 'Function',
  'Int8Array', 'Int16Array', 'Int32Array', 'JSON', 'Map', 'Math', 'Number', 'Object', 'Promise', 'Proxy',
  'RangeError', 'ReferenceError', 'Reflect', 'RegExp', 'Set', 'SharedArrayBuffer', 'String', 'Symbol',
  'SyntaxError', 'TypeError', 'Uint8Array', 'Uint8ClampedArray', 'Uint16Array', 'Uint32Array', 'URIError',
  'WeakMap', 'WeakRef', 'WeakSet', 'Intl', 'console', 'print',
]);
