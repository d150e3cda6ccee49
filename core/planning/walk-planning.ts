import { ScriptError } from '../errors.js';
import type { Graph } from '../model/graph.js';
import { SeededRandom } from '../random.js';
import { actionScriptsOf, type ScriptEngine, type ScriptLimits, type ScriptSandbox } from '../scripting.js';
import { WalkScripts } from '../machine/scripts.js';
import { SandboxStepper } from './sandbox-stepper.js';
import { endlessGrowth } from './endless-growth.js';
import {
  exploreStates,
  HostStepperDeclined,
  NO_COPY,
  UNPREDICTABLE,
  type ExplorationBound,
  type ExplorationCut,
  type HostStepper,
  type StateSpace,
} from './state-space.js';

/**
 * States one decision explores at most once the walk plans on the fly (docs/planning.md, "Beyond the bound"):
 * from where the walk stands, breadth-first, so the nearest states where an edge not yet visited is open come
 * first. Also bounded by `--plan-states`. No clock bounds a decision: the same walk decides the same on every
 * machine, and within issue 22's 50 ms a decision on the 2-core machine (docs/benchmarks.md).
 */
export const DECISION_STATES = 2_000;
/**
 * How many states of the engine's host stepper (`ScriptEngine.hostStepper`) one state of the sandbox counts for,
 * in every bound of states: its scripts run in the sandbox and its variables are copied out of it, so it takes about a tenth of this longer to explore
 * (docs/benchmarks.md, "Planning on the fly"), and one exploration's scripts share one request's budget
 * (`budgetMs`), which a busy machine must not reach at the default bound. The bound stays one of states,
 * which the seed fixes.
 */
export const SANDBOX_STATE_WEIGHT = 25;

/**
 * What a walk offers generators that plan with its guards (docs/planning.md): the states reachable from
 * where it stands, explored on copies of its variables in a sandbox of their own.
 */
export interface StatePlanning {
  /** States explored at most per exploration. */
  readonly bound: number;
  /**
   * The states reachable from `vertex` with the walk's variables as they are now; undefined when planning
   * with guards has nothing to offer: the walk's models have no guard, the script engine cannot copy
   * variables, some variable has no faithful copy, or a script was stopped by a limit while exploring. The
   * states follow jumps through shared states, so a plan may cross models.
   */
  explore(vertex: number): StateSpace | undefined;
  /** The state of `space` the walk stands in at `vertex` now, or -1 when `space` does not hold it. */
  locate(space: StateSpace, vertex: number): number;
  /** Counts the scripts run on the walk's variables from outside its steps (setData): a plan made before may be off. */
  readonly outsideScripts: number;
  /**
   * Says that a decision's search over a space cut at its bound found nothing to head for: the generator plans
   * this decision by the graph alone (counted in the statistics).
   */
  fellBack(): void;
}

/** Planning that offers nothing: for generators made outside a walk (tests), which then plan by the graph alone. */
export const NO_STATE_PLANNING: StatePlanning = Object.freeze({
  bound: 0,
  outsideScripts: 0,
  explore: () => undefined,
  locate: () => -1,
  fellBack: () => undefined,
});

/** Where a walk's sandbox for planning comes from, and what it copies the walk's variables from. */
export interface PlanningSetup {
  readonly graph: Graph;
  readonly engine: ScriptEngine;
  readonly limits: ScriptLimits;
  readonly seed: number;
  /** The walk's own sandbox: read (copied), never run in. */
  readonly live: ScriptSandbox;
  /** States explored at most per exploration. */
  readonly bound: number;
  /** Milliseconds after which an exploration stops wherever it is: a safety stop, which breaks replay. */
  readonly timeMs: number;
  /** Milliseconds, for {@link timeMs}: `performance.now` unless a test gives its own. */
  readonly clock?: () => number;
}

/**
 * The planning of one walk. Its sandbox is made on first need and holds nothing of the walk's but copies;
 * the last exploration is kept, and serves again while the walk stands in one of its states, as long as
 * it holds every state reachable from there.
 */
export class WalkPlanning implements StatePlanning {
  readonly bound: number;
  readonly timeMs: number;
  outsideScripts = 0;
  /** Set once an exploration stopped at a bound: more states than {@link bound}, or the safety stop of {@link timeMs}. */
  cut: ExplorationCut | undefined;
  /**
   * Whether planning with guards applies to the walk at all: its models have guards, the bound is not 0, and
   * the script engine copies variables.
   */
  readonly applies: boolean;
  private sandbox: ScriptSandbox | undefined;
  private scripts: WalkScripts | undefined;
  private unpredictable = false;
  private explorations = 0;
  /** The walk's variables when it began, for {@link exploreFromStart}. */
  private startCopy: string | undefined;
  /** Whether the states grow without end (endless-growth.ts); null when the scripts name no number. */
  private growth: ((variables: string) => boolean) | null | undefined;
  /** The engine's stepper in the host (`ScriptEngine.hostStepper`); null when it offers none for the graph. */
  private host: HostStepper | null | undefined;
  private last: StateSpace | undefined;
  /** States found by the exploration that stopped at a bound. */
  private cutAt: number | undefined;
  private sandboxSteps: SandboxStepper | undefined;
  /** Set once planning proved impossible for this walk (no copy, no engine support): never tried again. */
  private given = false;
  /**
   * Set once an exploration stopped at a bound: from then on every decision explores from where the walk
   * stands, within {@link DECISION_STATES}, instead of the whole space.
   */
  private onTheFly = false;
  /** Explorations made on the fly, and decisions whose search found nothing and went by the graph alone. */
  decisions = 0;
  graphDecisions = 0;

