import type { Graph } from '../model/graph.js';
import { scriptEngineOf, type Registries } from '../plugin.js';
import type { SandboxReservation, ScriptSandbox } from '../scripting.js';
import type { WalkState, RequirementCounts } from '../walk-state.js';
import type { StepDemand, StopCondition } from '../condition.js';
import { SHARED_VARIABLE_PREFIX, actionScriptsOf } from '../scripting.js';
import { SeededRandom } from '../random.js';
import { ErrorCodes, invalidGenerator, WalkerError } from '../errors.js';
import {
  buildChains,
  chainContextOf,
  describeGenerator,
  parseModelGenerators,
  type ChainContext,
  type GeneratorChain,
  type ParsedGenerators,
} from './chain.js';
import { Coverage } from './coverage.js';
import { checkEdgeAnswer } from './generator-answers.js';
import { WalkScripts } from './scripts.js';
import { SharedStates } from './shared-states.js';
import type { ModelStatus, PlanningFigures, WalkStatistics } from './statistics.js';
import type { ExplorationCut } from '../planning/state-space.js';
import { WalkPlanning } from '../planning/walk-planning.js';
import { DEFAULT_WALK_SETTINGS, type WalkSettings } from '../walk-settings.js';
import { describeClosedEdges, guardReach, listed, whyGuardsForbid, type GuardReach } from '../planning/guard-reach.js';
import type { StateSpace } from '../planning/state-space.js';
import { demandsElements } from './conditions.js';
import { variablesOfSnapshot } from './plain-variables.js';

/** What a {@link Machine} needs to walk. */
export interface MachineOptions {
  readonly graph: Graph;
  readonly registries: Registries;
  /** The generator string of each model, indexed like `graph.models`; a missing entry means the model's own. */
  readonly generators?: readonly (string | undefined)[];
  readonly seed: number;
  /** Name of the script engine; default: the first one registered. */
  readonly scriptEngine?: string;
  /**
   * The script limits and planning bounds, as `walkSettings` (core/walk-settings.ts) made and checked them; its
   * `seed` and `blocked` are settled before (`seed` above, and the load). Default {@link DEFAULT_WALK_SETTINGS}.
   */
  readonly settings?: WalkSettings;
  /** Milliseconds clock, for time_duration; default `performance.now`. */
  readonly clock?: () => number;
  /** What the script engine set aside for this walk's sandbox (`ScriptEngine.reserve`); the caller gives it back. */
  readonly reservation?: SandboxReservation;
  /**
   * Who may write the variables (docs/planning.md, "Who writes the variables"): `model`, only the model's own
   * actions, so a goal the guards close is refused at load; `client`, also the client (setData), so it is a
   * warning instead. Default `model`.
   */
  readonly dataWriters?: DataWriters;
  /** When the walk's scripts yield to their host (`SandboxOptions.yieldAfterMs`, core/scripting.ts); default never. */
  readonly yieldAfterMs?: () => number | undefined;
}

/** Who may write a walk's variables: the model's actions alone (offline), or a client too (online, setData). */
export type DataWriters = 'model' | 'client';

/**
 * Who may write the variables of a walk a session serves, and so of a draft a session would load: its client
 * may call setData (docs/planning.md, "Who writes the variables"). One rule, so that validation judges as load does.
 */
export const SESSION_DATA_WRITERS: DataWriters = 'client';

/** A goal the guards close that a client's data may open: judged at load, reported as a warning. */
export interface GuardedGoal {
  readonly model: number;
  readonly message: string;
}

/** One step of a walk: the element the walk now stands on. */
export interface Step {
  /** Element index in the graph. */
  readonly element: number;
  readonly modelIndex: number;
  readonly id: string;
  /** `""` for an unnamed element. */
  readonly name: string;
  readonly modelId: string;
}

/** The message of docs/api-execution.md for a step asked for after the stop condition is fulfilled. */
export const NO_MORE_STEPS_MESSAGE = 'No more steps available: the stop condition is fulfilled.';
/** How {@link Machine.variables} names a variable of the shared scope. */
/** Of the variables as {@link Machine.variables} lists them, the current model's own: no shared `global.` ones. */
export function ownVariables(variables: ReadonlyArray<[string, string]>): Array<[string, string]> {
  return variables.filter(([name]) => !name.startsWith(SHARED_VARIABLE_PREFIX));
}

