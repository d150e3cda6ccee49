import { ErrorCodes, WalkerError } from './errors.js';
import type { Machine } from './machine/machine.js';
import { loadModelFile, type LoadedModelFile } from './model/load.js';
import { formatOf, readWith } from './model/formats.js';
import type { ModelFormat } from './format.js';
import { NO_GENERATOR_MESSAGE, SESSION_DATA_WRITERS, type DataWriters } from './machine/machine.js';
import { inspectWalk } from './inspect-walk.js';
import type { SandboxReservation } from './scripting.js';
import { walkSettings, type WalkSettingsInput } from './walk-settings.js';
import type { Walker } from './walker.js';
import type { Step } from './machine/machine.js';
import type { WalkStatistics } from './machine/statistics.js';
import type { ModelFileJson } from './model/types.js';
import { graphShape, seenVariables, walkProgress, type GraphShape, type VariablesSeen, type WalkProgress } from './machine/walk-view.js';
import { reportStep, type StepReport, type StepReportOptions } from './machine/step-report.js';
import { fold, Journal, THREW, type JournalRecord, type JournalStart } from './journal.js';
import type { Awaitable } from './awaitable.js';

/** The message of docs/api-execution.md for any operation that needs a model before one is loaded. */
export const NOT_LOADED_MESSAGE = 'No model(s) are loaded.';

/**
 * What every load of a session shares (from the command line or the app options): the walk settings
 * (core/walk-settings.ts; a fixed `seed` wins over the model file's), and how the session reports.
 */
export interface SessionDefaults extends WalkSettingsInput {
  /**
   * Who may write the variables; default `client`, since a session's client may call setData: a goal only
   * guards close is served with a `goal_needs_data` warning rather than refused (docs/planning.md).
   */
  readonly dataWriters?: DataWriters;
  /** What each step reports beside the element (`--verbose`, `--unvisited`). */
  readonly stepReport?: StepReportOptions;
  /** Keep a {@link Journal} of the walk, so that another thread can rebuild it (server/sessions). */
  readonly journal?: boolean;
  /**
   * When the walk's scripts yield to the host, which then runs the request elsewhere (`SandboxOptions.yieldAfterMs`,
   * core/scripting.ts): a function, so it stays in this thread and out of what crosses to another.
   */
  readonly yieldAfterMs?: () => number | undefined;
}

/** What one load may set beside the model. */
export interface SessionLoadOptions {
  /** Replaces the generator of each model, indexed like the file's models (`-m <file> "<generator>"`). */
  readonly generators?: readonly (string | undefined)[];
  /** Replaces the generator of every model (the load's `generator` parameter); `generators` wins over it. */
  readonly generator?: string;
  /** Named in error messages, e.g. the file the model came from. */
  readonly source?: string;
  /** Fixes the seed of this load; it wins over the session's and the file's. */
  readonly seed?: number;
}

/** What a successful load reports. */
export interface SessionLoadResult {
  /** Give it back (`--seed`) to replay the identical path. */
  readonly seed: number;
  /**
   * The loader's warnings, then what planning with guards found at the start of the walk (docs/planning.md):
   * a bound its exploration stopped at (`plan_bound`), goals only a client's data may open (`goal_needs_data`), edges no state of the walk lets through (`closed_edge`).
   */
  readonly warnings: LoadedModelFile['warnings'];
}

export type { Awaitable } from './awaitable.js';

/** One step as the execution endpoints answer it: the element, and what the session reports of it. */
export interface StepAnswer {
  readonly step: Step;
  readonly report: StepReport;
}

/**
 * What the execution endpoints ask of a walk, in plain data, so that the walk may run in this thread (an
 * {@link ExecutionSession}) or another (server/sessions/worker-walk.ts) behind the same endpoints. Each
 * method is a row of {@link WALK_OPERATIONS}, which says what the proxies and the journal do with it.
 */
