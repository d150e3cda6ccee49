import type { ModelFileJson } from '../../core/model/types.js';
import type { OracleModel } from './guard-oracle.js';

/**
 * Models whose counters have no bound (issue 22): a self-loop that counts up, guards that open at thresholds
 * and on remainders, and edges that reset. Their states are endless, so no exploration holds them all and the
 * walk plans on the fly (docs/planning.md, "Beyond the bound"); the oracle's breadth-first search over
 * (state, covered edges) still ends at the first full cover (test/support/guard-oracle.ts).
 */

type Edge = { id: string; sourceVertexId: string; targetVertexId: string; guard?: string; actions?: string[] };

function model(id: string, start: string, actions: string[], vertices: string[], edges: Edge[]): OracleModel & { id: string } {
  return {
    id,
    name: id,
    startElementId: start,
    actions,
    vertices: vertices.map((v) => ({ id: v, name: v })),
    edges: edges.map((e) => ({ name: e.id, ...e })),
  } as OracleModel & { id: string };
}

/** A job runner: ticks count up without end, a job starts after four, runs on remainders, and finishing or aborting resets. */
export const jobRunner = model('job_runner', 'v_Idle', ['steps = 0;'], ['v_Idle', 'v_Busy', 'v_Report'], [
  { id: 'e_Tick', sourceVertexId: 'v_Idle', targetVertexId: 'v_Idle', actions: ['steps++;'] },
  { id: 'e_Start', sourceVertexId: 'v_Idle', targetVertexId: 'v_Busy', guard: 'steps >= 4' },
  { id: 'e_Work', sourceVertexId: 'v_Busy', targetVertexId: 'v_Busy', guard: 'steps % 3 == 1', actions: ['steps++;'] },
  { id: 'e_Pause', sourceVertexId: 'v_Busy', targetVertexId: 'v_Idle', guard: 'steps % 2 == 0' },
  { id: 'e_Finish', sourceVertexId: 'v_Busy', targetVertexId: 'v_Report', guard: 'steps >= 6', actions: ['steps = 0;'] },
  { id: 'e_Abort', sourceVertexId: 'v_Busy', targetVertexId: 'v_Idle', guard: 'steps % 3 == 2', actions: ['steps = 0;'] },
  { id: 'e_Close', sourceVertexId: 'v_Report', targetVertexId: 'v_Idle' },
]);

/** Two counters: a page number without bound, a batch size that wraps at five, and a jackpot on their sum. */
export const pager = model('pager', 'v_List', ['page = 0;', 'batch = 0;'], ['v_List', 'v_Batch'], [
  { id: 'e_NextPage', sourceVertexId: 'v_List', targetVertexId: 'v_List', actions: ['page++;'] },
  { id: 'e_OpenBatch', sourceVertexId: 'v_List', targetVertexId: 'v_Batch', guard: 'page % 4 == 3' },
  { id: 'e_Add', sourceVertexId: 'v_Batch', targetVertexId: 'v_Batch', actions: ['batch = (batch + 1) % 5;'] },
  { id: 'e_Flush', sourceVertexId: 'v_Batch', targetVertexId: 'v_List', guard: 'batch == 4', actions: ['batch = 0;'] },
  { id: 'e_Jackpot', sourceVertexId: 'v_Batch', targetVertexId: 'v_List', guard: 'page + batch == 9', actions: ['page = 0;'] },
  { id: 'e_Rewind', sourceVertexId: 'v_List', targetVertexId: 'v_List', guard: 'page > 6', actions: ['page = 0;'] },
]);

/** A rate limiter: requests count up, every fifth is throttled, a window reset after ten, and a ban past twelve. */
export const rateLimiter = model('rate_limiter', 'v_Open', ['requests = 0;', 'bans = 0;'], ['v_Open', 'v_Throttled', 'v_Banned'], [
  { id: 'e_Request', sourceVertexId: 'v_Open', targetVertexId: 'v_Open', guard: 'requests % 5 != 4', actions: ['requests++;'] },
  { id: 'e_Throttle', sourceVertexId: 'v_Open', targetVertexId: 'v_Throttled', guard: 'requests % 5 == 4', actions: ['requests++;'] },
  { id: 'e_Wait', sourceVertexId: 'v_Throttled', targetVertexId: 'v_Open' },
  { id: 'e_NewWindow', sourceVertexId: 'v_Open', targetVertexId: 'v_Open', guard: 'requests >= 10', actions: ['requests = 0;'] },
  { id: 'e_Ban', sourceVertexId: 'v_Throttled', targetVertexId: 'v_Banned', guard: 'requests > 12', actions: ['bans++;'] },
  { id: 'e_Unban', sourceVertexId: 'v_Banned', targetVertexId: 'v_Open', guard: 'bans > 0', actions: ['requests = 0;'] },
]);

export const COUNTER_MODELS: ReadonlyArray<OracleModel & { id: string }> = [jobRunner, pager, rateLimiter];

/** One model as a file of its own, with a generator for the tests that give none. */
export function counterFile(m: OracleModel, generator = 'shortest_all_paths(edge_coverage(100))'): ModelFileJson {
  return { name: (m as { id: string }).id, models: [{ ...m, generator }] } as unknown as ModelFileJson;
}
