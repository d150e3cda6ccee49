/**
 * How guard and action sources become guest code.
 *
 * Parsing a script costs several microseconds in QuickJS, calling an already compiled function well under
 * one, so actions are compiled once into a function and guards of one edge set into one function that
 * evaluates them all. Wrapping a script in a function body changes the meaning of a few constructs: `var`,
 * `let`, `const`, `class` and function declarations would become locals instead of globals of the scope,
 * and `arguments` and direct `eval` would see the wrapper. Sources that contain any of those words
 * (anywhere, even in a string or a nested function: the test is deliberately conservative) are evaluated
 * as a script each time instead, which keeps GraphWalker's semantics at the old cost. `return` and
 * `new.target` would become legal too, but only at the top level, where the source is first checked to
 * parse as a script.
 */

/** Names used by the generated code; the `__w$` prefix keeps them out of the way of model variables. */
const KIT = '__w$K';
const EVAL = '__w$ev';
const INDEX = '__w$i';
const RESULT = '__w$r';
const RUN = '__w$run';

/**
 * Model code inside a wrapper could name the wrapper's variables and so reach the kit, report another
 * guard's failure or set another guard's bit. Code that could name them sits in a block that declares those
 * names again, empty: inside it they mean nothing. (The model code cannot declare names of its own there:
 * sources with declarations are never wrapped.) A name can only be reached by writing it, as `__w$…` or
 * with a `\u` escape, so other code — nearly all of it — is spared the block, which costs a third of a
 * guard's evaluation.
 */
const HIDE = `let ${KIT}, ${EVAL}, ${INDEX}, ${RESULT}, ${RUN};`;
const MAY_NAME_WRAPPER = /__w\$|\\u/;

/** The declarations that hide the wrapper's names from `code`, or nothing when `code` cannot name them. */
function hideFrom(code: string): string {
  return MAY_NAME_WRAPPER.test(code) ? HIDE : '';
}

/** Words whose meaning differs between a global script and a function body (see the file comment). */
const NEEDS_GLOBAL_SCRIPT = /\b(?:var|let|const|class|arguments|eval)\b|\bfunction\s*[^\s(]/;

/** True when the source does nothing (empty guards are always open, empty actions are no-ops). */
export function isBlank(source: string): boolean {
  // Asked before every action: a script that starts with a visible ASCII character is not blank, untrimmed.
  const first = source.charCodeAt(0);
  if (first > 32 && first < 127) return false;
  return source.trim() === '';
}

/**
 * True when the source may be compiled into a function body without changing what it means, provided it
 * parses as a script (which the caller checks).
 */
export function canWrapAsFunction(source: string): boolean {
  return !NEEDS_GLOBAL_SCRIPT.test(source);
}

/**
 * The wrapper of an action: a factory taking the scope's kit and returning a function that runs the
 * action and returns 0, or stores the exception in the kit and returns 1. Catching inside the guest lets the
 * host read a plain number on every call; only uncatchable interrupts escape as exceptions. The caller has
 * checked that the source parses as a script, so it cannot close the `try` block early.
 */
export function actionFactorySource(code: string): string {
  return `(function (${KIT}) { return function () { try { ${hideFrom(code)}\n${code}\n} catch (__w$e) { ${KIT}.f(__w$e); return 1; } return 0; }; })`;
}

/** One guard of a compiled set: an inline expression, or a source evaluated by indirect eval each time. */
export type GuardCode = { readonly expression: string } | { readonly script: string };

/** The most guards whose results fit in one int32 bitmask (bit 31 would make it negative). */
export const GUARDS_PER_BITMASK = 31;

/**
 * The factory of a guard set: it returns a function evaluating every guard in order and returning a bitmask
 * (bit i set when guard i is true) for up to 31 guards, else a string of '1'/'0'. A failure stores the error
 * (or the non-boolean value) in the kit and returns -1 (or ''); `run.w()` tells which guard failed, also after
 * an interrupt, because the index lives in a closure variable written before each guard.
 */
export function guardFactorySource(guards: readonly GuardCode[]): string {
  const bitmask = guards.length <= GUARDS_PER_BITMASK;
  const fail = bitmask ? '-1' : "''";
  const body = guards.map((guard, i) => guardStep(guard, i, bitmask, fail)).join('\n');
  return [
    `(function (${KIT}) { var ${INDEX} = -1, ${EVAL} = ${KIT}.ev;`,
    `function ${RUN}() { var ${RESULT} = ${bitmask ? '0' : "''"}, __w$v; try {`,
    body,
    `} catch (__w$e) { ${KIT}.f(__w$e); return ${fail}; } return ${RESULT}; }`,
    `${RUN}.w = function () { return ${INDEX}; }; return ${RUN}; })`,
  ].join('\n');
}

/** A script guard runs by indirect eval, in the global scope, where the wrapper's names do not exist anyway. */
function guardStep(guard: GuardCode, i: number, bitmask: boolean, fail: string): string {
  const value =
    'expression' in guard ? `{ ${hideFrom(guard.expression)} __w$v = (${guard.expression}\n); }` : `__w$v = ${EVAL}(${JSON.stringify(guard.script)});`;
  const bad = `{ ${KIT}.b(__w$v); return ${fail}; }`;
  const check = bitmask
    ? `if (__w$v === true) ${RESULT} |= ${1 << i}; else if (__w$v !== false) ${bad}`
    : `if (__w$v === true) ${RESULT} += '1'; else if (__w$v === false) ${RESULT} += '0'; else ${bad}`;
  return `${INDEX} = ${i}; ${value}\n${check}`;
}

/**
 * The text to test whether a guard is a plain expression. A source starting with `{` is left to eval: as a
 * script it is a block, as an expression an object literal. Trailing semicolons are dropped, since
 * `x > 1;` is a common way to write a guard and means the same as `x > 1`.
 */
export function guardExpression(code: string): string | undefined {
  const trimmed = code.trim().replace(/;+$/, '').trimEnd();
  if (trimmed === '' || trimmed.startsWith('{') || !canWrapAsFunction(trimmed)) return undefined;
  return trimmed;
}

/** A probe that parses only when `expression` is a single expression. */
export function expressionProbe(expression: string): string {
  return `(${expression}\n)`;
}