export interface SessionWalk {
  load(text: string, options?: SessionLoadOptions): Awaitable<SessionLoadResult>;
  /** Opens a walk on a model file value (what JSON.parse gives of a model file, a draft's revision). */
  loadModel(value: unknown, options?: SessionLoadOptions): Awaitable<SessionLoadResult>;
  hasNext(): Awaitable<boolean>;
  next(): Awaitable<StepAnswer>;
  /** The current model's variables, then the shared ones as `global.<name>`, in first-assignment order. */
  variables(): Awaitable<Array<[string, string]>>;
  setData(script: string): Awaitable<void>;
  restart(): Awaitable<void>;
  fail(reason: string): Awaitable<void>;
  /** Steps taken since the load or restart. */
  stepCount(): Awaitable<number>;
  statistics(): Awaitable<WalkStatistics>;
  /** The loaded model file, as checked and normalised at the load (GraphWalker's `getModel`); throws before a load. */
  modelFile(): Awaitable<ModelFileJson>;
  /** What a list of sessions shows of this walk; answers even before a load. */
  describe(): Awaitable<WalkSummary>;
  /**
   * The walk as a picture shows it (docs/view.md): where it stands, with its variables read as getData reads
   * them, and the shape of its models unless `knownLoad` names the load the caller already has it of.
   */
  view(knownLoad?: number): Awaitable<WalkView>;
}

/** How the journal records an operation, so that another thread can ask it again. */
export interface JournalEntry {
  /** Its byte in a journal: never reused for another operation, since journals cross threads. */
  readonly code: number;
  /** It takes one text (a script, a reason), which the journal keeps beside the byte. */
  readonly text: boolean;
  /**
   * The number its answer folds into the journal's fingerprint, which proves a replay arrived; the session
   * records the same number as the operation runs (`Journal.record`), the replay makes it of the answer.
   */
  outcome(answer: unknown): number;
}

/** What the walk's stack needs to know of one operation; everything else about it is its method. */
export interface WalkOperation {
  /** It may change what a later operation answers: position, coverage, statuses, variables or the model. */
  readonly changes: boolean;
  /**
   * How a journal records it. A read that runs scripts is journaled too (getters may draw from the walk's
   * random source); a load is not recorded but starts a journal afresh (`Journal.begin`).
   */
  readonly journal?: JournalEntry;
  /**
   * It opens a walk, so it waits for a reservation of the script engine and its work is judged as a load's
   * (`load`) or a restart's, not as a step's.
   */
  readonly opens?: 'load' | 'restart';
  /** What a watcher's list of recent steps does once it answered: starts afresh, or adds the step taken. */
  readonly observed?: 'afresh' | 'step';
}

const nothing = (): number => 0;

/**
 * Every operation of a walk, declared once, beside its signature above and its implementation in
 * {@link ExecutionSession} below, so that a new operation is this file alone. The proxies of a walk
 * (server/sessions/local-walk.ts, worker-walk.ts, server/view/observed-walk.ts, built on core/walk-proxy.ts),
 * the worker's dispatcher, and the journal's bytes and replay derive from it; the type makes a row missing or
 * left over a compile error, and test/architecture/walk-operations.test.ts fails too.
 */
export const WALK_OPERATIONS = {
  load: { changes: true, opens: 'load', observed: 'afresh' },
  loadModel: { changes: true, opens: 'load', observed: 'afresh' },
  hasNext: { changes: true, journal: { code: 1, text: false, outcome: (more) => (more === true ? 1 : 0) } },
  next: {
    changes: true,
    journal: { code: 2, text: false, outcome: (answer) => (answer as { step: { element: number } }).step.element },
    observed: 'step',
  },
  variables: { changes: false, journal: { code: 3, text: false, outcome: nothing } },
  setData: { changes: true, journal: { code: 4, text: true, outcome: nothing } },
  // Recorded only when it fails; a restart that succeeds rewinds the journal to its load.
  restart: { changes: true, journal: { code: 5, text: false, outcome: nothing }, opens: 'restart', observed: 'afresh' },
  fail: { changes: true, journal: { code: 6, text: true, outcome: nothing } },
  stepCount: { changes: false },
  statistics: { changes: false },
  modelFile: { changes: false },
  describe: { changes: false },
  view: { changes: false },
} as const satisfies { readonly [K in keyof SessionWalk]: WalkOperation };

/** The operations a journal records. */
export type JournaledOperation = {
  [K in keyof SessionWalk]: (typeof WALK_OPERATIONS)[K] extends { readonly journal: JournalEntry } ? K : never;
}[keyof SessionWalk];

/** What {@link operationOfCode} gives for a journal's byte. */
export interface JournaledRow {
  readonly name: JournaledOperation;
  readonly entry: JournalEntry;
}

