import { beforeAll, describe, expect, it } from 'vitest';
import type { PathGeneratorFactory } from '../../../core/generator.js';
import { ErrorCodes } from '../../../core/errors.js';
import { Machine } from '../../../core/machine/machine.js';
import { Graph } from '../../../core/model/graph.js';
import type { ModelFileJson } from '../../../core/model/types.js';
import type { Registries } from '../../../core/plugin.js';
import { testRegistries } from '../../support/walkers.js';

/**
 * The answers the `scripted` generator gives, one per question, each a function of the walk's graph so that a
 * test can name elements by id; when the script runs out it takes the first open edge, as a generator that
 * behaves would.
 */
let script: ((graph: Graph) => unknown)[] = [];
let jumpScript: ((graph: Graph) => unknown)[] = [];

const scripted: PathGeneratorFactory = {
  name: 'scripted' as PathGeneratorFactory['name'],
  create: ({ graph }) => ({
    nextEdge: (walk, vertex) => {
      const answer = script.shift();
      return (answer === undefined ? (walk.openEdges(vertex)[0] ?? -1) : answer(graph)) as number;
    },
    chooseJump: (_walk, vertex) => {
      const answer = jumpScript.shift();
      return (answer === undefined ? vertex : answer(graph)) as number;
    },
  }),
};

/**
 * Tries to make a wrong answer pass by adding it to the open edges it was handed (an out-edge of another
 * vertex, found by id), then answers it.
 */
let smuggled = '';
const altering: PathGeneratorFactory = {
  name: 'altering' as PathGeneratorFactory['name'],
  create: ({ graph, model }) => ({
    nextEdge: (walk, vertex) => {
      const edge = graph.elementById(model, smuggled)!;
      try {
        (walk.openEdges(vertex) as number[]).push(edge);
      } catch {
        // The array is frozen: the push fails, and the answer below is refused all the same.
      }
      return edge;
    },
  }),
};

let registries: Registries;
beforeAll(async () => {
  registries = await testRegistries([
    { meta: { name: 'scripted-plugin', version: '0' }, setup: (r) => [scripted, altering].forEach((g) => r.generators.register(g)) },
  ]);
});

/**
 * Model A: a0 ⇄ a1, a closed loop at a0 (guard false), and a1 shares the state HUB with b0 of model B, which
 * has a loop of its own. A start edge leads into a0.
 */
const file: ModelFileJson = {
  models: [
    {
      id: 'A',
      name: 'Alpha',
      generator: 'scripted(never)',
      startElementId: 'start',
      vertices: [{ id: 'a0', name: 'v_a0' }, { id: 'a1', name: 'v_a1', sharedState: 'HUB' }],
      edges: [
        { id: 'start', name: 'e_start', targetVertexId: 'a0' },
        { id: 'ab', name: 'e_ab', sourceVertexId: 'a0', targetVertexId: 'a1' },
        { id: 'ba', name: 'e_ba', sourceVertexId: 'a1', targetVertexId: 'a0' },
        { id: 'shut', name: 'e_shut', sourceVertexId: 'a0', targetVertexId: 'a0', guard: 'false' },
      ],
    },
    {
      id: 'B',
      name: 'Beta',
      generator: 'scripted(never)',
      vertices: [{ id: 'b0', name: 'v_b0', sharedState: 'HUB' }],
      edges: [{ id: 'bb', name: 'e_bb', sourceVertexId: 'b0', targetVertexId: 'b0' }],
    },
  ],
};

const id = (model: number, elementId: string) => (graph: Graph) => graph.elementById(model, elementId)!;

/** A machine standing on a0, after the start edge. */
function onA0(): Machine {
  script = [];
  jumpScript = [];
  const machine = new Machine({ graph: new Graph(file), registries, seed: 1 });
  expect([machine.next().id, machine.next().id]).toEqual(['start', 'a0']);
  return machine;
}

/** Asks for a step with `answer` scripted; expects a refusal that leaves everything as it was, then a good step. */
function refuses(machine: Machine, answer: (graph: Graph) => unknown, message: string, jump = false): void {
  (jump ? jumpScript : script).push(answer);
  const before = { stats: machine.statistics(), current: machine.current, steps: machine.steps, statuses: [...machine.modelStatuses()] };
  expect(() => machine.next()).toThrow(expect.objectContaining({ code: ErrorCodes.GENERATOR_INVALID, message }));
  expect({ stats: machine.statistics(), current: machine.current, steps: machine.steps, statuses: [...machine.modelStatuses()] }).toEqual(before);
}

