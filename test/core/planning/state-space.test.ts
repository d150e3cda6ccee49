import { describe, expect, it } from 'vitest';
import { loadModelFile } from '../../../core/model/load.js';
import type { ModelFileJson } from '../../../core/model/types.js';
import { PlainStepper } from '../../../plugins/quickjs/plain-stepper.js';
import { exploreStates, type ExplorationBound, type StateSpace } from '../../../core/planning/state-space.js';
import { SNAPSHOT_SEPARATOR } from '../../../core/scripting.js';

/** The bounds of one exploration (docs/planning.md, "The bound"), on a fake clock: counted, never timed. */

/** A counter on one vertex that counts to `top`: `top + 1` states. */
function counter(top: number): ModelFileJson {
  return {
    models: [
      {
        id: 'counter',
        startElementId: 'v_Count',
        actions: ['n = 0;'],
        vertices: [{ id: 'v_Count', name: 'v_Count' }],
        edges: [{ id: 'e_Up', name: 'e_Up', sourceVertexId: 'v_Count', targetVertexId: 'v_Count', guard: `n < ${top}`, actions: ['n++;'] }],
      },
    ],
  };
}

function explore(top: number, bound: ExplorationBound): StateSpace {
  const { graph } = loadModelFile(counter(top));
  const space = exploreStates(graph, PlainStepper.of(graph)!, 0, `["n",0]${SNAPSHOT_SEPARATOR}`, bound);
  if (space === 'no-copy') throw new Error('no copy');
  return space;
}

/** A clock that reads `step` ms more each time it is read, and how often it was. */
function ticking(step: number): { clock: () => number; reads: () => number } {
  let now = 0;
  let reads = 0;
  return { clock: () => (reads++, (now += step)), reads: () => reads };
}

describe('an exploration', () => {
  it('explores every state when no bound is reached', () => {
    const space = explore(999, { states: 1000 });
    expect({ size: space.size, cut: space.cut, complete: space.complete }).toEqual({ size: 1000, cut: undefined, complete: true });
  });

  it('stops at its bound of states, and says so', () => {
    const space = explore(999, { states: 100 });
    // 100 states explored; the 101st, found by the last of them, is left unexplored.
    expect({ size: space.size, explored: space.expanded.reduce((a, b) => a + b, 0), cut: space.cut }).toEqual({ size: 101, explored: 100, cut: 'states' });
  });

  it('stops at its safety stop of time, and says so', () => {
    // The clock is read at the start and before every state after the first; each read moves it 1 ms on and
    // 10 ms are allowed, so the twelfth read (at 12 ms) stops it with 11 states explored.
    const clock = ticking(1);
    const space = explore(99_999, { states: 100_000, stop: { ms: 10, clock: clock.clock } });
    const explored = space.expanded.reduce((a, b) => a + b, 0);
    expect({ cut: space.cut, reads: clock.reads(), explored }).toEqual({ cut: 'time', reads: 12, explored: 11 });
  });

  it('is not stopped by a clock that stays within the bound', () => {
    const clock = ticking(0.001);
    const space = explore(9_999, { states: 100_000, stop: { ms: 1000, clock: clock.clock } });
    expect({ size: space.size, cut: space.cut }).toEqual({ size: 10_000, cut: undefined });
  });

  it('reads no clock without a safety stop: its states alone bound it', () => {
    const space = explore(99_999, { states: 500 });
    expect({ explored: space.expanded.reduce((a, b) => a + b, 0), cut: space.cut }).toEqual({ explored: 500, cut: 'states' });
  });
});