/** The variables as one `name=value; name=value` string (docs/api-execution.md). */
export function joinVariables(variables: ReadonlyArray<[string, string]>): string {
  return variables.map(([name, value]) => `${name}=${value}`).join('; ');
}

/** `text` matched literally inside a regular expression. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The message of docs/api-execution.md for a model without generator. */
export const NO_GENERATOR_MESSAGE = 'Model has no generator specified';

/**
 * Walks the models of a graph: hands out one element per {@link next}, keeps the variables in a script
 * sandbox, and counts coverage incrementally. It knows nothing of HTTP or files; one machine is one walk, and
 * nothing in it is shared with another machine.
 */
export class Machine implements WalkState {
  readonly graph: Graph;
  readonly random: SeededRandom;
  current = -1;
  currentModel: number;
  steps = 0;
  /** The reason given to the last {@link fail}, if any. */
  failure: string | undefined;

  private readonly parsed: readonly ParsedGenerators[];
  /** What the chains are made from, at load and at every restart; what one walk can cover is made once. */
  private readonly chainContext: ChainContext;
  private readonly sandbox: ScriptSandbox;
  private readonly planning: WalkPlanning;
  /** What the guards let the walk step on, from the start (undefined: not worked out, or not knowable). */
  private reach: GuardReach | null | undefined;
  private reachSpace: StateSpace | undefined;
  private readonly scripts: WalkScripts;
  private readonly coverage: Coverage;
  private readonly shared: SharedStates;
  private readonly statuses: ModelStatus[];
  /** Per model: the element it stands on, or -1 (not entered yet, or left through a shared state). */
  private readonly positions: Int32Array;
  private readonly startModel: number;
  private readonly clock: () => number;
  private chains: GeneratorChain[] = [];
  /** The conditions that count steps themselves (`onStep`), bound, so a step calls only those. */
  private observers: NonNullable<StopCondition['onStep']>[] = [];
  /** The element of the last step, in walk order (`current` follows model switches, this does not). */
  private last = -1;
  /** The element of the step before {@link last}. */
  private previous = -1;
  private startTime = 0;
  /** Set by the walk's sandbox whenever a script reads chance or time; read after the model actions. */
  private readChance = false;
  private readonly dataWriters: DataWriters;
  /** Goals the guards close, when a client may write data: warnings instead of refusals. */
  private guarded: GuardedGoal[] = [];

  /** Builds the walk and runs the model actions. Throws a `WalkerError` saying what to fix. */
  constructor(options: MachineOptions) {
    const graph = (this.graph = options.graph);
    this.dataWriters = options.dataWriters ?? 'model';
    if (this.dataWriters !== 'model' && this.dataWriters !== 'client') {
      throw invalidGenerator(`dataWriters must be 'model' or 'client'; got ${String(this.dataWriters)}.`);
    }
    this.clock = options.clock ?? (() => performance.now());
    this.parsed = graph.models.map((m, i) => {
      const text = options.generators?.[i] ?? m.generator;
      if (text === undefined || text.trim() === '') throw new WalkerError(ErrorCodes.NO_GENERATOR, NO_GENERATOR_MESSAGE, { modelId: m.id });
      return { text, exprs: parseModelGenerators(text, m) };
    });
    const starts = graph.models.map((m) => m.startElement).filter((s) => s >= 0);
    if (starts.length === 0) {
      throw new WalkerError(ErrorCodes.NO_START, 'No model has a start element: set startElementId on one model.');
    }
    this.startModel = graph.modelOf[starts[0]];
    this.currentModel = this.startModel;
    this.random = new SeededRandom(options.seed);
    this.coverage = new Coverage(graph);
    this.statuses = graph.models.map(() => 'not_executed');
    this.positions = new Int32Array(graph.models.length).fill(-1);
    const engine = scriptEngineOf(options.registries, options.scriptEngine);
    const settings = options.settings ?? DEFAULT_WALK_SETTINGS;
    const limits = settings.scriptLimits;
    this.sandbox = engine.createSandbox({
      scopes: graph.models.length,
      random: this.random,
      limits,
      stepCount: () => this.steps,
      reservation: options.reservation,
      yieldAfterMs: options.yieldAfterMs,
      onUnpredictable: () => {
        this.readChance = true;
      },
    });
    this.scripts = new WalkScripts(graph, this.sandbox, (actions) => actionScriptsOf(engine, actions));
    const [bound, timeMs] = [settings.planStates, settings.planTimeMs];
    this.planning = new WalkPlanning({ graph, engine, limits, seed: options.seed, live: this.sandbox, bound, timeMs });
    this.chainContext = chainContextOf(graph, options.registries, this.random, this.planning);
    this.shared = new SharedStates(graph, this.scripts, this.random);
    try {
      this.begin();
    } catch (error) {
      this.dispose();
      throw error;
    }
  }