const rule = 'nextEdge must answer one of walk.openEdges(vertex), or -1 when there is no way on. The walk has not moved.';

describe("a plugin generator's answers are checked before the walk moves", () => {
  const noElement = 'which is no element of the model file';
  it.each([
    ['NaN', () => NaN, 'NaN', noElement],
    ['undefined', () => undefined, 'undefined', noElement],
    ['a foreign object', () => ({ edge: 'ab' }), '{"edge":"ab"}', noElement],
    ['a string', () => '5', '"5"', noElement],
    ['a fraction', () => 4.5, '4.5', noElement],
    ['another negative number', () => -2, '-2', noElement],
    ['a number past the last element', () => 99, '99', noElement],
    ['a vertex', id(0, 'a1'), "1 (v_a1 (a1) of model 'Alpha')", 'which is a vertex, where an out-edge is due'],
    ['an edge of another model', id(1, 'bb'), "7 (e_bb (bb) of model 'Beta')", 'which is an edge of another model'],
    ['an edge leaving elsewhere', id(0, 'ba'), "5 (e_ba (ba) of model 'Alpha')", 'which is an edge leaving from v_a1 (a1)'],
    ['a start edge', id(0, 'start'), "3 (e_start (start) of model 'Alpha')", 'which is a start edge, leaving from no vertex'],
    ['an edge whose guard is false', id(0, 'shut'), "6 (e_shut (shut) of model 'Alpha')", 'which is an out-edge whose guard is false now'],
  ])('refuses %s, naming the generator and the answer, and walks on once it behaves', (_, answer, shown, why) => {
    const machine = onA0();
    try {
      refuses(machine, answer, `The path generator 'scripted' of model 'Alpha' answered ${shown} at v_a0 (a0), ${why}: ${rule}`);
      expect(machine.next().id).toBe('ab');
      expect(machine.next().id).toBe('a1');
    } finally {
      machine.dispose();
    }
  });

  it('shortens a long answer', () => {
    const machine = onA0();
    try {
      refuses(machine, () => 'x'.repeat(500), `The path generator 'scripted' of model 'Alpha' answered "${'x'.repeat(58)}… at v_a0 (a0), which is no element of the model file: ${rule}`);
    } finally {
      machine.dispose();
    }
  });

  it('takes -1 as a dead end, which fails the model as always', () => {
    const machine = onA0();
    try {
      script.push(() => -1);
      expect(() => machine.next()).toThrow(expect.objectContaining({ code: ErrorCodes.NO_PATH }));
      expect(machine.modelStatuses()[0]).toBe('failed');
    } finally {
      machine.dispose();
    }
  });

  it('refuses a jump answer that is no candidate, and jumps once the generator behaves', () => {
    const machine = onA0();
    try {
      expect([machine.next().id, machine.next().id]).toEqual(['ab', 'a1']);
      refuses(
        machine,
        id(0, 'a0'),
        "The path generator 'scripted' of model 'Alpha' answered 0 (v_a0 (a0) of model 'Alpha') to chooseJump at " +
          'v_a1 (a1), which is not one of the candidates v_a1 (a1), v_b0 (b0): chooseJump must answer the vertex ' +
          'itself to stay, or one of the vertices of other models it was offered. The walk has not moved.',
        true,
      );
      jumpScript.push(id(1, 'b0'));
      expect(machine.next()).toMatchObject({ id: 'b0', modelId: 'B' });
      // Just jumped from a1: the way back is no candidate while b0 can stay, so no question is asked.
      expect(machine.next().id).toBe('bb');
    } finally {
      machine.dispose();
    }
  });
});

/**
 * The answer is checked two ways: at a vertex without guards and of at most 16 out-edges, against the open
 * edges the generator was handed; elsewhere, against the graph and the guards' answers. The tests above ask
 * at a0, which has a guard; these ask at a vertex without, of 1 and of 17 out-edges.
 */
