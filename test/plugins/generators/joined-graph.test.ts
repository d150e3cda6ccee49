import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Graph } from '../../../core/model/graph.js';
import { distancesToTargets } from '../../../plugins/generators/algorithms/bfs.js';
import { JoinedGraph } from '../../../core/model/joined-graph.js';
import { NearestUnvisited } from '../../../plugins/generators/algorithms/nearest-unvisited.js';
import { planCoveringWalk } from '../../../plugins/generators/index.js';
import { TestWalk } from './harness.js';
import { at, graphOf, hubModels, joinable, model, randomJoinedModels } from './models.js';
import { bruteForceJoinedCover, joinedMoves, joinedStepsTo } from './reference.js';

/** Checks that `moves` is a walk from `start` (edges from where it stands, jumps the machine could offer); steps. */
function stepsOf(graph: Graph, start: number, moves: readonly number[]): number {
  let v = start;
  let steps = 0;
  for (const m of moves) {
    const move = joinedMoves(graph, v).find((candidate) => candidate.move === m);
    if (move === undefined) throw new Error(`${graph.describe(m)} is no move from ${graph.describe(v)}`);
    v = move.to;
    steps += move.cost;
  }
  return steps;
}

const joinedFiles = fc
  .record({ seed: fc.nat(100_000), edges: fc.integer({ min: 1, max: 4 }) })
  .map(({ seed, edges }) => randomJoinedModels(seed, edges));

describe('the joined graph of a multi-model file', () => {
  it('groups the vertices of a shared state only when it spans two models, and jumps only between models', () => {
    const graph = graphOf(
      joinable(model(['a', 'b', 'c'], [['ab', 'a', 'b']]), 'one', { a: 'S', b: 'S', c: 'LONE' }, true),
      joinable(model(['x', 'y'], [['xy', 'x', 'y']]), 'two', { x: 'S' }),
    );
    const joined = new JoinedGraph(graph);
    const [a, b, c, x] = [at(graph, 'a'), at(graph, 'b'), at(graph, 'c'), at(graph, 'x', 1)];
    expect(joined.groupCount).toBe(1);
    expect(joined.groupOf[c]).toBe(-1);
    expect(joined.jumpCount(a)).toBe(1);
    expect(joined.jumpCount(x)).toBe(2);
    expect(joined.jumpsBetween(a, x)).toEqual([x]);
    // a and b share a model: the way from one to the other runs through the other model, two jumps.
    expect(joined.jumpsBetween(a, b)).toEqual([x, b]);
  });

  it('quick_random search: finds the nearest unvisited edge in steps, through jumps, as exhaustive search does', () => {
    fc.assert(
      fc.property(joinedFiles, fc.nat(1000), (graph, pick) => {
        const walk = new TestWalk(graph, pick);
        // Mark some edges visited, so that the nearest unvisited one is often in another model.
        for (let e = graph.vertexCount; e < graph.size; e++) if ((e * 7 + pick) % 3 !== 0) walk.step(e);
        const start = pick % graph.vertexCount;
        const first = joinedMoves(graph, start).map((m) => m.move);
        const route = new NearestUnvisited(graph, new JoinedGraph(graph)).search(walk, start, first, () => false);
        const unvisited = (e: number) => !graph.isVertex(e) && graph.source[e] >= 0 && walk.visits(e) === 0;
        const expected = joinedStepsTo(graph, start, unvisited);
        if (expected === Infinity) {
          expect(route).toBeUndefined();
          return;
        }
        expect(route).toBeDefined();
        const last = route![route!.length - 1];
        expect(walk.visits(last)).toBe(0);
        expect(stepsOf(graph, start, route!) - 1).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('a_star distances: steps from every vertex to a target, through jumps, as exhaustive search finds', () => {
    fc.assert(
      fc.property(joinedFiles, fc.nat(1000), (graph, pick) => {
        const picked = [pick % graph.size, (pick * 13) % graph.size];
        const targets = picked.filter((t) => graph.isVertex(t) || graph.source[t] >= 0);
        const distance = new Int32Array(graph.vertexCount);
        distancesToTargets(graph, new JoinedGraph(graph), targets, distance);
        for (let v = 0; v < graph.vertexCount; v++) {
          const expected = joinedStepsTo(graph, v, (x) => targets.includes(x));
          expect(distance[v]).toBe(expected === Infinity ? -1 : expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('shortest_all_paths plan: covers what exhaustive search can, with the fewest edges, in moves the machine allows', () => {
    let jumpsSeen = 0;
    let suboptimal = 0;
    fc.assert(
      fc.property(joinedFiles, (graph) => {
        const start = graph.models[0].startElement;
        const best = bruteForceJoinedCover(graph);
        const plan = planCoveringWalk(graph, start, () => true);
        const steps = stepsOf(graph, start, plan.tour);
        const edges = plan.tour.filter((m) => !graph.isVertex(m));
        expect(plan.covered).toBe(best.covered);
        expect(new Set(edges).size).toBe(best.covered);
        expect(edges.length).toBe(best.edges);
        expect(steps).toBeGreaterThanOrEqual(best.steps);
        // The edges are the fewest; the jumps laid between them are the fewest in all but a few percent of
        // files. The planner lays the jumps of a group greedily: where it reaches a member of the group it
        // needs through a third model instead of directly, that is one detour, out and back, two jumps more.
        // The planner is held to at most one such detour per group: a bound of one step per group failed on
        // a file of three models sharing one state whose plan took exactly two more (fast-check seed
        // -1875132392, path 252:19).
        expect(steps - best.steps).toBeLessThanOrEqual(2 * new JoinedGraph(graph).groupCount);
        if (steps > best.steps) suboptimal++;
        jumpsSeen += plan.tour.length - edges.length;
      }),
      { numRuns: 300 },
    );
    expect(jumpsSeen).toBeGreaterThan(50);
    expect(suboptimal).toBeLessThan(15);
  });

  it('plans one tour over every model of the hub file, the vault (reachable only through the wing) included', () => {
    const graph = hubModels();
    const start = graph.models[0].startElement;
    const plan = planCoveringWalk(graph, start, () => true);
    expect(plan.covered).toBe(14);
    expect(plan.reachable).toHaveLength(graph.vertexCount);
    const best = bruteForceJoinedCover(graph);
    expect(stepsOf(graph, start, plan.tour)).toBe(best.steps);
  });

  it('lays a jump through a third model between two members of one model', () => {
    // The walk must cover a→b's model edges a1 then b1, both in model one, whose shared vertices only meet via x.
    const graph = graphOf(
      joinable(model(['s', 'a', 'b', 't'], [['sa', 's', 'a'], ['bt', 'b', 't']]), 'one', { a: 'S', b: 'S' }, true),
      joinable(model(['x'], []), 'two', { x: 'S' }),
    );
    const plan = planCoveringWalk(graph, at(graph, 's'), () => true);
    expect(plan.tour).toEqual([at(graph, 'sa'), at(graph, 'x', 1), at(graph, 'b'), at(graph, 'bt')]);
  });
});