  constructor(private readonly setup: PlanningSetup) {
    this.bound = setup.bound;
    this.timeMs = setup.timeMs;
    const g = setup.graph;
    const guarded = g.guard.some((guard) => guard !== undefined);
    this.applies = setup.bound > 0 && guarded && setup.live.snapshot !== undefined;
  }

  explore(vertex: number): StateSpace | undefined {
    if (!this.applies || this.given) return undefined;
    const variables = this.copyOfWalk();
    if (variables === undefined) return undefined;
    // The last space serves while it holds the walk's state explored: all of it, or on the fly (and from the
    // start, the part the load explored) until the walk comes to the edge of what was explored.
    const last = this.last;
    if (last !== undefined) {
      const state = last.stateOf(vertex, variables);
      if (state >= 0 && last.expanded[state] === 1) return last;
    }
    const whole = !this.onTheFly;
    const space = this.exploreFrom(vertex, variables, whole ? this.wholeBound() : this.decisionBound());
    if (!whole) this.decisions++;
    return space;
  }

  fellBack(): void {
    this.graphDecisions++;
  }

  /** Whether plans are made on the fly: an exploration of the whole space stopped at a bound. */
  get planningOnTheFly(): boolean {
    return this.onTheFly;
  }

  /**
   * The states reachable from the walk's start, as if it had just taken its first step: from the start
   * vertex, or the target of the start edge, with the start element's actions run on a copy of the
   * variables as the model actions left them. What load and `check` judge goals and edges by.
   *
   * With `entries` (the start elements of the file's later models, which the machine may put the walk on
   * from wherever it stands), every state also leads to each: a space for that judgment alone, which the
   * walk does not plan over (state-space.ts), so it is neither kept for planning nor counted as the walk's.
   */
  exploreFromStart(start: number, entries: readonly number[] = []): StateSpace | undefined {
    const variables = this.startCopy;
    if (!this.applies || this.given || variables === undefined) return undefined;
    const g = this.setup.graph;
    const after = this.enter(start, variables);
    if (after === undefined) return undefined;
    const space = this.exploreFrom(g.isVertex(start) ? start : g.target[start], after, this.wholeBound(), entries);
    return space?.complete === true ? space : undefined;
  }

  /**
   * The copy of the variables after the start element's actions, run on `variables`; undefined if they fail,
   * read chance or time (no one copy stands for every walk then), or have no faithful copy.
   */
  private enter(start: number, variables: string): string | undefined {
    const host = this.hostStepper();
    if (host !== undefined) {
      try {
        host.load(variables);
        return known(host.enter(start));
      } catch (error) {
        if (error instanceof ScriptError) return undefined;
        if (!(error instanceof HostStepperDeclined)) throw error;
      }
    }
    const stepper = this.sandboxStepper();
    try {
      stepper.load(variables);
      return known(stepper.enter(start));
    } catch (error) {
      if (!(error instanceof ScriptError)) throw error;
      if (error.limit !== undefined) this.giveUp();
      return undefined;
    }
  }

  private hostStepper(): HostStepper | undefined {
    this.host ??= this.setup.engine.hostStepper?.(this.setup.graph) ?? null;
    return this.host ?? undefined;
  }

  /**
   * A script of the walk passed a limit while the planner ran it: planning is given up for the walk, and its
   * sandbox freed at once (a memory that grew to the limit goes back with it).
   */
  private giveUp(): void {
    this.given = true;
    this.dispose();
  }

  /** States of the last exploration: the space planned over, or the one cut off at a bound; undefined when none was made. */
  get exploredStates(): number | undefined {
    return this.cutAt ?? this.last?.size;
  }

  /**
   * The walk begins (load, restart): its variables as the model actions left them are the start's, unless
   * those actions read chance or time (`readChance`): another walk would then begin with other values, and
   * nothing is judged for every walk from the start ({@link exploreFromStart}).
   */
  begun(readChance: boolean): void {
    this.startCopy = this.applies && !this.given && !readChance ? this.copyOfWalk() : undefined;
  }

  locate(space: StateSpace, vertex: number): number {
    const variables = this.copyOfWalk();
    return variables === undefined ? -1 : space.stateOf(vertex, variables);
  }

