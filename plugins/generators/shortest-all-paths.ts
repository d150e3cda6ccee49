import type { PathGeneratorFactory } from '../../core/generator.js';
import type { Graph } from '../../core/model/graph.js';
import type { JoinedGraph } from '../../core/model/joined-graph.js';
import type { WalkState } from '../../core/walk-state.js';
import { DetourSearch } from './algorithms/detour.js';
import { planCoveringWalk } from './algorithms/route-inspection.js';
import { Traps } from './algorithms/traps.js';
import { PlanningBudget, randomOpenEdge } from './choice.js';
import { QuickRandomPath } from './quick-random.js';
import { Route } from './route.js';
import { MovePlanner, walkPlanner } from './walk-planners.js';
import { leadsToUnvisited, NO_SPACE, StateGuide, type StatePlan } from './state-guide.js';
import { coverableFrom, frontierRoute } from '../../core/planning/state-tours.js';
import { planTour } from '../../core/planning/tour-search.js';
import type { StatePlanning } from '../../core/planning/walk-planning.js';

/** Models up to this many reachable vertices + edges are re-planned in full whenever a guard spoils the tour. */
const FULL_REPLAN_LIMIT = 4096;
/** How far along the tour a detour may rejoin it: further means shorter detours but more edges left for later. */
const REJOIN_WINDOW = 32;
/** A tour that needs more than one repair per this many steps followed is given up: guards change too often. */
const STEPS_PER_REPAIR = 8;

const PLANNER = Symbol('shortest_all_paths planner');

/**
 * `shortest_all_paths` (`shortestallpaths`): the shortest walk that covers every edge reachable from where the
 * walk stands, in every model it can reach through shared states, planned at the first step by route
 * inspection over the joined graph ({@link planCoveringWalk}) and then followed move by move: edges, and at
 * shared states the jumps the tour needs (answered through `chooseJump`). It works on any model: where
 * GraphWalker demands an Eulerian or semi-Eulerian graph, the planner walks the cheapest extra paths, and
 * where part of the model cannot be left and re-entered it covers as much as one walk can. All models of a
 * walk that use shortest_all_paths follow one tour ({@link walkPlanner}).
 *
 * The plan ignores guards. When the due move cannot be made (a guard closes the edge, the machine does not
 * offer the jump, or the walk was moved by another model's generator):
 * - on models up to {@link FULL_REPLAN_LIMIT} elements it plans again over the edges not yet visited, from
 *   where it stands, and takes an open edge;
 * - on larger ones, where a plan costs a pass over the model, it repairs the tour:
 *   it leaves the closed edge for later and takes the shortest detour ({@link DetourSearch}) to where the
 *   tour goes on. When guards spoil the tour too often for that, it gives the tour up.
 * Plans are made at most as often as a {@link PlanningBudget} allows; in between it walks quick_random's way.
 * After the tour, if the condition still wants steps, it plans over the edges not yet visited (the skipped
 * ones among them); when none is reachable it walks randomly, at O(1) per step.
 */
export const shortestAllPathsGenerator: PathGeneratorFactory = {
  name: 'shortest_all_paths',
  aliases: ['shortestallpaths'],
  create: (init) => walkPlanner(init, PLANNER, () => new ShortestAllPaths(init.graph, init.joined, init.planning)),
};

/**
 * With the walk's states known (docs/planning.md): the shortest tour over the edges not yet visited that a
 * walk from here can take, exact where the search fits ({@link planTour}), else the best of two heuristics;
 * when the states known hold none, the way into the nearest unknown state beyond which the graph has one.
 */
const coveringTour: StatePlan = (space, state, walk, first) => {
  const g = space.graph;
  const required = coverableFrom(space, state, (e) => !g.isVertex(e) && walk.visits(e) === 0, first);
  if (required.length === 0) return frontierRoute(space, state, leadsToUnvisited(space, walk), walk.random, first);
  return planTour(space, state, required, walk.random, first).tour;
};

class ShortestAllPaths extends MovePlanner {
  private readonly tour: Route;
  private readonly detour: Route;
  private planned = false;
  private planSize = 0;
  private followed = 0;
  private repairs = 0;
  private readonly done: Uint8Array;
  private readonly budget = new PlanningBudget();
  private readonly detours: DetourSearch;
  private readonly meanwhile: QuickRandomPath;
  private readonly traps: Traps;
  private readonly guide: StateGuide;

  constructor(
    graph: Graph,
    private readonly joined: JoinedGraph,
    planning: StatePlanning,
  ) {
    super(graph);
    this.guide = new StateGuide(planning, coveringTour);
    this.tour = new Route(graph);
    this.detour = new Route(graph);
    this.done = new Uint8Array(graph.vertexCount);
    this.detours = new DetourSearch(graph);
    this.meanwhile = new QuickRandomPath(graph, joined);
    this.traps = new Traps(graph);
  }