const byCode: (JournaledRow | undefined)[] = [];
for (const [name, row] of Object.entries(WALK_OPERATIONS) as Array<[keyof SessionWalk, WalkOperation]>) {
  if (row.journal !== undefined) byCode[row.journal.code] = { name: name as JournaledOperation, entry: row.journal };
}

/** The journaled operation of a journal's byte; undefined for a byte no operation has. */
export function operationOfCode(code: number): JournaledRow | undefined {
  return byCode[code];
}

/**
 * Each journaled operation's byte, by name: what {@link ExecutionSession} records. The byte rather than the
 * name, since a lookup by name per step showed (docs/benchmarks.md, "The walk's operations declared once").
 */
export const JournalOp = Object.fromEntries(
  byCode.flatMap((row) => (row === undefined ? [] : [[row.name, row.entry.code]])),
) as { readonly [K in JournaledOperation]: (typeof WALK_OPERATIONS)[K]['journal']['code'] };

/** What {@link replayJournal} calls: the journaled operations, answering at once; an ExecutionSession is one. */
export type Replayable = { [K in JournaledOperation]: (...args: Parameters<SessionWalk[K]>) => Awaited<ReturnType<SessionWalk[K]>> };

/**
 * Asks `walk` (freshly loaded from the journal's start) everything the journal recorded, in order, and
 * answers the fingerprint of the outcomes: equal to the journal's when the walk arrived where the original did.
 */
export function replayJournal(walk: Replayable, record: JournalRecord): number {
  let hash = 0;
  let text = 0;
  for (const op of record.ops) {
    const row = operationOfCode(op);
    if (row === undefined) throw new Error(`a journal holds the byte ${op}, which no operation records`);
    let outcome: number;
    try {
      const method = walk[row.name] as (...args: unknown[]) => unknown;
      const answer = row.entry.text ? method.call(walk, record.texts[text++]) : method.call(walk);
      outcome = row.entry.outcome(answer);
    } catch {
      outcome = THREW;
    }
    hash = fold(hash, op, outcome);
  }
  return hash;
}

/** What {@link SessionWalk.view} answers. */
export interface WalkView {
  /** Counts the loads of the walk: 0 before the first, so a new number means a new model. */
  readonly load: number;
  /** The models, unless the caller said it has them (`knownLoad`); absent before a load. */
  readonly shape?: GraphShape;
  /** Absent before a load. */
  readonly progress?: WalkProgress & VariablesSeen;
}

/** A walk in a few figures (`GET /walker/sessions`). */
export interface WalkSummary {
  readonly models: readonly { readonly id: string; readonly name?: string }[];
  readonly seed?: number;
  readonly steps: number;
  readonly vertexCoverage: number;
  readonly edgeCoverage: number;
}

/**
 * One execution session: at most one loaded model and the {@link Machine} walking it. It knows nothing of
 * HTTP, nor of order: its host runs one operation at a time (server/sessions/request-queue.ts), and the
 * `/walker` routes (and any other wire format) map its results and errors to their own format. Nothing in it
 * is global, so a process may hold any number of sessions.
 */
export class ExecutionSession implements SessionWalk {
  private current: Machine | undefined;
  /** What was asked of the walk since its load, when the defaults ask for it. */
  readonly journal: Journal | undefined;
  private loadedFile: LoadedModelFile | undefined;
  /** Loads so far, for {@link view}: a picture redraws the models only when this moves. */
  private loads = 0;
  /** Counts what may change the variables (steps, setData, restart, fail), for {@link unreadable}. */
  private writes = 0;
  /**
   * Variables that could not be read, and when: a picture asked again before the walk changed shows the same
   * reason without running the failing getter again, so that views of a walk whose getter loops cost the event
   * loop one time limit per change of the walk, not one per reader.
   */
  private unreadable: { load: number; writes: number; seen: VariablesSeen } | undefined;
  /** Loads asked for, failed ones included. */
  private asked = 0;

  constructor(
    private readonly walker: Walker,
    private readonly defaults: SessionDefaults = {},
  ) {
    if (defaults.journal === true) this.journal = new Journal();
  }

  /** Loads asked of the session so far, failed ones included: a host that times requests tells a load's work from a step's by it. */
  get loadsAsked(): number {
    return this.asked;
  }

