import type { RandomSource } from './random.js';
import type { ScriptOrigin } from './errors.js';
import type { Awaitable } from './awaitable.js';
import type { Graph } from './model/graph.js';
import type { HostStepper } from './planning/state-space.js';

/**
 * How {@link ScriptSandbox.variables} names a variable of the shared scope: `global.<name>`. Which script runs
 * in which scope is the engine's own rule (the built-in engine follows GraphWalker's); this is only how the
 * listing tells the shared variables from the model's.
 */
export const SHARED_VARIABLE_PREFIX = 'global.';

/**
 * How much time and memory scripts may use, and which clock they read (docs/behaviour.md, "Scripts"). The
 * service takes them from `AppOptions.scriptLimits`; a library user passes them to `walker.open`.
 */
export interface ScriptLimits {
  /** Wall-clock limit of one evaluation (a guard set, an action, its promise jobs), in milliseconds (default 1000). */
  readonly timeoutMs: number;
  /**
   * Memory a walk's scripts may hold together, in bytes (default 64 MiB): every scope of the walk and the
   * engine's own share of it. Engines may refuse a value below what they need to start.
   */
  readonly memoryBytes: number;
  /**
   * Time all scripts of one request may take together, in milliseconds (default 5000): a load's model actions,
   * a step's guards and actions, a setData, a getData. A walk driven without requests (offline, a library
   * loop) counts it per step. It stops a request whose scripts each stay under {@link timeoutMs}.
   */
  readonly budgetMs: number;
  /**
   * When true, `Date` inside scripts reads the host's clock. By default (false) it reads the run's clock, which
   * starts at an instant fixed by the seed and advances a fixed amount per step, so a replay sees the same times.
   */
  readonly realClock: boolean;
}

export const DEFAULT_SCRIPT_LIMITS: ScriptLimits = Object.freeze({
  timeoutMs: 1000,
  memoryBytes: 64 * 1024 * 1024,
  budgetMs: 5000,
  realClock: false,
});

/**
 * A script engine: a named factory of sandboxes. The machine makes one sandbox per walk and reuses it for
 * every guard and action of that walk.
 */
export interface ScriptEngine {
  readonly name: string;
  createSandbox(options: SandboxOptions): ScriptSandbox;
  /**
   * Optional, for an engine whose sandboxes need resources it makes asynchronously (the built-in engine: a
   * WebAssembly memory per walk). Resolves once a sandbox opened with the reservation
   * ({@link SandboxOptions.reservation}) will get resources of its own; opening a walk is synchronous, so a
   * host that opens walks in asynchronous code reserves first. An engine without it gives every sandbox its
   * own resources at once, or has none to give.
   */
  reserve?(): Promise<SandboxReservation>;
  /**
   * Parses a script without running it: undefined when it parses, else what is wrong and where. `source` is
   * the script as the model file holds it: the engine applies its own rule for which scope a script runs in
   * ({@link ScriptSandbox}) and reports the position in `source`. A guard is parsed the way the sandbox evaluates it (an
   * expression, or a script whose value decides, as GraphWalker's engine evaluates one); an action as
   * statements. Every guard and action of a model file is checked when it is loaded, so it must be cheap, and
   * it must not depend on what ran before.
   */
  checkSyntax(source: string, kind: ScriptKind): ScriptSyntaxError | undefined;
  /**
   * Optional: the scripts an element's actions run as, each one sandbox call: `actions` as they are, or one
   * script of them all joined by line breaks (the built-in engine joins actions that run in the same scope).
   * Without it every action runs alone. A syntax check parses what runs, so it must be cheap and depend on
   * nothing but `actions`.
   */
  actionScripts?(actions: readonly string[]): readonly string[];
  /**
   * Optional, for planning (docs/planning.md): a stepper that explores the states of `graph` in the host,
   * when the engine can compute every guard and action of it exactly as its sandboxes would; undefined when
   * it cannot. Without one, planning explores in a sandbox of the engine ({@link ScriptSandbox.snapshot}),
   * which costs far more per state.
   */
  hostStepper?(graph: Graph): HostStepper | undefined;
  /**
   * Optional: frees what the engine holds between walks (the built-in engine: its spare WebAssembly memories).
   * Walks open at the time keep what they have until they are disposed; opening a walk or checking a script
   * afterwards throws. Calling it again does nothing.
   */
  dispose?(): void;
}

/** What a script is for: a guard decides whether its edge is open; an action (element, model or setData) acts. */
export type ScriptKind = 'guard' | 'action';

/** A script that does not parse. */
export interface ScriptSyntaxError {
  /** The engine's own words, e.g. `SyntaxError: unexpected token in expression: ';'`. */
  readonly message: string;
  /** Where, 1-based, in the script as the model file holds it (`global.` included). */
  readonly line: number;
  readonly column: number;
}

/**
 * Resources an engine set aside for one sandbox ({@link ScriptEngine.reserve}). A sandbox opened with it takes
 * them; whoever reserved gives it back with {@link release} whatever happens, since a walk that failed before
 * its sandbox was opened did not take them.
 */
export interface SandboxReservation {
  /** Gives the resources back unless a sandbox took them; calling it again does nothing. */
  release(): void;
}

/**
 * Runs `open`, which opens a walk synchronously, with a reservation of `engine` when the engine offers them
 * ({@link ScriptEngine.reserve}), and gives back whatever `open` did not use, also when it throws.
 * Synchronous for an engine without reservations.
 */
