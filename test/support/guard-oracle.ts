import { readFileSync } from 'node:fs';
import vm from 'node:vm';

/**
 * The guard-aware truth about a small model, by brute force and on nothing of walker's own: the file is read
 * with JSON.parse, scripts run in node:vm, states are explored breadth-first. Tests and the planning bench hold
 * the planners to what this finds, so it must not share their code or their mistakes.
 *
 * The rules it follows are the machine's (docs/behaviour.md): model actions run once at load; the walk hands
 * out its start element first (a vertex, or a start edge and then that edge's target), then edge, vertex,
 * edge, ...; an element's actions run when the walk steps onto it; a vertex's out-edges are open when their
 * guard is absent, empty or true, asked after the vertex's own actions ran. `edge_coverage(100)` ends on the
 * vertex after the edge that completes it (coverage conditions end on a vertex), so a walk that moves k times
 * from a start vertex hands out 1 + 2k elements.
 */

/** One reachable state: where the walk stands and what the model's variables hold there. */
export interface OracleState {
  readonly vertex: string;
  /** The variables as canonical JSON (keys sorted at every depth): two states are one when these are equal. */
  readonly variables: string;
}

/** A move out of a state: the index of the edge in the model's `edges`, and the state it leads to. */
export interface OracleMove {
  readonly edge: number;
  readonly to: number;
}

/** An edge that no reachable state lets through, with every set of variable values seen at its source. */
export interface ClosedEdge {
  readonly edgeId: string;
  readonly guard: string | undefined;
  readonly sourceVertexId: string | undefined;
  /** The variables of each reachable state at the source vertex, in the order they were found; empty when none is. */
  readonly seen: readonly Record<string, unknown>[];
}

/** The reachable state graph of one model. */
export interface StateSpace {
  readonly modelId: string;
  /** The model's edge ids, in file order: what {@link OracleMove.edge} indexes. */
  readonly edgeIds: readonly string[];
  /** States in breadth-first order; state 0 is where the walk stands once its start element is handed out. */
  readonly states: readonly OracleState[];
  readonly moves: readonly (readonly OracleMove[])[];
  /** Elements handed out before the first move: 1 for a start vertex, 2 for a start edge and its target. */
  readonly startSteps: number;
  /** Index of the start edge, already covered when the first move is made; -1 for a start vertex. */
  readonly startEdge: number;
  readonly closedEdges: readonly ClosedEdge[];
}

/** The best walk to `edge_coverage(100)`, or, when guards make that impossible, how far one walk gets. */
export interface CoverageOptimum {
  /** Fewest elements handed out until the walk ends with every edge covered; undefined when no walk covers all. */
  readonly steps: number | undefined;
  /** The most edges one walk can cover. */
  readonly mostCovered: number;
  readonly edges: number;
}

/** An edge as the oracle reads it from GraphWalker JSON. */
export interface OracleEdge {
  readonly id: string;
  readonly sourceVertexId?: string;
  readonly targetVertexId: string;
  readonly guard?: string;
  readonly actions?: readonly string[];
  readonly properties?: Record<string, unknown>;
}

/** A vertex as the oracle reads it from GraphWalker JSON. */
export interface OracleVertex {
  readonly id: string;
  readonly actions?: readonly string[];
  readonly properties?: Record<string, unknown>;
}

/** One model of a GraphWalker JSON file, as the oracle reads it. */
export interface OracleModel {
  readonly id?: string;
  readonly name?: string;
  readonly startElementId?: string;
  readonly actions?: readonly string[];
  readonly vertices: readonly OracleVertex[];
  readonly edges: readonly OracleEdge[];
}

/** Exploration stops with an error past this many states: brute force is for small models. */
export const ORACLE_STATE_LIMIT = 200_000;
/** The coverage search stops with an error past this many (state, covered edges) pairs. */
const COVER_PAIR_LIMIT = 2 ** 27;

/** Reads a GraphWalker JSON file of exactly one model and explores every state a walk can reach from its start. */
export function exploreModelFile(path: string): StateSpace {
  const file = JSON.parse(readFileSync(path, 'utf8')) as { models?: OracleModel[] };
  if (file.models?.length !== 1) throw new Error(`${path}: the oracle takes a file of exactly one model`);
  return exploreModel(file.models[0], path);
}

