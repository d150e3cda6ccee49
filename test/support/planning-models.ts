import { loadModelFile } from '../../core/model/load.js';
import type { ModelFileJson } from '../../core/model/types.js';
import { compilePlain, type PlainScope, type PlainValue } from '../../plugins/quickjs/plain-scripts.js';
import { PlainStepper } from '../../plugins/quickjs/plain-stepper.js';
import { exploreStates, type StateSpace } from '../../core/planning/state-space.js';
import { SNAPSHOT_SEPARATOR } from '../../core/scripting.js';
import type { OracleModel } from './guard-oracle.js';

/**
 * Generated guarded models larger than the fixtures, for the planning tests and `bench/planning.ts`: a cart
 * that moves on a square grid of `side` x `side` positions (`x`, `y`, each from 0 to side - 1) and picks up
 * at `picks` positions drawn from `seed`. Its states are the positions; its edges the four moves and one
 * pick-up per position, each open only there. Covering every edge is a tour of the pick-up positions in the
 * grid's distances: the order matters, and heading for the nearest one again and again is what a travelling
 * salesman's nearest-neighbour heuristic is, often a fifth or more over the best.
 */
export function pickUpGrid(side: number, picks: number, seed: number): OracleModel {
  let state = seed;
  // A linear congruential generator: the same positions from the same seed, on every machine.
  const position = () => (state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff) % side;
  const max = side - 1;
  const move = (id: string, guard: string | undefined, action: string | undefined) => ({
    id,
    name: id,
    sourceVertexId: 'v_Cart',
    targetVertexId: 'v_Cart',
    ...(guard === undefined ? {} : { guard }),
    actions: action === undefined ? [] : [action],
  });
  const edges = [move('e_Right', `x < ${max}`, 'x++;'), move('e_Left', 'x > 0', 'x--;'), move('e_Up', `y < ${max}`, 'y++;'), move('e_Down', 'y > 0', 'y--;')];
  for (let i = 0; i < picks; i++) {
    const [x, y] = [position(), position()];
    edges.push(move(`e_PickUp${i}`, `x == ${x} && y == ${y}`, undefined));
  }
  const vertices = [{ id: 'v_Cart', name: 'v_Cart' }];
  return { id: 'pick_up_grid', name: 'PickUpGrid', startElementId: 'v_Cart', actions: ['x = 0;', 'y = 0;'], vertices, edges };
}

/**
 * The planner's states of a one-model file whose scripts are plain, from its start, as a walk explores them
 * (no bound): for tests and the bench to hold tours over them to the oracle.
 */
export function plainStatesOf(model: OracleModel): StateSpace {
  const { graph } = loadModelFile({ models: [model] } as ModelFileJson);
  const scope: PlainScope = new Map();
  for (const action of model.actions ?? []) {
    const run = compilePlain(action, 'action', { modelId: String(model.id), field: 'model actions' });
    if (run === undefined) throw new Error(`model action '${action}' is not plain`);
    run(scope);
  }
  const flat: PlainValue[] = [...scope].flat();
  const stepper = PlainStepper.of(graph);
  if (stepper === undefined) throw new Error(`model '${model.id}' has scripts that are not plain`);
  stepper.load(`${JSON.stringify(flat)}${SNAPSHOT_SEPARATOR}`);
  const start = graph.models[0].startElement;
  const after = stepper.enter(start);
  if (after === 'unpredictable') throw new Error(`model '${model.id}' reads chance or time at its start`);
  const space = exploreStates(graph, stepper, start, after, { states: Infinity });
  if (space === 'no-copy') throw new Error(`model '${model.id}' holds values with no faithful copy`);
  return space;
}

/** Every edge of the space's graph, by index: what edge_coverage(100) asks a tour to take. */
export function edgesOf(space: StateSpace): number[] {
  const g = space.graph;
  return Array.from({ length: g.size - g.vertexCount }, (_, i) => g.vertexCount + i);
}
