import type { RandomSource } from './random.js';
import type { ScriptOrigin } from './errors.js';

/** Limits applied to every single guard or action evaluation. */
export interface ScriptLimits {
  /** Wall-clock limit of one evaluation, in milliseconds (default 1000). */
  readonly timeoutMs: number;
  /** Memory limit of a walk's script runtime, in bytes (default 64 MiB). */
  readonly memoryBytes: number;
}

export const DEFAULT_SCRIPT_LIMITS: ScriptLimits = Object.freeze({ timeoutMs: 1000, memoryBytes: 64 * 1024 * 1024 });

/**
 * A script engine: a named factory of sandboxes. The machine makes one sandbox per walk and reuses it for
 * every guard and action of that walk.
 */
export interface ScriptEngine {
  readonly name: string;
  createSandbox(options: SandboxOptions): ScriptSandbox;
}

export interface SandboxOptions {
  /** Number of model scopes (one per model of the graph, indexed like `Graph.models`). */
  readonly scopes: number;
  /** Drives `Math.random` inside scripts. */
  readonly random: RandomSource;
  readonly limits: ScriptLimits;
}

/**
 * The variables of one walk: one scope per model plus one shared scope.
 *
 * A script whose text mentions `global.` runs, with every `global.` removed, in the shared scope (GraphWalker's
 * rule); any other script runs in its model's scope. Variables are implicit globals of their scope
 * (`x = 1;`). Every failure — a thrown error, a syntax error, a guard that is not boolean, an exceeded time or
 * memory limit — is thrown as a `ScriptError` naming the origin; the sandbox stays usable afterwards.
 */
export interface ScriptSandbox {
  /** Runs statements (an action, model action or setData script) in `scope`. */
  run(scope: number, source: string, origin: ScriptOrigin): void;
  /**
   * Prepares the guards of a set of edges for repeated evaluation in `scope`. Engines may compile them once
   * and evaluate them all in one call. `sources[i]` and `origins[i]` describe the i-th guard.
   */
  prepareGuards(scope: number, sources: readonly string[], origins: readonly ScriptOrigin[]): GuardSet;
  /**
   * The variables of `scope` in the order they were first assigned, then the shared scope's as
   * `global.<name>`. Values formatted as in docs/api-execution.md: numbers as JavaScript prints them, booleans,
   * strings without quotes, other values as JSON.
   */
  variables(scope: number): Array<[name: string, value: string]>;
  /** Forgets every variable of every scope (restart); the random source is reset by the machine. */
  reset(): void;
  /** Frees every resource; the sandbox must not be used afterwards. */
  dispose(): void;
}

/** Prepared guards; evaluate() writes 1 (open) or 0 (closed) per guard into `out`. */
export interface GuardSet {
  evaluate(out: Uint8Array): void;
}
