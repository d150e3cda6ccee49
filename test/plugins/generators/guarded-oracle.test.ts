import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Walker } from '../../../core/walker.js';
import { builtinPlugins } from '../../../plugins/index.js';
import { coverageOptimum, exploreModel, exploreModelFile, stepsToReach, type OracleModel } from '../../support/guard-oracle.js';
import { guardedModelsFolder, SEEDS, walkCapped } from '../../support/guarded-walks.js';

/**
 * The brute-force oracle of test/support/guard-oracle.ts, which the planning tests and bench trust: its states,
 * its closed edges, its step counting (checked against the machine where today's planner is exact) and the
 * optimum of every guarded model, each argued by hand.
 */

const GUARDED = guardedModelsFolder();
const GRAPHWALKER = join(GUARDED, '..', 'graphwalker');

/**
 * A hall with a key: e_TakeKey opens only without the key, e_DropKey and e_OpenDoor only with it. A guard-blind
 * walk would open the door at once; with the guards the key must be taken first.
 */
const hallWithKey: OracleModel = {
  id: 'hall',
  startElementId: 'v_Hall',
  actions: ['hasKey = false;'],
  vertices: [{ id: 'v_Hall' }, { id: 'v_Room' }],
  edges: [
    { id: 'e_OpenDoor', sourceVertexId: 'v_Hall', targetVertexId: 'v_Room', guard: 'hasKey' },
    { id: 'e_TakeKey', sourceVertexId: 'v_Hall', targetVertexId: 'v_Hall', guard: '!hasKey', actions: ['hasKey = true;'] },
    { id: 'e_DropKey', sourceVertexId: 'v_Hall', targetVertexId: 'v_Hall', guard: 'hasKey', actions: ['hasKey = false;'] },
    { id: 'e_Leave', sourceVertexId: 'v_Room', targetVertexId: 'v_Hall' },
  ],
};

describe('the guard oracle on a model small enough to solve by hand', () => {
  const space = exploreModel(hallWithKey);

  it('finds the three reachable states, breadth-first from the start', () => {
    expect(space.states).toEqual([
      { vertex: 'v_Hall', variables: '{"hasKey":false}' },
      { vertex: 'v_Hall', variables: '{"hasKey":true}' },
      { vertex: 'v_Room', variables: '{"hasKey":true}' },
    ]);
    // Edge indices: 0 e_OpenDoor, 1 e_TakeKey, 2 e_DropKey, 3 e_Leave; only what the guards let through.
    expect(space.moves).toEqual([[{ edge: 1, to: 1 }], [{ edge: 0, to: 2 }, { edge: 2, to: 0 }], [{ edge: 3, to: 1 }]]);
    expect(space.closedEdges).toEqual([]);
  });

  it('counts the optimum in steps: the start vertex, then two per move', () => {
    // Each of the four edges must be walked, and e_TakeKey, e_OpenDoor, e_Leave, e_DropKey is a walk: 4 moves.
    expect(coverageOptimum(space)).toEqual({ steps: 1 + 2 * 4, mostCovered: 4, edges: 4 });
  });

  it('counts the steps to a vertex or an edge as reached_vertex and reached_edge end on it', () => {
    // v_Hall, e_TakeKey, v_Hall, e_OpenDoor, v_Room.
    expect(stepsToReach(space, 'v_Room')).toBe(5);
    expect(stepsToReach(space, 'e_OpenDoor')).toBe(4);
    expect(stepsToReach(space, 'v_Hall')).toBe(1);
  });

  it('takes states as equal whatever order their variables were assigned in', () => {
    const space = exploreModel({
      id: 'order',
      startElementId: 'a',
      vertices: [{ id: 'a' }, { id: 'b' }],
      edges: [
        { id: 'ab', sourceVertexId: 'a', targetVertexId: 'b', actions: ['x = 1;', 'y = [2, { q: 1, p: 0 }];'] },
        { id: 'ba', sourceVertexId: 'a', targetVertexId: 'b', actions: ['y = [2, { p: 0, q: 1 }];', 'x = 1;'] },
      ],
    });
    expect(space.states).toEqual([
      { vertex: 'a', variables: '{}' },
      { vertex: 'b', variables: '{"x":1,"y":[2,{"p":0,"q":1}]}' },
    ]);
  });

  it('refuses what it does not model, or a guard that is not boolean, naming the model and edge', () => {
    const base = { id: 'm', startElementId: 'a', vertices: [{ id: 'a' }] };
    expect(() => exploreModel({ ...base, edges: [{ id: 'e', sourceVertexId: 'a', targetVertexId: 'a', guard: 'global.x' }] })).toThrow(
      "model 'm': the oracle does not model the shared scope (global.)",
    );
    expect(() => exploreModel({ ...base, edges: [{ id: 'e', sourceVertexId: 'a', targetVertexId: 'a', guard: '1' }] })).toThrow(
      "model 'm', edge 'e': guard '1' gave 1, not a boolean",
    );
    expect(() => exploreModel({ ...base, actions: ['f = () => 1;'], edges: [] })).toThrow(
      "model 'm': variables.f holds () => 1, which the oracle cannot compare as JSON",
    );
  });
});