  /** Loads that opened a walk so far: what {@link view} counts, which a host that moves the walk goes on from. */
  get loadCount(): number {
    return this.loads;
  }

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
   * Reads model file text in any registered format (JSON, GraphML, ...: see `formatOf`) and opens a walk on it.
   * The new machine is built completely before it replaces the old one, so a load that fails (bad JSON, no
   * generator, a script error in a model action) changes nothing. A
   * `reservation` of the script engine (core/scripting.ts) is what the walk's sandbox is opened with; the
   * caller gives it back. It is never journaled: it belongs to this thread.
   */
  load(text: string, options: SessionLoadOptions = {}, reservation?: SandboxReservation): SessionLoadResult {
    this.asked++;
    const format = formatOf(text, this.walker.registries.formats, options.source);
    const value = readWith(format, text, options.source);
    const generators = options.generators ?? everyModel(value, options.generator);
    // docs/api-execution.md names this failure first: a model without generator cannot be walked, whatever else is wrong.
    if (lacksGenerator(value, generators)) throw new WalkerError(ErrorCodes.NO_GENERATOR, noGenerator(format));
    return this.openValue({ text }, value, { ...options, generators }, reservation);
  }

  /** Opens a walk on a model file value (what JSON.parse gives of a model file), all or nothing like {@link load}. */
  loadModel(value: unknown, options: SessionLoadOptions = {}, reservation?: SandboxReservation): SessionLoadResult {
    this.asked++;
    const generators = options.generators ?? everyModel(value, options.generator);
    return this.openValue({ value }, value, { ...options, generators }, reservation);
  }

  /**
   * Opens a walk on an already loaded model file, with the same all-or-nothing rule as {@link load}. Give the
   * value it was loaded from as `source` to keep the walk journaled; without it the journal stops.
   */
  open(
    loaded: LoadedModelFile,
    options: SessionLoadOptions = {},
    source?: JournalStart['source'],
    reservation?: SandboxReservation,
  ): SessionLoadResult {
    // Only what the load explored already: a walk whose goal needs no elements is not explored for a warning.
    const { walk, refusal, issues } = inspectWalk(
      this.walker,
      loaded,
      {
        ...walkSettings(this.defaults),
        seed: options.seed ?? this.defaults.seed,
        generators: options.generators,
        dataWriters: this.defaults.dataWriters ?? SESSION_DATA_WRITERS,
        reservation,
        yieldAfterMs: this.defaults.yieldAfterMs,
      },
      { keep: true },
    );
    if (refusal !== undefined) throw refusal;
    // A walk that opened without lint is kept whenever nothing refused it.
    const machine = walk as Machine;
    const warnings = [...loaded.warnings, ...issues];
    const previous = this.current;
    this.current = machine;
    this.loadedFile = loaded;
    this.loads++;
    previous?.dispose();
    if (source === undefined) this.journal?.stop();
    else this.journal?.begin({ source, options: withoutSeed(options), seed: machine.seed });
    return { seed: machine.seed, warnings };
  }

  /**
   * Undoes what an operation that a limit cut short did to the walk ({@link Journal.cutShort}): opens the walk
   * afresh from the journal's load, asks it everything the journal recorded, and takes its machine once it
   * arrived where the journal says (the fingerprints agree), so that the walk is exactly as it was before that
   * operation. Throws, changing nothing, when the journal cannot rebuild the walk or the replay went elsewhere.
   * It costs what the walk cost since its load or restart, scripts included.
   */
  restore(reservation?: SandboxReservation): void {
    const record = this.journal?.cutShort === true ? this.journal.snapshot() : undefined;
    if (record === undefined) throw new Error('its journal does not hold the walk as it was (it stopped, or was never kept)');
    const { journal: _journal, ...defaults } = this.defaults;
    const fresh = new ExecutionSession(this.walker, defaults);
    const { source, options, seed } = record.start;
    try {
      if ('text' in source) fresh.load(source.text, { ...options, seed }, reservation);
      else fresh.loadModel(source.value, { ...options, seed }, reservation);
      if (replayJournal(fresh, record) !== record.fingerprint) throw new Error('its replay did not arrive where the walk was');
    } catch (error) {
      fresh.dispose();
      throw error;
    }
    const previous = this.current;
    this.current = fresh.current;
    fresh.current = undefined;
    previous?.dispose();
    this.journal?.resume();
  }

