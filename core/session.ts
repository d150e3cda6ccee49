import { ErrorCodes, WalkerError } from './errors.js';
import type { Machine } from './machine/machine.js';
import { loadModelFile, type LoadedModelFile } from './model/load.js';
import { formatOf } from './model/formats.js';
import type { ModelFormat } from './format.js';
import { NO_GENERATOR_MESSAGE } from './machine/machine.js';
import type { ScriptLimits } from './scripting.js';
import type { Walker } from './walker.js';

/** The message of docs/api-execution.md for any operation that needs a model before one is loaded. */
export const NOT_LOADED_MESSAGE = 'No model(s) are loaded.';

/** What every load of a session shares (from the command line or the app options). */
export interface SessionDefaults {
  /** Fixes the seed of every load (`--seed`); it wins over the model file's `seed`. */
  readonly seed?: number;
  readonly scriptLimits?: Partial<ScriptLimits>;
  /** Leave out elements whose `properties.blocked` is true (default true). */
  readonly blocked?: boolean;
}

/** What one load may set beside the model. */
export interface SessionLoadOptions {
  /** Replaces the generator of each model, indexed like the file's models (`-m <file> "<generator>"`). */
  readonly generators?: readonly (string | undefined)[];
  /** Replaces the generator of every model (the load's `generator` parameter); `generators` wins over it. */
  readonly generator?: string;
  /** Named in error messages, e.g. the file the model came from. */
  readonly source?: string;
}

/** What a successful load reports. */
export interface SessionLoadResult {
  /** Give it back (`--seed`) to replay the identical path. */
  readonly seed: number;
  readonly warnings: LoadedModelFile['warnings'];
}

/** A unit of work run by {@link ExecutionSession.run}; it must not call `run` itself. */
export type SessionTask<T> = (session: ExecutionSession) => T | Promise<T>;

/**
 * One execution session: at most one loaded model and the {@link Machine} walking it, and a queue that runs
 * the operations on it strictly one at a time. It knows nothing of HTTP; the `/walker` routes (and any other
 * wire format) map its results and errors to their own format. Nothing in it is global, so a process may
 * hold any number of sessions.
 */
export class ExecutionSession {
  private current: Machine | undefined;
  private loadedFile: LoadedModelFile | undefined;
  private readonly waiting: Array<() => void> = [];
  /** True while an asynchronous task holds the session. */
  private busy = false;
  /** True while {@link drain} runs the waiting tasks, so that a finished task does not start a nested drain. */
  private draining = false;

  constructor(
    private readonly walker: Walker,
    private readonly defaults: SessionDefaults = {},
  ) {}

  /** True once a model is loaded. */
  get loaded(): boolean {
    return this.current !== undefined;
  }

  /** The walk of the loaded model; throws NOT_LOADED (`No model(s) are loaded.`) before the first load. */
  get machine(): Machine {
    if (this.current === undefined) throw new WalkerError(ErrorCodes.NOT_LOADED, NOT_LOADED_MESSAGE);
    return this.current;
  }

  /** The loaded model file, normalised, or undefined before the first load. */
  get model(): LoadedModelFile | undefined {
    return this.loadedFile;
  }

  /**
   * Runs a task once every task queued before it has finished, and answers its result. A task that returns
   * synchronously while the session is idle runs at once (no queueing cost on the hot path); an asynchronous
   * one holds the session until its promise settles.
   */
  run<T>(task: SessionTask<T>): Promise<T> {
    if (this.busy || this.waiting.length > 0) {
      return new Promise<T>((resolve, reject) => {
        this.waiting.push(() => this.start(task).then(resolve, reject));
      });
    }
    return this.start(task);
  }

  /**
   * Reads model file text in any registered format (JSON, GraphML, ...: see `formatOf`) and opens a walk on it.
   * The new machine is built completely before it replaces the old one, so a load that fails (bad JSON, no
   * generator, a script error in a model action) changes nothing. Call it inside {@link run}.
   */
  load(text: string, options: SessionLoadOptions = {}): SessionLoadResult {
    const format = formatOf(text, this.walker.registries.formats, options.source);
    const value = (format.read as NonNullable<ModelFormat['read']>)(text, options.source === undefined ? {} : { path: options.source });
    const generators = options.generators ?? everyModel(value, options.generator);
    // docs/api-execution.md names this failure first: a model without generator cannot be walked, whatever else is wrong.
    if (lacksGenerator(value, generators)) throw new WalkerError(ErrorCodes.NO_GENERATOR, noGenerator(format));
    const loaded = loadModelFile(value, { source: options.source, blocked: this.defaults.blocked });
    return this.open(loaded, { ...options, generators });
  }

  /** Opens a walk on an already loaded model file, with the same all-or-nothing rule as {@link load}. */
  open(loaded: LoadedModelFile, options: SessionLoadOptions = {}): SessionLoadResult {
    const machine = this.walker.walk(loaded, {
      seed: this.defaults.seed,
      generators: options.generators,
      scriptLimits: this.defaults.scriptLimits,
    });
    const previous = this.current;
    this.current = machine;
    this.loadedFile = loaded;
    previous?.dispose();
    return { seed: machine.seed, warnings: loaded.warnings };
  }

  /** Frees the machine; the session answers NOT_LOADED afterwards. */
  dispose(): void {
    this.current?.dispose();
    this.current = undefined;
    this.loadedFile = undefined;
  }

  private start<T>(task: SessionTask<T>): Promise<T> {
    let result: T | Promise<T>;
    try {
      result = task(this);
    } catch (error) {
      this.drain();
      return Promise.reject(error);
    }
    if (!isPromiseLike(result)) {
      this.drain();
      return Promise.resolve(result);
    }
    this.busy = true;
    return Promise.resolve(result).finally(() => {
      this.busy = false;
      this.drain();
    });
  }

  /** Starts waiting tasks while the session is free: a loop, not recursion, however long the queue is. */
  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    try {
      while (!this.busy && this.waiting.length > 0) this.waiting.shift()?.();
    } finally {
      this.draining = false;
    }
  }
}

function isPromiseLike<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** GraphWalker's message; a format other than JSON carries no generator, which the message then says. */
function noGenerator(format: ModelFormat): string {
  if (format.name === 'json') return NO_GENERATOR_MESSAGE;
  return (
    `${NO_GENERATOR_MESSAGE}: a ${format.name} model file carries none, so give one with the load ` +
    "(the load's generator parameter, e.g. ?generator=random(edge_coverage(100)))"
  );
}

/** One generator for each model of the value, or undefined without one. */
function everyModel(value: unknown, generator: string | undefined): (string | undefined)[] | undefined {
  const models = (value as { models?: unknown } | null)?.models;
  return generator === undefined || !Array.isArray(models) ? undefined : models.map(() => generator);
}

/** True when the value lists models and one of them has no generator that no override replaces. */
function lacksGenerator(value: unknown, overrides: readonly (string | undefined)[] | undefined): boolean {
  const models = (value as { models?: unknown } | null)?.models;
  if (!Array.isArray(models)) return false;
  return models.some((model: unknown, i) => {
    const own = (model as { generator?: unknown } | null)?.generator;
    const generator = overrides?.[i] ?? own;
    return typeof generator !== 'string' || generator.trim() === '';
  });
}