describe('the guard oracle on the guarded fixture models', () => {
  it('finds the edge of never-open.json that no state lets through, with the setpoints seen at its source', () => {
    // setpoint starts at 20; e_Warmer opens below 21 and e_Cooler above 19, so it stays within 19..21 and
    // e_OverheatAlarm (setpoint > 30) never opens. Breadth-first: 20, then 21 (e_Warmer comes first), then 19.
    const space = exploreModelFile(join(GUARDED, 'never-open.json'));
    expect(space.closedEdges).toEqual([
      {
        edgeId: 'e_OverheatAlarm',
        guard: 'setpoint > 30',
        sourceVertexId: 'v_Display',
        seen: [{ setpoint: 20 }, { setpoint: 21 }, { setpoint: 19 }],
      },
    ]);
    expect(coverageOptimum(space)).toEqual({ steps: undefined, mostCovered: 4, edges: 5 });
  });

  it('finds that no one walk of impossible-goal.json covers both ways of buying', () => {
    // plan leaves 'none' on the first move into v_App and never returns to it: e_StartFreeTrial and
    // e_BuyFullVersion each open only while it is 'none', so a walk takes one of them, and every other edge.
    const space = exploreModelFile(join(GUARDED, 'impossible-goal.json'));
    expect(space.closedEdges).toEqual([]);
    expect(coverageOptimum(space)).toEqual({ steps: undefined, mostCovered: 4, edges: 5 });
  });

  // Each optimum is a lower bound argued from the guards, and a walk of that length (in the comment) exists.
  const optima: Array<[string, number, string]> = [
    // e_BatchComplete needs three uploads in a row, with an e_NextFile after each but the last; e_ClearQueue
    // needs an upload and an e_NextFile of its own before it; e_NewBatch follows e_BatchComplete: 6 + 3 + 1 moves.
    ['counter.json', 1 + 2 * 10, 'Upload Next Clear Upload Next Upload Next Upload Complete NewBatch'],
    // e_InvalidLogin twice before e_ThirdInvalidLogin; v_Home, left by e_Logout and by e_SessionExpired, is
    // entered twice, only by e_ValidLogin: 7 edges + 1 + 1.
    ['lockout.json', 1 + 2 * 9, 'Invalid Invalid Third Unlock Valid ViewProfile Logout Valid SessionExpired'],
    // e_AddItem three times before e_AddItemToFullCart; v_Checkout, left twice, is entered twice; v_Cart, left
    // three times (once by e_ContinueShopping, twice by e_Checkout), is entered by e_CancelCheckout once and so
    // by e_OpenCart twice: 10 edges + 2 + 1 + 1.
    ['cart.json', 1 + 2 * 14, 'OpenCart CheckoutEmpty Continue Add Add Add Full OpenCart Remove Checkout Cancel Checkout PlaceOrder BackToCatalog'],
    // Every edge once.
    ['toggles.json', 1 + 2 * 10, 'Wifi OpenWifi CloseWifi Bluetooth OpenPaired ClosePaired OpenTethering CloseTethering Airplane Locked'],
    // e_SelectProduct twice (stock 2 to 0, which e_SelectSoldOut and e_Restock need); six coins: two per product,
    // and one left over each for e_TakeProductAndChange and e_Refund, which both pay credit out: 9 edges + 1 + 5.
    ['vending.json', 1 + 2 * 15, 'NoCredit Coin Coin Coin CoinWhenFull Select TakeAndChange Coin Coin Select Take SoldOut Restock Coin Refund'],
    // Every edge once.
    ['feature-flags.json', 1 + 2 * 10, 'Reviews LaunchNew StartNew Wallet OpenReviews CloseReviews Relaunch LaunchLegacy StartLegacy Card'],
  ];

  it.each(optima)('finds the optimum of %s: %i steps (%s)', (file, steps) => {
    expect(coverageOptimum(exploreModelFile(join(GUARDED, file))).steps).toBe(steps);
  });
});

describe("the guard oracle's steps are the machine's", () => {
  let walker: Walker;
  beforeAll(async () => {
    walker = await Walker.create(builtinPlugins());
  });

  // Without guards today's shortest_all_paths walks the route-inspection optimum, so on every seed its walk
  // must be exactly as long as the oracle's: that checks the oracle's step counting against the machine's.
  const unguarded: Array<[string, number, string]> = [
    // The start edge e0 and its target, then e1, e2, e3 once each.
    ['SmallModel.json', 2 + 2 * 3, 'a start edge counts two steps before the first move'],
    // From the start vertex, e0, e1 and e2 all lead to n1 and only e3 comes back: e0 e3 e1 e3 e2.
    ['ModelWithPredefinedPath.json', 1 + 2 * 5, 'a start vertex counts one'],
  ];

  it.each(unguarded)('%s: %i steps, on every seed (%s)', async (file, steps) => {
    const path = join(GRAPHWALKER, file);
    expect(coverageOptimum(exploreModelFile(path)).steps).toBe(steps);
    const loaded = await walker.read(path);
    const walked = SEEDS.map((seed) => walkCapped(walker, loaded, 'shortest_all_paths(edge_coverage(100))', seed, 10 * steps));
    expect(walked).toEqual(SEEDS.map(() => ({ steps, ended: true })));
  });
});