  /** The seed this walk was made with; the same seed and requests give the same path. */
  get seed(): number {
    return this.random.seed;
  }

  /** True while some model's stop condition is not yet fulfilled and the walk can go on. */
  hasNext(): boolean {
    for (let m = 0; m < this.statuses.length; m++) {
      const status = this.statuses[m];
      if (status === 'completed' || status === 'failed') continue;
      if (this.chains[m].active(this) === undefined) {
        this.statuses[m] = 'completed';
        continue;
      }
      if (m === this.currentModel) return true;
      if (this.canEnter(m)) {
        this.switchTo(m);
        return true;
      }
      // The work left is in a model only a shared state leads to: walk on, unless this model cannot move.
      if (this.statuses[this.currentModel] !== 'failed') return true;
    }
    return false;
  }

  /**
   * Takes one step and returns it. Throws NO_MORE_STEPS when {@link hasNext} is false, NO_PATH at a dead end.
   * The walk moves onto the element here, written out rather than called: V8 inlines the functions a step
   * calls only up to a budget of their bytecode, and the step's own code does not count against it, so more
   * of the small calls below (coverage, guards, actions) are inlined (docs/benchmarks.md, "Measurements behind
   * the code"). The element's actions run last.
   */
  next(): Step {
    if (!this.hasNext()) throw new WalkerError(ErrorCodes.NO_MORE_STEPS, NO_MORE_STEPS_MESSAGE);
    const element = this.choose();
    const model = this.graph.modelOf[element];
    this.shared.entered(this.current, element);
    if (model !== this.currentModel || this.statuses[model] === 'not_executed') this.enterModel(model);
    this.previous = this.last;
    this.last = element;
    this.current = element;
    this.positions[model] = element;
    this.steps++;
    this.scripts.stepped();
    const first = this.coverage.step(element, this.previous);
    const observers = this.observers;
    for (let i = 0; i < observers.length; i++) observers[i](this, element, first);
    this.scripts.runActions(element);
    return this.stepOf(element);
  }

  /** Describes an element as a step. */
  stepOf(element: number): Step {
    const g = this.graph;
    const modelIndex = g.modelOf[element];
    return { element, modelIndex, id: g.ids[element], name: g.names[element] ?? '', modelId: g.models[modelIndex].id };
  }

  /** Runs a script in the current model's scope (service `setData`). */
  setData(script: string): void {
    const model = this.graph.models[this.currentModel];
    this.planning.outsideScripts++;
    this.scripts.run(this.currentModel, script, { modelId: model.id, field: 'setData' });
  }

  /** The current model's variables, then the shared ones as `global.<name>`, in first-assignment order. */
  variables(): Array<[string, string]> {
    const model = this.currentModel;
    return this.sandbox.variables(model, { modelId: this.graph.models[model].id, field: 'getData' });
  }

  /**
   * The current model's variables, then the shared ones as `global.<name>`, as plain values (numbers, lists,
   * objects) copied the way planning copies them; undefined when the script engine has no faithful copy of
   * some value (a function, a class instance, NaN), or copies none. For test runners (docs/runner.md).
   */
  plainVariables(): Record<string, unknown> | undefined {
    const snapshot = this.sandbox.snapshot?.();
    return snapshot === undefined ? undefined : variablesOfSnapshot(snapshot, this.currentModel);
  }

