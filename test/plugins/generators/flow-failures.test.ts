import { afterEach, describe, expect, it, vi } from 'vitest';
import { UnitCostFlow } from '../../../plugins/generators/algorithms/min-cost-flow.js';
import { planCoveringWalk, shortestAllPathsGenerator } from '../../../plugins/generators/index.js';
import { coveredEdges, idsOf, run } from './harness.js';
import { at, graphOf, model } from './models.js';

/** A ring a → b → c → a with a loop at c: re-planning over the loop alone needs a join from a, then a way back. */
const ringWithLoop = () =>
  graphOf(model(['a', 'b', 'c'], [['ab', 'a', 'b'], ['bc', 'b', 'c'], ['ca', 'c', 'a'], ['cc', 'c', 'c']]));

/** Makes the `failing`-th call of `UnitCostFlow.solve` (1-based; 0: every call) report supply left over. */
function failSolve(failing: number): void {
  const solve = UnitCostFlow.prototype.solve;
  let calls = 0;
  vi.spyOn(UnitCostFlow.prototype, 'solve').mockImplementation(function (this: UnitCostFlow) {
    const solved = solve.call(this);
    calls++;
    return failing === 0 || calls === failing ? false : solved;
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a balancing flow that cannot send all its supply', () => {
  it('is reported by the flow itself: a demand no supply reaches leaves excess', () => {
    const flow = new UnitCostFlow(2, [0], [1]);
    flow.excess[1] = 1;
    flow.excess[0] = -1;
    expect(flow.solve()).toBe(false);
    expect([...flow.excess]).toEqual([-1, 1]);
  });

  it('solves three flows to plan the way from the start to the loop and back, when every one succeeds', () => {
    const graph = ringWithLoop();
    vi.spyOn(UnitCostFlow.prototype, 'solve');
    const plan = planCoveringWalk(graph, at(graph, 'a'), (e) => e === at(graph, 'cc'));
    expect(plan.failed).toBe(false);
    expect(idsOf(graph, [...plan.tour])).toEqual(['ab', 'bc', 'cc', 'ca']);
    expect(UnitCostFlow.prototype.solve).toHaveBeenCalledTimes(3);
  });

  it.each([
    [1, 'balancing the components'],
    [2, 'opening the tour from its entry to its exit'],
    [3, 're-balancing after the joins'],
  ])('gives up the plan when solve %i (%s) fails, rather than lay a trail over unbalanced counts', (call) => {
    const graph = ringWithLoop();
    failSolve(call);
    const plan = planCoveringWalk(graph, at(graph, 'a'), (e) => e === at(graph, 'cc'));
    expect(plan).toMatchObject({ failed: true, tour: [], covered: 0, required: 1 });
    expect(UnitCostFlow.prototype.solve).toHaveBeenCalledTimes(call);
  });

  it('leaves shortest_all_paths walking quick_random\'s way, along open edges, to full coverage', () => {
    const graph = ringWithLoop();
    failSolve(0);
    const result = run(shortestAllPathsGenerator, graph, { until: coveredEdges(4), maxSteps: 200 });
    expect(result.walk.visitedEdges(0)).toBe(4);
    expect(UnitCostFlow.prototype.solve).toHaveBeenCalled();
  });
});