/** Explores every state a walk of `model` can reach from its start, breadth-first. */
export function exploreModel(model: OracleModel, where?: string): StateSpace {
  const label = `${where === undefined ? '' : `${where}, `}model '${model.id ?? model.name}'`;
  refuseUnsupported(model, label);
  const walk = new ModelWalk(model, label);
  const states: OracleState[] = [walk.start()];
  const indexOf = new Map([[keyOf(states[0]), 0]]);
  const moves: OracleMove[][] = [];
  const opened = new Set<number>();
  for (let s = 0; s < states.length; s++) {
    const here: OracleMove[] = [];
    for (const [edge, next] of walk.movesFrom(states[s])) {
      let to = indexOf.get(keyOf(next));
      if (to === undefined) {
        if (states.length === ORACLE_STATE_LIMIT) throw new Error(`${label}: more than ${ORACLE_STATE_LIMIT} states`);
        to = states.push(next) - 1;
        indexOf.set(keyOf(next), to);
      }
      here.push({ edge, to });
      opened.add(edge);
    }
    moves.push(here);
  }
  const startEdge = walk.startEdge;
  const closedEdges = model.edges
    .filter((_, i) => i !== startEdge && !opened.has(i))
    .map((e) => ({
      edgeId: e.id,
      guard: hasGuard(e) ? e.guard : undefined,
      sourceVertexId: e.sourceVertexId,
      seen: states.filter((s) => s.vertex === e.sourceVertexId).map((s) => JSON.parse(s.variables) as Record<string, unknown>),
    }));
  const edgeIds = model.edges.map((e) => e.id);
  return { modelId: model.id ?? model.name ?? '', edgeIds, states, moves, startSteps: startEdge >= 0 ? 2 : 1, startEdge, closedEdges };
}

/**
 * The exact optimum of `edge_coverage(100)`: breadth-first over (state, set of covered edges), so the first
 * pair with every edge covered is reached by the fewest moves. Exponential in the number of edges.
 */
export function coverageOptimum(space: StateSpace): CoverageOptimum {
  const edges = space.edgeIds.length;
  if (space.states.length * 2 ** edges > COVER_PAIR_LIMIT) {
    throw new Error(`model '${space.modelId}': ${space.states.length} states x 2^${edges} edge sets is too many for brute force`);
  }
  const all = 2 ** edges - 1;
  const first = space.startEdge >= 0 ? 1 << space.startEdge : 0;
  const seen = new Uint8Array(space.states.length * 2 ** edges);
  let frontier: number[] = [0, first];
  seen[first] = 1;
  let mostCovered = bitCount(first);
  for (let moves = 0; frontier.length > 0; moves++) {
    const next: number[] = [];
    for (let i = 0; i < frontier.length; i += 2) {
      const mask = frontier[i + 1];
      if (mask === all) return { steps: space.startSteps + 2 * moves, mostCovered: edges, edges };
      mostCovered = Math.max(mostCovered, bitCount(mask));
      for (const { edge, to } of space.moves[frontier[i]]) {
        const covered = mask | (1 << edge);
        const pair = to * 2 ** edges + covered;
        if (seen[pair] === 1) continue;
        seen[pair] = 1;
        next.push(to, covered);
      }
    }
    frontier = next;
  }
  return { steps: undefined, mostCovered, edges };
}

/**
 * Fewest elements handed out until the walk stands on `elementId` (a vertex or an edge), as `reached_vertex`
 * and `reached_edge` count them; undefined when no walk gets there.
 */
export function stepsToReach(space: StateSpace, elementId: string): number | undefined {
  if (space.startEdge >= 0 && space.edgeIds[space.startEdge] === elementId) return 1;
  const depth = new Int32Array(space.states.length).fill(-1);
  depth[0] = 0;
  const queue = [0];
  for (let head = 0; head < queue.length; head++) {
    const s = queue[head];
    if (space.states[s].vertex === elementId) return space.startSteps + 2 * depth[s];
    for (const { edge, to } of space.moves[s]) {
      if (space.edgeIds[edge] === elementId) return space.startSteps + 2 * depth[s] + 1;
      if (depth[to] < 0) {
        depth[to] = depth[s] + 1;
        queue.push(to);
      }
    }
  }
  return undefined;
}

/** The machine's rules for one model: where a walk starts, and where each open out-edge of a state leads. */
class ModelWalk {
  /** Index of the start edge in the model's edges, or -1 for a start vertex. */
  readonly startEdge: number;
  private readonly scope: ModelScope;
  private readonly vertices: Map<string, OracleVertex>;
  private readonly outEdges: Map<string, number[]>;