  override move(walk: WalkState, vertex: number, open: readonly number[], candidates: readonly number[]): number {
    const guided = this.guide.next(walk, vertex, open, candidates);
    if (guided !== NO_SPACE) return guided;
    this.budget.tick();
    const next = this.followPlan(walk, vertex, open, candidates);
    if (next >= 0) return next;
    if (this.done[vertex] === 1) return -1;
    const repaired = this.mayRepair() ? this.repair(vertex, open) : -1;
    if (repaired >= 0) return repaired;
    this.dropSpoiltTour(vertex);
    if (this.budget.ready()) return this.replan(walk, vertex, open, candidates);
    return this.stepAside(walk, vertex, open, candidates);
  }

  /**
   * quick_random's move, or a random one, among the open edges that do not strand the walk in a
   * {@link Traps trap} while there is work elsewhere: a plan ends in a dead end only when everything else is
   * covered, but quick_random heads for whatever is unvisited, and chance goes anywhere.
   */
  private stepAside(walk: WalkState, vertex: number, open: readonly number[], candidates: readonly number[]): number {
    const safe = this.traps.avoid(walk, open);
    const move = this.meanwhile.move(walk, vertex, safe, candidates);
    return move >= 0 || safe === open ? move : randomOpenEdge(walk, safe);
  }

  /**
   * The detour's or else the tour's next move, when it leaves from here and can be made; -1 otherwise. A move
   * into a vertex whose guards keep every way on closed counts as one that cannot be made: the tour, planned
   * without guards, would have the walk stuck there.
   */
  private followPlan(walk: WalkState, vertex: number, open: readonly number[], candidates: readonly number[]): number {
    const back = this.detour.follow(vertex, open);
    if (back >= 0) return back;
    const next = this.tour.dueFrom(vertex);
    if (next < 0 || !(this.graph.isVertex(next) ? candidates : open).includes(next)) return -1;
    if (!this.graph.isVertex(next) && this.traps.closes(walk, next)) return -1;
    this.tour.advance();
    this.followed++;
    if (this.tour.finished()) this.budget.completed();
    return next;
  }

  /** Large models only, and only while guards leave the tour mostly intact; otherwise the tour is given up. */
  private mayRepair(): boolean {
    if (this.planSize <= FULL_REPLAN_LIMIT || this.tour.finished()) return false;
    if (this.repairs * STEPS_PER_REPAIR <= this.followed + 4 * STEPS_PER_REPAIR) return true;
    this.tour.start([], 0, -1);
    this.detour.start([], 0, -1);
    this.budget.failed();
    return false;
  }

  /**
   * A tour whose move due here cannot be made is given up, and counts as a failed plan: a guard that stays shut
   * would otherwise spoil every new tour at the same place, and the walk would go back and forth between plans
   * that each take it one step towards that edge. The {@link PlanningBudget} then waits longer before the next
   * plan, and quick_random's way, which avoids what blocked it, leads on meanwhile.
   */
  private dropSpoiltTour(vertex: number): void {
    if (this.tour.dueFrom(vertex) < 0) return;
    this.tour.start([], 0, -1);
    this.detour.start([], 0, -1);
    this.budget.failed();
  }

  private replan(walk: WalkState, vertex: number, open: readonly number[], candidates: readonly number[]): number {
    // The first plan covers everything reachable, as promised; later ones only what is still unvisited.
    const everything = !this.planned;
    this.planned = true;
    const required = everything ? () => true : (e: number) => walk.visits(e) === 0;
    const plan = planCoveringWalk(this.graph, vertex, required, walk.random, this.joined);
    this.planSize = plan.work;
    if (plan.required === 0) {
      for (const v of plan.reachable) this.done[v] = 1;
      return -1;
    }
    // A failed plan has no tour: the walk goes quick_random's way, and the budget spaces out the next attempts.
    this.tour.start(plan.tour, 0, vertex);
    this.detour.start([], 0, vertex);
    this.followed = this.repairs = 0;
    const next = this.followPlan(walk, vertex, open, candidates);
    this.budget.planned(plan.work, next >= 0);
    // A guard closes the tour's first edge: step aside, and plan again later from wherever that leads.
    return next >= 0 ? next : this.stepAside(walk, vertex, open, candidates);
  }

  /**
   * Skips closed tour edges that are due here, then takes the shortest detour to where the tour goes on
   * within the next {@link REJOIN_WINDOW} moves (the skipped ones are left for the plan after the tour);
   * -1 when no way is found.
   */
  private repair(vertex: number, open: readonly number[]): number {
    this.repairs++;
    const next = this.tour.skipClosedFrom(vertex, open);
    if (next >= 0 || this.tour.finished()) return next;
    const rejoin = this.tour.upcoming(REJOIN_WINDOW);
    const way = this.detours.search(vertex, open, (v) => rejoin.get(v));
    if (way === undefined) return -1;
    this.tour.jumpTo(rejoin.get(this.graph.target[way[way.length - 1]])!);
    this.detour.start(way, 1, vertex);
    return way[0];
  }
}