describe("a plugin generator's answers at vertices without guards", () => {
  /** h has 17 loops and no guard, so the check does not scan; o has one edge, into h. */
  const loops = Array.from({ length: 17 }, (_, i) => ({ id: `l${i}`, sourceVertexId: 'h', targetVertexId: 'h' }));
  const wide: ModelFileJson = {
    models: [
      {
        id: 'W',
        name: 'Wide',
        generator: 'scripted(never)',
        startElementId: 'start',
        vertices: [{ id: 'h', name: 'v_h' }, { id: 'o', name: 'v_o' }],
        edges: [{ id: 'start', targetVertexId: 'h' }, { id: 'oh', sourceVertexId: 'o', targetVertexId: 'h' }, ...loops],
      },
    ],
  };

  /** A machine standing on a1 of the first file (one out-edge, `ba`), after start, a0 and ab. */
  function onA1(): Machine {
    const machine = onA0();
    expect([machine.next().id, machine.next().id]).toEqual(['ab', 'a1']);
    return machine;
  }

  /** A machine standing on h, after the start edge. */
  function onH(): Machine {
    script = [];
    const machine = new Machine({ graph: new Graph(wide), registries, seed: 1 });
    expect([machine.next().id, machine.next().id]).toEqual(['start', 'h']);
    return machine;
  }

  const noElement = 'which is no element of the model file';
  it.each([
    ['a string', () => '5', '"5"', noElement],
    ['a fraction', () => 5.5, '5.5', noElement],
    ['a vertex', id(0, 'a0'), "0 (v_a0 (a0) of model 'Alpha')", 'which is a vertex, where an out-edge is due'],
    ['an edge leaving elsewhere', id(0, 'ab'), "4 (e_ab (ab) of model 'Alpha')", 'which is an edge leaving from v_a0 (a0)'],
    ['an edge of another model', id(1, 'bb'), "7 (e_bb (bb) of model 'Beta')", 'which is an edge of another model'],
  ])('refuses %s at a vertex of one out-edge, and walks on once the generator behaves', (_, answer, shown, why) => {
    const machine = onA1();
    try {
      refuses(machine, answer, `The path generator 'scripted' of model 'Alpha' answered ${shown} at v_a1 (a1), ${why}: ${rule}`);
      expect(machine.next().id).toBe('ba');
    } finally {
      machine.dispose();
    }
  });

  it.each([
    ['a fraction', () => 4.5, '4.5', noElement],
    ['a vertex', id(0, 'o'), "1 (v_o (o) of model 'Wide')", 'which is a vertex, where an out-edge is due'],
    ['an edge leaving elsewhere', id(0, 'oh'), "3 (oh of model 'Wide')", 'which is an edge leaving from v_o (o)'],
    ['a start edge', id(0, 'start'), "2 (start of model 'Wide')", 'which is a start edge, leaving from no vertex'],
  ])('refuses %s at a vertex of 17 out-edges, and takes the last of them', (_, answer, shown, why) => {
    const machine = onH();
    try {
      refuses(machine, answer, `The path generator 'scripted' of model 'Wide' answered ${shown} at v_h (h), ${why}: ${rule}`);
      script.push(id(0, 'l16'));
      expect(machine.next().id).toBe('l16');
    } finally {
      machine.dispose();
    }
  });

  it('refuses an edge the generator added to the open edges it was handed', () => {
    smuggled = 'yx';
    const pair: ModelFileJson = {
      models: [
        {
          id: 'P',
          generator: 'altering(never)',
          startElementId: 'start',
          vertices: [{ id: 'x', name: 'v_x' }, { id: 'y', name: 'v_y' }],
          edges: [{ id: 'start', targetVertexId: 'x' }, { id: 'xy', sourceVertexId: 'x', targetVertexId: 'y' }, { id: 'yx', sourceVertexId: 'y', targetVertexId: 'x' }],
        },
      ],
    };
    const machine = new Machine({ graph: new Graph(pair), registries, seed: 1 });
    try {
      expect([machine.next().id, machine.next().id]).toEqual(['start', 'x']);
      expect(() => machine.next()).toThrow(
        expect.objectContaining({
          code: ErrorCodes.GENERATOR_INVALID,
          message: `The path generator 'altering' of model 'P' answered 4 (yx of model 'P') at v_x (x), which is an edge leaving from v_y (y): ${rule}`,
        }),
      );
      expect(machine.stepOf(machine.current).id).toBe('x');
    } finally {
      machine.dispose();
    }
  });
});