  constructor(
    private readonly model: OracleModel,
    private readonly label: string,
  ) {
    this.scope = new ModelScope(label);
    this.vertices = new Map(model.vertices.map((v) => [v.id, v]));
    this.outEdges = new Map(model.vertices.map((v) => [v.id, [] as number[]]));
    model.edges.forEach((e, i) => this.outEdges.get(e.sourceVertexId ?? '')?.push(i));
    this.startEdge = model.edges.findIndex((e) => e.id === model.startElementId);
  }

  /** Runs the model actions, then hands out the start element: the state the walk stands in before its first move. */
  start(): OracleState {
    for (const action of this.model.actions ?? []) this.scope.run(action, 'model actions');
    if (this.startEdge < 0) return this.enter(this.model.startElementId ?? '');
    const edge = this.model.edges[this.startEdge];
    this.runActions(edge, 'edge');
    return this.enter(edge.targetVertexId);
  }

  /** Each out-edge of the state's vertex that its guard lets through, with the state it leads to. */
  *movesFrom(state: OracleState): Generator<[number, OracleState]> {
    for (const e of this.outEdges.get(state.vertex) ?? []) {
      const edge = this.model.edges[e];
      this.scope.restore(state.variables);
      if (!this.isOpen(edge)) continue;
      this.scope.restore(state.variables);
      this.runActions(edge, 'edge');
      yield [e, this.enter(edge.targetVertexId)];
    }
  }

  private enter(vertexId: string): OracleState {
    const vertex = this.vertices.get(vertexId);
    if (vertex === undefined) throw new Error(`${this.label}: the walk would step onto '${vertexId}', which is no vertex`);
    this.runActions(vertex, 'vertex');
    return { vertex: vertexId, variables: this.scope.snapshot() };
  }

  private runActions(element: OracleVertex | OracleEdge, kind: string): void {
    for (const action of element.actions ?? []) this.scope.run(action, `${kind} '${element.id}', actions`);
  }

  private isOpen(edge: OracleEdge): boolean {
    if (!hasGuard(edge)) return true;
    const value = this.scope.run(edge.guard as string, `edge '${edge.id}', guard`);
    if (typeof value !== 'boolean') throw new Error(`${this.label}, edge '${edge.id}': guard '${edge.guard}' gave ${String(value)}, not a boolean`);
    return value;
  }
}

/** The one scope of a model's variables, on node:vm: restored to a state before every guard and move. */
class ModelScope {
  private context = vm.createContext({});
  private readonly builtIn = new Set(Object.keys(this.context));
  private assign = this.assigner();
  /** Each script compiled once: a brute-force search runs the same few scripts in many states. */
  private readonly compiled = new Map<string, vm.Script>();

  constructor(private readonly label: string) {}

  run(source: string, where: string): unknown {
    try {
      let script = this.compiled.get(source);
      if (script === undefined) this.compiled.set(source, (script = new vm.Script(source)));
      return script.runInContext(this.context);
    } catch (error) {
      throw new Error(`${this.label}, ${where}: ${(error as Error).message}`, { cause: error });
    }
  }

  /** The model's variables now: the context's own enumerable properties that it did not have at creation. */
  snapshot(): string {
    const values: Record<string, unknown> = {};
    for (const key of this.variableNames()) values[key] = this.context[key];
    return canonicalJson(values, this.label);
  }

  /** Makes the variables exactly those of a snapshot: assigns them all and removes any other. */
  restore(snapshot: string): void {
    const wanted = JSON.parse(snapshot) as Record<string, unknown>;
    for (const key of this.variableNames()) {
      // A `var` makes a property that cannot be deleted: then only a fresh context is clean.
      if (!(key in wanted) && !Reflect.deleteProperty(this.context, key)) {
        this.context = vm.createContext({});
        this.assign = this.assigner();
        break;
      }
    }
    this.assign(snapshot);
  }

  private variableNames(): string[] {
    return Object.keys(this.context).filter((key) => !this.builtIn.has(key));
  }

  /** Parses inside the context, so that restored arrays and objects are the context's own, as a script made them. */
  private assigner(): (json: string) => void {
    return vm.runInContext('(json) => { Object.assign(globalThis, JSON.parse(json)); }', this.context) as (json: string) => void;
  }
}

function hasGuard(edge: OracleEdge): boolean {
  return edge.guard !== undefined && edge.guard !== null && edge.guard.trim() !== '';
}

