import { createRegistries, installPlugins, scriptEngineOf, type Registries, type WalkerPlugin } from './plugin.js';
import { loadModelFile, loadModelText, ModelIssuesError, readModelFile, type LoadedModelFile } from './model/load.js';
import { scriptSyntaxIssues } from './model/script-syntax.js';
import type { ModelFileJson } from './model/types.js';
import { withReservation, type SandboxReservation, type ScriptEngine } from './scripting.js';
import { walkSettings, type WalkSettingsInput } from './walk-settings.js';
import { freshSeed, isSeed } from './random.js';
import { Machine, type DataWriters } from './machine/machine.js';
import { ErrorCodes, invalidGenerator, WalkerError } from './errors.js';
import type { Awaitable } from './awaitable.js';

/**
 * How to open a walk. Give exactly one of `file`, `text` and `model`. The settings of {@link WalkSettingsInput}
 * (`seed`, `blocked`, `scriptLimits`, `planStates`, `planTimeMs`) each keep their default when left out; a
 * caller that opens many walks alike hands the same `WalkSettings` value to each.
 */
export interface OpenOptions extends WalkSettingsInput {
  /** Path of a model file, in any registered format (JSON, GraphML, ...). */
  readonly file?: string;
  /** Text of a model file, in any registered format. */
  readonly text?: string;
  /** A model file as a parsed object. */
  readonly model?: ModelFileJson | object;
  /** Replaces the generator of every model, e.g. `random(edge_coverage(100))`. */
  readonly generator?: string;
  /** Replaces the generator of each model, indexed like the file's models (wins over `generator`). */
  readonly generators?: readonly (string | undefined)[];
  readonly scriptEngine?: string;
  /**
   * For {@link Walker.walk}: what the script engine set aside for the walk's sandbox (see {@link Walker.reserved});
   * the caller gives it back. {@link Walker.open} reserves by itself.
   */
  readonly reservation?: SandboxReservation;
  /**
   * Who may write the walk's variables: `model` (the default: only its actions, as offline) or `client` (test
   * code sets data too, as online): a goal only guards close is then a warning, not a refusal (docs/planning.md).
   */
  readonly dataWriters?: DataWriters;
  /** For a host that runs long requests elsewhere: see `SandboxOptions.yieldAfterMs` (core/scripting.ts). */
  readonly yieldAfterMs?: () => number | undefined;
}

/**
 * The library entry point: the registries filled by plugins, and walks opened against them. One Walker
 * serves any number of walks; every walk has its own machine, random source and script sandbox.
 */
export class Walker {
  private disposed = false;

  constructor(readonly registries: Registries) {}

  /** A Walker with these plugins installed (for example `builtinPlugins()` from `walker/plugins`). */
  static async create(plugins: readonly WalkerPlugin[]): Promise<Walker> {
    const registries = createRegistries();
    await installPlugins(registries, plugins);
    return new Walker(registries);
  }

  /**
   * Frees what the plugins' script engines hold for walks to come (the built-in engine: its spare WebAssembly
   * memories, 16 MiB each). Walks already open go on until their own `dispose()`; opening another walk
   * afterwards throws `WALKER_DISPOSED`. The registries are this Walker's to dispose of: a Walker made with
   * `new Walker(registries)` over registries another Walker also uses disposes their engines for both.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const engine of this.registries.scriptEngines.values()) engine.dispose?.();
  }

  /** Loads a model file and opens a walk on it. Throws a `WalkerError` that says what to fix. */
  async open(options: OpenOptions): Promise<Machine> {
    this.checkOpen();
    const formats = this.registries.formats;
    const loaded =
      options.file !== undefined
        ? await readModelFile(options.file, { blocked: options.blocked, formats })
        : options.text !== undefined
          ? loadModelText(options.text, { blocked: options.blocked, formats })
          : loadModelFile(options.model, { blocked: options.blocked });
    if (options.reservation !== undefined) return this.walk(loaded, options);
    return this.reserved((reservation) => this.walk(loaded, { ...options, reservation }), options.scriptEngine);
  }

  /**
   * Runs `open`, which opens walks synchronously ({@link walk}), with a reservation of the script engine (by
   * name; default the first registered) when it offers them, and gives back what `open` did not use: a walk
   * opened in asynchronous code gets resources of its own however many are opened at once (docs/plugins.md).
   * Synchronous when the engine has no reservations.
   */
  reserved<T>(open: (reservation: SandboxReservation | undefined) => T, scriptEngine?: string): Awaitable<T> {
    this.checkOpen();
    return withReservation(this.engine(scriptEngine), open);
  }

  /** The script engine walks use: by name, else the first registered. */
  engine(name?: string): ScriptEngine {
    return scriptEngineOf(this.registries, name);
  }

  /** Reads and loads a model file in any format of this walker's registries, without opening a walk. */
  read(path: string, options: { readonly blocked?: boolean } = {}): Promise<LoadedModelFile> {
    return readModelFile(path, { ...options, formats: this.registries.formats });
  }

  /**
   * Opens a walk on an already loaded model file. Its guards and actions are parsed first, by the script
   * engine the walk uses: a script that does not parse is refused here, with every other one that does not.
   */
  walk(loaded: LoadedModelFile, options: Omit<OpenOptions, 'file' | 'text' | 'model'> = {}): Machine {
    this.checkOpen();
    const settings = walkSettings(options);
    const seed = settings.seed ?? loaded.file.seed ?? freshSeed();
    if (!isSeed(seed)) {
      throw invalidGenerator(`The seed must be a non-negative whole number, got ${seed}.`);
    }
    const syntax = scriptSyntaxIssues(loaded.graph, this.engine(options.scriptEngine));
    if (syntax.length > 0) throw new ModelIssuesError(syntax, loaded.source);
    return new Machine({
      graph: loaded.graph,
      registries: this.registries,
      generators: options.generators ?? loaded.graph.models.map(() => options.generator),
      seed,
      scriptEngine: options.scriptEngine,
      settings,
      reservation: options.reservation,
      dataWriters: options.dataWriters,
      yieldAfterMs: options.yieldAfterMs,
    });
  }

  private checkOpen(): void {
    if (this.disposed) {
      throw new WalkerError(ErrorCodes.DISPOSED, 'This Walker was disposed: make a new one with Walker.create to open more walks.');
    }
  }
}