export function withReservation<T>(engine: ScriptEngine, open: (reservation: SandboxReservation | undefined) => T): Awaitable<T> {
  const reserving = engine.reserve?.();
  if (reserving === undefined) return open(undefined);
  return reserving.then((reservation) => {
    try {
      return open(reservation);
    } finally {
      reservation.release();
    }
  });
}

/** What a sandbox is made from. */
export interface SandboxOptions {
  /** Number of model scopes (one per model of the graph, indexed like `Graph.models`). */
  readonly scopes: number;
  /** Drives `Math.random` inside scripts; its `seed` fixes where the run's clock starts. */
  readonly random: RandomSource;
  readonly limits: ScriptLimits;
  /**
   * The walk's steps since its load or restart (the machine's `steps`). An engine with a run clock or a budget
   * per step reads it when a script runs, so that steps without scripts cost it nothing. Without it, the host
   * tells the sandbox of each step with {@link ScriptSandbox.stepped}.
   */
  readonly stepCount?: () => number;
  /**
   * Told whenever a script reads what the same variables do not decide: `Math.random`, the time. The planner
   * (docs/planning.md) learns from it which outcomes it cannot foresee in the sandboxes it explores in, and the
   * machine whether a walk's model actions began it with values another walk would not have.
   */
  readonly onUnpredictable?: () => void;
  /**
   * What {@link ScriptEngine.reserve} set aside for this sandbox. Without it the engine takes what it has
   * ready, which for the built-in engine may be a memory shared with other sandboxes (its README says when).
   */
  readonly reservation?: SandboxReservation;
  /**
   * A sandbox of the same walk, of the same engine, to open this one beside: both then share its resources and
   * limits (one memory and one memory limit for a walk's scripts, its own and its planner's), and this one
   * reserves nothing. Freeing this one leaves the other's resources to it.
   */
  readonly beside?: ScriptSandbox;
  /**
   * Optional, for a host that would rather run a long request elsewhere than let it hold where it runs (the
   * service: a walk on its event loop moves to a thread of its own). Read when a request's first script starts:
   * the script time after which the request's scripts stop with a `ScriptError` whose limit is `yield`, or
   * undefined for none. Unlike the other limits it says nothing of the script, so the host does not answer it:
   * it puts the walk back as it was and runs the request again where the scripts may use their whole limits.
   * An engine without it holds scripts to their limits alone.
   */
  readonly yieldAfterMs?: () => number | undefined;
}

/**
 * The variables of one walk: one scope per model plus one shared scope.
 *
 * Which scope a script runs in is the engine's rule: the built-in engine follows GraphWalker's (a script whose
 * text mentions `global.` runs, with every `global.` removed, in the shared scope; any other in its model's:
 * plugins/quickjs/shared-scope.ts). Variables are implicit globals of their scope (`x = 1;`). Every failure — a thrown error, a syntax error, a guard that is not boolean, an exceeded time,
 * budget or memory limit — is thrown as a `ScriptError` naming the origin; the sandbox stays usable afterwards.
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
   * strings without quotes, other values as JSON. Reading may run a script (a getter, a `toJSON`): a failure
   * names `origin`, by default the scope's number and the `getData` field.
   */
  variables(scope: number, origin?: ScriptOrigin): Array<[name: string, value: string]>;
  /**
   * The walk took a step, for a host that gives no `stepCount` (the machine gives one and never calls this):
   * the run's clock advances and the step's scripts start a budget of their own. Optional: an engine without
   * clock or budget ignores it.
   */
  stepped?(): void;
  /**
   * Optional, for planning (docs/planning.md): the variables of every scope as one text that {@link restore}
   * takes back, equal for equal variables in the same order of first assignment. Per model scope in order,
   * then the shared one: a JSON array of names and values alternating (`["count",2,"open",true]`), or nothing
   * for a scope without variables; joined by {@link SNAPSHOT_SEPARATOR}. Undefined when some value has no
   * faithful copy in JSON (a function, an instance of a class, undefined, NaN, -0), which leaves the walk to
   * the planner that ignores variables.
   */
  snapshot?(): string | undefined;
  /** Optional, with {@link snapshot}: replaces the variables of every scope by those of a snapshot. */
  restore?(state: string): void;
  /**
   * Forgets every variable of every scope and rewinds the run's clock (restart); the random source is reset by
   * the machine. An engine may give the walk fresh resources (a memory that grew goes back): a
   * `reservation` is then where they come from, and it is left unused when none are needed.
   */
  reset(reservation?: SandboxReservation): void;
  /** Frees every resource; the sandbox must not be used afterwards. */
  dispose(): void;
}

/** Joins the scopes of a {@link ScriptSandbox.snapshot}: U+0001, which JSON text never holds raw. */
export const SNAPSHOT_SEPARATOR = '\u0001';

/** Prepared guards; evaluate() writes 1 (open) or 0 (closed) per guard into `out`. */
export interface GuardSet {
  evaluate(out: Uint8Array): void;
}

/** The scripts an element's actions run as under `engine` ({@link ScriptEngine.actionScripts}). */
export function actionScriptsOf(engine: ScriptEngine, actions: readonly string[]): readonly string[] {
  return engine.actionScripts?.(actions) ?? actions;
}