  /** The variables of the walk with this state's copy, per model scope, as the walk's getData would show them. */
  variablesOf(space: StateSpace, state: number, model: number): Array<[string, string]> {
    const { sandbox } = this.open();
    sandbox.restore!(space.variablesOf[state]);
    return sandbox.variables(model);
  }

  dispose(): void {
    this.sandbox?.dispose();
    this.sandbox = this.scripts = this.sandboxSteps = undefined;
  }

  private copyOfWalk(): string | undefined {
    const live = this.setup.live;
    if (live.snapshot === undefined) {
      this.given = true;
      return undefined;
    }
    return live.snapshot();
  }

  private wholeBound(): ExplorationBound {
    const stop = { ms: this.timeMs, clock: this.setup.clock ?? (() => performance.now()) };
    const grown = this.grown();
    // Looked at as often as a decision explores: a space that grows without end is cut where a decision would be.
    return { states: this.bound, stop, endless: grown === undefined ? undefined : { every: DECISION_STATES, test: grown }, grown };
  }

  private decisionBound(): ExplorationBound {
    return { states: Math.min(this.bound, DECISION_STATES), grown: this.grown() };
  }

  private grown(): ((variables: string) => boolean) | undefined {
    this.growth ??= endlessGrowth(this.setup.graph) ?? null;
    return this.growth ?? undefined;
  }

  /**
   * The states reachable from `vertex` with `variables`, within `bound`: a space that holds them all, or, on
   * the fly, the part of it nearest to where the walk stands.
   */
  private exploreFrom(vertex: number, variables: string, bound: ExplorationBound, entries: readonly number[] = []): StateSpace | undefined {
    const kept = entries.length === 0;
    const host = this.hostStepper();
    if (host !== undefined) {
      try {
        return this.explored(exploreStates(this.setup.graph, host, vertex, variables, bound, entries), kept);
      } catch (error) {
        // A value or a result the host stepper does not compute as the sandbox would: the sandbox explores.
        if (!(error instanceof HostStepperDeclined)) throw error;
      }
    }
    const stepper = this.sandboxStepper();
    this.explorations++;
    const weighed = { ...bound, states: Math.ceil(bound.states / SANDBOX_STATE_WEIGHT) };
    if (bound.endless !== undefined) weighed.endless = { ...bound.endless, every: Math.ceil(bound.endless.every / SANDBOX_STATE_WEIGHT) };
    try {
      return this.explored(exploreStates(this.setup.graph, stepper, vertex, variables, weighed, entries), kept);
    } catch (error) {
      // A limit stopped a script: the walk plans without guards.
      if (!(error instanceof ScriptError)) throw error;
      this.giveUp();
      return undefined;
    }
  }

  /**
   * A space that holds every state reachable from where the walk stood, or the part of it explored within
   * the bound. When an exploration of the whole space stopped at its bound ({@link cut} says which), the walk
   * plans on the fly from then on: over that part while the walk stays in it, then over the part a decision
   * explores from where the walk stands, rather than explore the whole bound again from every state it comes to.
   * A space not `kept` (explored with entries) is answered and changes nothing of the walk's planning.
   */
  private explored(space: StateSpace | typeof NO_COPY, kept: boolean): StateSpace | undefined {
    if (space === NO_COPY) {
      this.given = true;
      return undefined;
    }
    if (!kept) return space;
    if (!space.complete && !this.onTheFly) {
      this.onTheFly = true;
      this.cut = space.cut;
      this.cutAt = space.size;
    }
    this.last = space;
    return space;
  }

  /** The stepper over the planning sandbox, which is made with it. */
  private sandboxStepper(): SandboxStepper {
    const { sandbox, scripts } = this.open();
    this.sandboxSteps ??= new SandboxStepper(this.setup.graph, sandbox, scripts, () => {
      const was = this.unpredictable;
      this.unpredictable = false;
      return was;
    });
    return this.sandboxSteps;
  }

  private open(): { sandbox: ScriptSandbox; scripts: WalkScripts } {
    if (this.sandbox !== undefined && this.scripts !== undefined) return { sandbox: this.sandbox, scripts: this.scripts };
    const { graph, engine, limits, seed } = this.setup;
    const sandbox = engine.createSandbox({
      scopes: graph.models.length,
      random: new SeededRandom(seed),
      limits,
      // Each exploration is one request of the planning sandbox: its scripts together get one budget.
      stepCount: () => this.explorations,
      onUnpredictable: () => {
        this.unpredictable = true;
      },
      // In the walk's own memory, under its one limit: planning takes no resources of its own.
      beside: this.setup.live,
    });
    this.sandbox = sandbox;
    const scripts = (this.scripts = new WalkScripts(graph, sandbox, (actions) => actionScriptsOf(engine, actions)));
    return { sandbox, scripts };
  }
}

/** The copy, or undefined when chance or time decide it. */
function known(copy: string | typeof UNPREDICTABLE | undefined): string | undefined {
  return copy === UNPREDICTABLE ? undefined : copy;
}