  /** Frees the machine; the session answers NOT_LOADED afterwards. */
  dispose(): void {
    this.current?.dispose();
    this.current = undefined;
    this.loadedFile = undefined;
  }

  // SessionWalk: the operations of the execution endpoints, journaled when the defaults ask for it.

  hasNext(): boolean {
    const machine = this.machine;
    try {
      const more = machine.hasNext();
      this.journal?.record(JournalOp.hasNext, more ? 1 : 0);
      return more;
    } catch (error) {
      this.journal?.recordThrow(JournalOp.hasNext, error);
      throw error;
    }
  }

  next(): StepAnswer {
    this.writes++;
    const machine = this.machine;
    let step: Step;
    try {
      step = machine.next();
    } catch (error) {
      this.journal?.recordThrow(JournalOp.next, error);
      throw error;
    }
    this.journal?.record(JournalOp.next, step.element);
    return { step, report: reportStep(machine, step, this.defaults.stepReport) };
  }

  variables(): Array<[string, string]> {
    let variables: Array<[string, string]>;
    try {
      variables = this.machine.variables();
    } catch (error) {
      this.journal?.recordThrow(JournalOp.variables, error);
      throw error;
    }
    this.journal?.record(JournalOp.variables, 0);
    return variables;
  }

  setData(script: string): void {
    this.writes++;
    const machine = this.machine;
    try {
      machine.setData(script);
    } catch (error) {
      this.journal?.recordThrow(JournalOp.setData, error, script);
      throw error;
    }
    this.journal?.record(JournalOp.setData, 0, script);
  }

  /** Restarts the walk; the engine may give it fresh resources, from `reservation` when one is given. */
  restart(reservation?: SandboxReservation): void {
    this.writes++;
    const machine = this.machine;
    try {
      machine.restart(reservation);
    } catch (error) {
      this.journal?.recordThrow(JournalOp.restart, error);
      throw error;
    }
    this.journal?.rewind();
  }

  fail(reason: string): void {
    this.writes++;
    this.machine.fail(reason);
    this.journal?.record(JournalOp.fail, 0, reason);
  }

  stepCount(): number {
    return this.machine.steps;
  }

  statistics(): WalkStatistics {
    return this.machine.statistics();
  }

  modelFile(): ModelFileJson {
    if (this.loadedFile === undefined) throw new WalkerError(ErrorCodes.NOT_LOADED, NOT_LOADED_MESSAGE);
    return this.loadedFile.file;
  }

  describe(): WalkSummary {
    const machine = this.current;
    if (machine === undefined) return { models: [], steps: 0, vertexCoverage: 0, edgeCoverage: 0 };
    const { vertexCoverage, edgeCoverage } = machine.statistics();
    const models = machine.graph.models.map((m) => (m.name === undefined ? { id: m.id } : { id: m.id, name: m.name }));
    return { models, seed: machine.seed, steps: machine.steps, vertexCoverage, edgeCoverage };
  }

  view(knownLoad?: number): WalkView {
    const machine = this.current;
    if (machine === undefined) return { load: this.loads };
    const shape = knownLoad === this.loads ? {} : { shape: graphShape(machine.graph) };
    return { load: this.loads, ...shape, progress: { ...walkProgress(machine), ...this.seenVariables() } };
  }

  private seenVariables(): VariablesSeen {
    const known = this.unreadable;
    if (known !== undefined && known.load === this.loads && known.writes === this.writes) return known.seen;
    const seen = seenVariables(() => this.variables());
    this.unreadable = seen.variablesUnavailable === undefined ? undefined : { load: this.loads, writes: this.writes, seen };
    return seen;
  }

  /** Loads a model file value and records where it came from, so that the journal can replay the load. */
  private openValue(
    source: JournalStart['source'],
    value: unknown,
    options: SessionLoadOptions,
    reservation: SandboxReservation | undefined,
  ): SessionLoadResult {
    const loaded = loadModelFile(value, { source: options.source, blocked: this.defaults.blocked });
    return this.open(loaded, options, source, reservation);
  }
}

/** The seed is journaled apart, as the one the walk got. */
function withoutSeed(options: SessionLoadOptions): SessionLoadOptions {
  const { seed: _seed, ...rest } = options;
  return rest;
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