  /** The current model's own variables, without the shared ones: what GraphWalker's getData lists. */
  modelVariables(): Array<[string, string]> {
    return ownVariables(this.variables());
  }

  /** The elements of a model not stepped on since load or restart, vertices first, each in model order. */
  unvisitedElements(model: number): number[] {
    return this.coverage.unvisitedIn(model);
  }

  /** The variables as one `name=value; name=value` string (docs/api-execution.md). */
  data(): string {
    return joinVariables(this.variables());
  }

  /**
   * Marks the model of the last step failed, with the requirements of that element and the edge before it.
   * That is the element the client just performed, even when a later `hasNext` has already turned to
   * another model.
   */
  fail(reason: string): void {
    this.failure = reason;
    const model = this.last >= 0 ? this.graph.modelOf[this.last] : this.currentModel;
    this.statuses[model] = 'failed';
    if (this.last >= 0) this.coverage.fail(this.last);
    if (this.previous >= 0 && !this.graph.isVertex(this.previous)) this.coverage.fail(this.previous);
  }

  /** The status of each model, indexed like `graph.models`. */
  modelStatuses(): readonly ModelStatus[] {
    return this.statuses;
  }

  /** Coverage figures (docs/api-execution.md), and what planning with guards explored when it applies. */
  statistics(): WalkStatistics {
    const figures = this.coverage.statistics(this.statuses);
    const planning = this.planningFigures();
    return planning === undefined ? figures : { ...figures, planning };
  }

  /**
   * What planning with guards explored (docs/planning.md): undefined when it does not apply (no guards, a
   * bound of 0 states).
   */
  planningFigures(): PlanningFigures | undefined {
    const p = this.planning;
    if (!p.applies) return undefined;
    const figures = { exploredStates: p.exploredStates ?? 0, stateBound: p.bound, timeBoundMs: p.timeMs };
    return p.cut === undefined ? figures : { ...figures, boundHit: p.cut, decisions: p.decisions, graphDecisions: p.graphDecisions };
  }

  /** {@link statistics} without the lists of unvisited elements: cheap enough to read many times a second. */
  coverageFigures(): Omit<WalkStatistics, 'edgesNotVisited' | 'verticesNotVisited'> {
    return this.coverage.figures(this.statuses);
  }

  /** Progress of the current model's generators towards their stop conditions, 0..1. */
  fulfilment(): number {
    return this.chains[this.currentModel].fulfilment(this);
  }

  /**
   * A full reset: visits, variables (model actions run again), generators, requirements and the random
   * sequence. The engine may give the walk fresh resources for it, from `reservation` when one is given.
   */
  restart(reservation?: SandboxReservation): void {
    this.coverage.reset();
    this.statuses.fill('not_executed');
    this.positions.fill(-1);
    this.current = -1;
    this.last = -1;
    this.previous = -1;
    this.currentModel = this.startModel;
    this.steps = 0;
    this.failure = undefined;
    this.random.reset();
    this.shared.reset();
    // The planner's sandbox lives beside the walk's: freed first, it leaves the engine free to give the walk
    // fresh resources, and the planner opens it again beside them when it needs it.
    this.planning.dispose();
    this.sandbox.reset(reservation);
    this.scripts.invalidate();
    this.begin();
  }

  /** Walks to the end: yields every step while {@link hasNext}. */
  *[Symbol.iterator](): IterableIterator<Step> {
    while (this.hasNext()) yield this.next();
  }

  /**
   * What `JSON.stringify` and test runners show of a walk. The machine holds its graph and its sandbox's
   * WebAssembly memory: a runner that prints a walk it did not expect (one that opened where a test awaited a
   * refusal) would otherwise format that memory byte by byte, gigabytes of text.
   */
  toJSON(): { seed: number; steps: number } {
    return { seed: this.seed, steps: this.steps };
  }

  /** Frees the script sandbox. The machine must not be used afterwards. */
  dispose(): void {
    this.planning.dispose();
    this.sandbox.dispose();
  }