/** What the oracle does not model is refused rather than guessed: shared scopes, blocked elements. */
function refuseUnsupported(model: OracleModel, label: string): void {
  const scripts = [...(model.actions ?? []), ...model.vertices.flatMap((v) => v.actions ?? [])];
  for (const e of model.edges) scripts.push(...(e.actions ?? []), e.guard ?? '');
  if (scripts.some((s) => s.includes('global.'))) throw new Error(`${label}: the oracle does not model the shared scope (global.)`);
  const blocked = [...model.vertices, ...model.edges].find((e) => [true, 'true'].includes(e.properties?.blocked as never));
  if (blocked !== undefined) throw new Error(`${label}: the oracle does not model blocked elements ('${blocked.id}')`);
}

function keyOf(state: OracleState): string {
  return `${state.vertex}\u0000${state.variables}`;
}

/** JSON with the keys of every object sorted; a value JSON cannot carry faithfully is an error naming it. */
function canonicalJson(value: unknown, label: string, path = 'variables'): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' && Number.isFinite(value)) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v, i) => canonicalJson(v, label, `${path}[${i}]`)).join(',')}]`;
  if (Object.prototype.toString.call(value) === '[object Object]') {
    const object = value as Record<string, unknown>;
    const members = Object.keys(object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(object[k], label, `${path}.${k}`)}`);
    return `{${members.join(',')}}`;
  }
  throw new Error(`${label}: ${path} holds ${String(value)}, which the oracle cannot compare as JSON`);
}

function bitCount(mask: number): number {
  let count = 0;
  for (let m = mask; m !== 0; m &= m - 1) count++;
  return count;
}

/**
 * The moves of each state, numbered from 0 (`start`) as they are first found, found only when first asked:
 * for searches over states that may be endless. A move is the index of its edge and the state it leads to.
 */
function lazyMoves<S>(start: S, key: (state: S) => string, movesFrom: (state: S) => Iterable<[number, S]>): (state: number) => Array<[number, number]> {
  const states = [start];
  const indexOf = new Map([[key(start), 0]]);
  const moves: Array<Array<[number, number]> | undefined> = [];
  return (s) => {
    let here = moves[s];
    if (here !== undefined) return here;
    here = [];
    for (const [edge, next] of movesFrom(states[s])) {
      let to = indexOf.get(key(next));
      if (to === undefined) {
        to = states.push(next) - 1;
        indexOf.set(key(next), to);
      }
      here.push([edge, to]);
    }
    return (moves[s] = here);
  };
}

/**
 * The exact optimum of `edge_coverage(100)` where the states may be endless (a counter without bound):
 * breadth-first over (state, set of covered edges), finding each state's moves only when a pair first stands
 * there, and ending at the first pair with every edge covered. Undefined when no walk covers every edge
 * within `pairLimit` pairs: brute force is for small models.
 */
export function unboundedCoverageOptimum(model: OracleModel, where?: string, pairLimit = 4_000_000): number | undefined {
  const label = `${where === undefined ? '' : `${where}, `}model '${model.id ?? model.name}'`;
  refuseUnsupported(model, label);
  const walk = new ModelWalk(model, label);
  const edges = model.edges.length;
  if (edges > 30) throw new Error(`${label}: more than 30 edges for brute force`);
  const movesOf = lazyMoves(walk.start(), keyOf, (state) => walk.movesFrom(state));
  const all = 2 ** edges - 1;
  const startSteps = walk.startEdge >= 0 ? 2 : 1;
  const first = walk.startEdge >= 0 ? 2 ** walk.startEdge : 0;
  const seen = new Set<number>([first]);
  let frontier: number[] = [0, first];
  for (let moved = 0; frontier.length > 0; moved++) {
    const next: number[] = [];
    for (let i = 0; i < frontier.length; i += 2) {
      const mask = frontier[i + 1];
      if (mask === all) return startSteps + 2 * moved;
      for (const [edge, to] of movesOf(frontier[i])) {
        const covered = mask | (1 << edge);
        const pair = to * 2 ** edges + covered;
        if (seen.has(pair)) continue;
        if (seen.size >= pairLimit) return undefined;
        seen.add(pair);
        next.push(to, covered);
      }
    }
    frontier = next;
  }
  return undefined;
}

/** A vertex of a project of several models, as the oracle reads it: it may carry a shared state. */
interface ProjectVertex extends OracleVertex {
  readonly name?: string;
  readonly sharedState?: string;
}

/** Where a walk of several models stands: a vertex (model and id), the vertex it just jumped from, and the variables. */
interface ProjectState {
  readonly model: number;
  readonly vertex: string;
  /** `model:vertex` of the vertex the walk jumped from onto this one, '' after an edge. */
  readonly jumpedFrom: string;
  /** Every scope's variables, the models' and then the shared one, as canonical JSON. */
  readonly variables: string;
}

/**
 * The machine's rules for a project of models linked by shared states (docs/behaviour.md): every model's
 * actions run at load; a script that mentions `global.` runs, with `global.` removed, in one scope all models
 * share, any other in its model's; at a vertex with a shared state the walk may jump to each vertex of another
 * model with that shared state that has a name or an open out-edge, except straight back to the vertex it just
 * jumped from while it can stay. A jump hands out one element, the vertex jumped to, whose actions then run.
 */
class ProjectWalk {
  readonly startModel: number;
  private readonly scopes: ModelScope[];
  private readonly vertices: Array<Map<string, ProjectVertex>>;
  private readonly outEdges: Array<Map<string, number[]>>;
  private readonly groups = new Map<string, Array<[number, string]>>();
  /** Per scope, the variables it was last restored to while no script has run in it since; and of all, the last restored. */
  private readonly clean: Array<string | undefined> = [];
  private restored: string | undefined;

  constructor(
    private readonly models: readonly OracleModel[],
    private readonly label: string,
  ) {
    const starts = models.flatMap((m, i) => (m.startElementId === undefined ? [] : [i]));
    // Which model the machine turns to when one is done is its own rule (hasNext), modelled here only for one start.
    if (starts.length !== 1) throw new Error(`${label}: the oracle takes a project with exactly one start element`);
    this.startModel = starts[0];
    this.scopes = [...models.map((m) => new ModelScope(`${label}, model '${m.id ?? m.name}'`)), new ModelScope(`${label}, global`)];
    this.vertices = models.map((m) => new Map(m.vertices.map((v) => [v.id, v as ProjectVertex])));
    this.outEdges = models.map((m) => {
      const out = new Map(m.vertices.map((v) => [v.id, [] as number[]]));
      m.edges.forEach((e, i) => out.get(e.sourceVertexId ?? '')?.push(i));
      return out;
    });
    models.forEach((m, i) => {
      for (const v of m.vertices as ProjectVertex[]) {
        if (v.sharedState === undefined || v.sharedState === '') continue;
        const group = this.groups.get(v.sharedState) ?? [];
        group.push([i, v.id]);
        this.groups.set(v.sharedState, group);
      }
    });
  }

  /** The offset of model `m`'s first edge among all the project's edges. */
  edgeOffset(m: number): number {
    let offset = 0;
    for (let i = 0; i < m; i++) offset += this.models[i].edges.length;
    return offset;
  }

  /** Runs every model's actions, then hands out the start vertex. */
  start(): ProjectState {
    this.models.forEach((m, i) => {
      for (const action of m.actions ?? []) this.run(i, action, 'model actions');
    });
    const model = this.models[this.startModel];
    if (model.edges.some((e) => e.id === model.startElementId)) throw new Error(`${this.label}: the oracle takes a start vertex, not a start edge`);
    return this.enter(this.startModel, model.startElementId ?? '', '');
  }

  /** Each move from `state`: an open out-edge (index among the project's edges, two elements), or a jump (-1, one element). */
  *movesFrom(state: ProjectState): Generator<[number, ProjectState]> {
    const { model, vertex } = state;
    const open: number[] = [];
    for (const e of this.outEdges[model].get(vertex) ?? []) {
      this.restore(state.variables);
      if (this.isOpen(model, this.models[model].edges[e])) open.push(e);
    }
    const offset = this.edgeOffset(model);
    for (const e of open) {
      const edge = this.models[model].edges[e];
      this.restore(state.variables);
      this.runActions(model, edge, 'edge');
      yield [offset + e, this.enter(model, edge.targetVertexId, '')];
    }
    const shared = this.vertices[model].get(vertex)?.sharedState;
    if (shared === undefined || shared === '') return;
    const canStay = open.length > 0;
    for (const [m, id] of this.groups.get(shared) ?? []) {
      if (m === model || (canStay && state.jumpedFrom === `${m}:${id}`)) continue;
      this.restore(state.variables);
      const named = (this.vertices[m].get(id)?.name ?? '') !== '';
      if (!named && !(this.outEdges[m].get(id) ?? []).some((e) => this.isOpen(m, this.models[m].edges[e]))) continue;
      this.restore(state.variables);
      yield [-1, this.enter(m, id, `${model}:${vertex}`)];
    }
  }

  private enter(model: number, vertexId: string, jumpedFrom: string): ProjectState {
    const vertex = this.vertices[model].get(vertexId);
    if (vertex === undefined) throw new Error(`${this.label}: the walk would step onto '${vertexId}', which is no vertex`);
    this.runActions(model, vertex, 'vertex');
    const variables = `[${this.scopes.map((s, i) => this.clean[i] ?? s.snapshot()).join(',')}]`;
    return { model, vertex: vertexId, jumpedFrom, variables };
  }

  private restore(variables: string): void {
    if (variables === this.restored) return;
    const scopes = JSON.parse(variables) as unknown[];
    this.scopes.forEach((scope, i) => {
      const text = JSON.stringify(scopes[i]);
      // A scope no script ran in since it was restored to these same variables holds them still.
      if (this.clean[i] !== text) scope.restore(text);
      this.clean[i] = text;
    });
    this.restored = variables;
  }

  private run(model: number, source: string, where: string): unknown {
    const shared = source.includes('global.');
    const index = shared ? this.models.length : model;
    this.clean[index] = this.restored = undefined;
    const scope = this.scopes[index];
    return scope.run(shared ? source.replaceAll('global.', '') : source, `model '${this.models[model].id ?? ''}', ${where}`);
  }

  private runActions(model: number, element: OracleVertex | OracleEdge, kind: string): void {
    for (const action of element.actions ?? []) this.run(model, action, `${kind} '${element.id}', actions`);
  }

  private isOpen(model: number, edge: OracleEdge): boolean {
    if (!hasGuard(edge)) return true;
    const value = this.run(model, edge.guard as string, `edge '${edge.id}', guard`);
    if (typeof value !== 'boolean') throw new Error(`${this.label}, edge '${edge.id}': guard '${edge.guard}' gave ${String(value)}, not a boolean`);
    return value;
  }
}

/**
 * The exact optimum of `edge_coverage(100)` in every model of a project linked by shared states: the fewest
 * elements handed out until every edge of every model is covered, which is when the machine ends the walk
 * (it goes on while any model's condition is unmet). A shortest-path search over (state, covered edges), an
 * edge costing two elements and a jump one, that finds each state's moves only when a pair first stands there
 * and ends at the first pair with every edge covered, so the states may be endless. Undefined when no walk
 * covers every edge within `pairLimit` pairs.
 */
export function projectCoverageOptimum(models: readonly OracleModel[], where = 'project', pairLimit = 8_000_000): number | undefined {
  for (const m of models) {
    const blocked = [...m.vertices, ...m.edges].find((e) => [true, 'true'].includes(e.properties?.blocked as never));
    if (blocked !== undefined) throw new Error(`${where}: the oracle does not model blocked elements ('${blocked.id}')`);
  }
  const walk = new ProjectWalk(models, where);
  const edges = models.reduce((n, m) => n + m.edges.length, 0);
  if (edges > 30) throw new Error(`${where}: more than 30 edges for brute force`);
  const key = (s: ProjectState) => `${s.model}\u0000${s.vertex}\u0000${s.jumpedFrom}\u0000${s.variables}`;
  const movesOf = lazyMoves(walk.start(), key, (state) => walk.movesFrom(state));
  const all = 2 ** edges - 1;
  const best = new Map<number, number>([[0, 0]]);
  // Dial's buckets by elements handed out: every move costs one or two.
  const buckets: number[][] = [[0, 0]];
  for (let cost = 0; cost < buckets.length; cost++) {
    const bucket = buckets[cost] ?? [];
    for (let i = 0; i < bucket.length; i += 2) {
      const [state, mask] = [bucket[i], bucket[i + 1]];
      if (best.get(state * 2 ** edges + mask) !== cost) continue;
      if (mask === all) return 1 + cost;
      for (const [edge, to] of movesOf(state)) {
        const covered = edge < 0 ? mask : mask | (1 << edge);
        const next = cost + (edge < 0 ? 1 : 2);
        const pair = to * 2 ** edges + covered;
        const known = best.get(pair);
        if (known !== undefined && known <= next) continue;
        if (best.size >= pairLimit) return undefined;
        best.set(pair, next);
        (buckets[next] ??= []).push(to, covered);
      }
    }
  }
  return undefined;
}