  /** How many states the walk's last exploration found (docs/planning.md); undefined when none was made. */
  plannedStates(): number | undefined {
    return this.planning.exploredStates;
  }

  /**
   * The bound an exploration of the walk's states stopped at, `states` (`planStates`), `growth` (states that
   * grow without end) or `time` (the safety stop of `planTimeMs`), if one did: plans are then made on the fly.
   */
  planningCut(): ExplorationCut | undefined {
    return this.planning.cut;
  }

  /**
   * The edges no walk gets through because of guards (docs/planning.md), each in words: its id, its guard and
   * the variables seen at its source. Empty when that cannot be known: no guards, more states than the walk's
   * bound, model actions that read chance or time, or variables without a faithful copy. With `explore`
   * false, also when the walk has not explored its states from the start yet (its goal did not need them at
   * load): an exploration may take `planTimeMs`, which a load should not spend on a warning alone.
   */
  closedEdges(explore = true): Array<{ edge: number; words: string }> {
    const reach = explore || this.reach !== undefined ? this.guardReach() : undefined;
    if (reach === undefined) return [];
    const words = this.describeClosed(reach.closed);
    return reach.closed.map(({ edge }, i) => ({ edge, words: words[i] }));
  }

  /**
   * The goals the guards close that only a client's data could open (with `dataWriters: 'client'`): what a
   * walk whose variables only the model writes refuses at load.
   */
  guardedGoals(): readonly GuardedGoal[] {
    return this.guarded;
  }

  // WalkState

  visits(element: number): number {
    return this.coverage.visits[element];
  }

  visitedVertices(model: number): number {
    return this.coverage.visitedVerticesOf(model);
  }

  visitedEdges(model: number): number {
    return this.coverage.visitedEdgesOf(model);
  }

  requirements(model: number): RequirementCounts {
    return this.coverage.requirementsOf(model);
  }

  elapsedMs(): number {
    return this.clock() - this.startTime;
  }

  openEdges(vertex: number): readonly number[] {
    return this.scripts.openEdges(vertex);
  }

  // Internals

  /** Runs model actions and makes fresh generators and conditions (at load and restart). */
  private begin(): void {
    this.readChance = false;
    this.scripts.runModelActions();
    this.planning.begun(this.readChance);
    this.chains = buildChains(this.parsed, this.chainContext);
    this.refuseWhatGuardsForbid();
    this.observers = this.chains.flatMap((c) =>
      c.parts.flatMap((p) => (p.condition.onStep ? [p.condition.onStep.bind(p.condition)] : [])),
    );
    this.startTime = this.clock();
  }

  /**
   * Refuses a goal the guards make impossible, as a goal no walk can reach is refused: otherwise the walk would
   * go on forever. Only conditions that demand elements are judged, and only where the states are all known.
   * When a client may write the variables, the proof does not hold (setData may open any guard): such a goal
   * is kept as a warning ({@link guardedGoals}) and the walk opens.
   */
  private refuseWhatGuardsForbid(): void {
    this.guarded = [];
    if (!this.chains.some((c) => c.parts.some((p) => demandsElements(p.condition)))) return;
    const reach = this.guardReach();
    if (reach === undefined) return;
    const g = this.graph;
    const explain = (missing: readonly number[]): string => {
      const wanted = new Set(missing);
      const why = reach.closed.filter(({ edge }) => wanted.has(edge) || wanted.has(g.target[edge]));
      const words = this.describeClosed(why.length > 0 ? why : reach.closed);
      return `Never stepped on: ${listed(g, missing)}. Closed by guards: ${words.join('; ')}.`;
    };
    const judged = new Map<StepDemand, string | undefined>();
    this.chains.forEach((chain, m) => {
      for (const part of chain.parts) {
        const why = whyGuardsForbid(part.condition, reach, explain, judged);
        if (why === undefined) continue;
        const message = `${describeGenerator(g, m, this.parsed[m].text)}: ${why}`;
        if (this.dataWriters === 'model') throw new WalkerError(ErrorCodes.UNREACHABLE_GOAL, message, { modelId: g.models[m].id });
        this.guarded.push({ model: m, message: `${message}${this.openers(reach)}` });
      }
    });
  }

  /**
   * What a client would have to set: the variables the closed edges' guards name, among those the walk holds
   * at their sources. Read from the guard's text, not parsed: a name is listed when it stands there as a word.
   */
  private openers(reach: GuardReach): string {
    const g = this.graph;
    const names = new Set<string>();
    for (const { edge, states } of reach.closed) {
      const guard = g.guard[edge];
      if (guard === undefined) continue;
      const held = states.length === 0 ? [] : this.planning.variablesOf(this.reachSpace!, states[0], g.modelOf[edge]);
      for (const [name] of held) {
        const bare = name.startsWith(SHARED_VARIABLE_PREFIX) ? name.slice(SHARED_VARIABLE_PREFIX.length) : name;
        if (new RegExp(`(^|[^\\w$.])(${escapeRegExp(SHARED_VARIABLE_PREFIX)})?${escapeRegExp(bare)}(?![\\w$])`).test(guard)) names.add(name);
      }
    }
    const which = names.size === 0 ? 'the variables its guards read' : [...names].join(', ');
    return (
      ` This holds unless a client sets data: a client may write ${which} (setData), so the walk is opened, ` +
      'and it plans again after every setData.'
    );
  }

  private guardReach(): GuardReach | undefined {
    if (this.reach === undefined) {
      const g = this.graph;
      const start = g.models[this.startModel].startElement;
      // The space the walk plans over from its start; with later models entered from start elements of their
      // own, what no walk steps on is judged over a second space that also follows those entries.
      const planned = this.planning.exploreFromStart(start);
      const entries = g.models.flatMap((m, i) => (i !== this.startModel && m.startElement >= 0 ? [m.startElement] : []));
      const whole = planned !== undefined && entries.length > 0 ? this.planning.exploreFromStart(start, entries) : undefined;
      const space = whole ?? planned;
      this.reach = (space && guardReach(space, start, this.chainContext.reachable, whole !== undefined)) ?? null;
      this.reachSpace = space;
    }
    return this.reach ?? undefined;
  }

  private describeClosed(closed: GuardReach['closed']): string[] {
    const space = this.reachSpace!;
    return describeClosedEdges(this.graph, closed, (state, model) => this.planning.variablesOf(space, state, model));
  }

  private readonly isFailed = (model: number): boolean => this.statuses[model] === 'failed';

  private canEnter(model: number): boolean {
    return this.positions[model] >= 0 || (this.statuses[model] === 'not_executed' && this.graph.models[model].startElement >= 0);
  }

  private switchTo(model: number): void {
    this.currentModel = model;
    this.current = this.positions[model];
  }

  /** The element of the next step; throws NO_PATH at a dead end. */
  private choose(): number {
    const g = this.graph;
    const from = this.current;
    if (from < 0) return g.models[this.currentModel].startElement;
    if (!g.isVertex(from)) return g.target[from];
    const chain = this.chains[this.currentModel];
    const part = chain.active(this) ?? chain.parts[chain.parts.length - 1];
    const jump = this.shared.jumpFrom(this, from, this.isFailed, part);
    if (jump >= 0) return jump;
    const answer: unknown = part.generator.nextEdge(this, from);
    const edge = checkEdgeAnswer(g, this.scripts, part.name, from, answer);
    return edge >= 0 ? edge : this.deadEnd(from);
  }

  /** No way on from `vertex`: the model fails. Apart from {@link choose}, which V8 should inline whole. */
  private deadEnd(vertex: number): never {
    const g = this.graph;
    this.statuses[this.currentModel] = 'failed';
    throw new WalkerError(ErrorCodes.NO_PATH, `Could not find a valid path from element: ${g.names[vertex] ?? ''} (${g.ids[vertex]})`);
  }

  /** The walk steps into another model, or into one for the first time: apart from {@link next}, which is hot. */
  private enterModel(model: number): void {
    if (model !== this.currentModel) {
      this.positions[this.currentModel] = -1;
      this.currentModel = model;
    }
    if (this.statuses[model] === 'not_executed') this.statuses[model] = 'executing';
  }
}
