import type { ModelFileJson } from '../../core/model/types.js';

/**
 * Models of the server tests, of our own making. `loop` has a guard and actions, so getData, setData and
 * restart have something to show; `deadEnd` strands the walk; `ring` is as large as asked.
 */

/** v_Start -e_go-> v_Home -e_finish [count >= 2]-> v_Done, with ways back; `count` counts e_go. */
export function loop(generator = 'random(edge_coverage(100))', seed?: number): ModelFileJson {
  return {
    name: 'Loop',
    ...(seed === undefined ? {} : { seed }),
    models: [
      {
        id: 'loop',
        name: 'Loop',
        generator,
        startElementId: 'e0',
        vertices: [
          { id: 'v0', name: 'v_Start' },
          { id: 'v1', name: 'v_Home' },
          { id: 'v2', name: 'v_Done' },
        ],
        edges: [
          { id: 'e0', name: 'e_init', targetVertexId: 'v0', actions: ['count = 0;'] },
          { id: 'e1', name: 'e_go', sourceVertexId: 'v0', targetVertexId: 'v1', actions: ['count++;'] },
          { id: 'e2', name: 'e_back', sourceVertexId: 'v1', targetVertexId: 'v0' },
          { id: 'e3', name: 'e_finish', sourceVertexId: 'v1', targetVertexId: 'v2', guard: 'count >= 2' },
          { id: 'e4', sourceVertexId: 'v2', targetVertexId: 'v0' },
        ],
      },
    ],
  };
}

/** The walk reaches v_End, which has no way out. */
export function deadEnd(): ModelFileJson {
  return {
    models: [
      {
        id: 'dead',
        name: 'Dead',
        generator: 'random(length(10))',
        startElementId: 'e0',
        vertices: [
          { id: 'v0', name: 'v_Start' },
          { id: 'v1', name: 'v_End' },
        ],
        edges: [
          { id: 'e0', name: 'e_init', targetVertexId: 'v0' },
          { id: 'e1', name: 'e_end', sourceVertexId: 'v0', targetVertexId: 'v1' },
        ],
      },
    ],
  };
}

/** The same loop without a generator. */
export function withoutGenerator(): ModelFileJson {
  const file = loop();
  const { generator: _omitted, ...model } = file.models[0];
  return { ...file, models: [model] };
}

/** A large ring (for load-time and concurrency tests): v0 -> v1 -> ... -> v0, plus a start edge. */
export function ring(size: number, generator = 'random(edge_coverage(100))'): ModelFileJson {
  const vertices = Array.from({ length: size }, (_, i) => ({ id: `v${i}`, name: `v_${i}` }));
  const edges = [
    { id: 'e0', name: 'e_init', targetVertexId: 'v0', actions: ['n = 0;'] },
    ...vertices.map((v, i) => ({
      id: `e${i + 1}`,
      name: `e_${i + 1}`,
      sourceVertexId: v.id,
      targetVertexId: `v${(i + 1) % size}`,
      actions: ['n++;'],
    })),
  ];
  return { models: [{ id: 'ring', name: 'Ring', generator, startElementId: 'e0', vertices, edges }] };
}

/** A two-vertex walk that never ends: what another client walks while a heavy request runs (other-clients.ts). */
export function pingPong(id: string, extra: Partial<ModelFileJson['models'][number]> = {}): ModelFileJson {
  return {
    models: [
      {
        id,
        name: id,
        generator: 'random(never)',
        startElementId: 'e0',
        vertices: [
          { id: 'a', name: 'v_A' },
          { id: 'b', name: 'v_B' },
        ],
        edges: [
          { id: 'e0', name: 'e_start', targetVertexId: 'a' },
          { id: 'e1', name: 'e_ab', sourceVertexId: 'a', targetVertexId: 'b' },
          { id: 'e2', name: 'e_ba', sourceVertexId: 'b', targetVertexId: 'a' },
        ],
        ...extra,
      },
    ],
  };
}

/**
 * A walk of three vertices that never ends, with a choice at v_A, so that its seed fixes the path: two
 * sessions of one seed walk alike. `n` starts at 0; `extra` adds to the model (its actions, say).
 */
export function triangle(seed: number, extra: Partial<ModelFileJson['models'][number]> = {}): ModelFileJson {
  return {
    seed,
    models: [
      {
        id: 'm',
        name: 'Triangle',
        generator: 'random(never)',
        startElementId: 'e0',
        vertices: [
          { id: 'a', name: 'v_A' },
          { id: 'b', name: 'v_B' },
          { id: 'c', name: 'v_C' },
        ],
        edges: [
          { id: 'e0', name: 'e_start', targetVertexId: 'a', actions: ['n = 0;'] },
          { id: 'e1', name: 'e_ab', sourceVertexId: 'a', targetVertexId: 'b' },
          { id: 'e2', name: 'e_ac', sourceVertexId: 'a', targetVertexId: 'c' },
          { id: 'e3', name: 'e_ba', sourceVertexId: 'b', targetVertexId: 'a' },
          { id: 'e4', name: 'e_ca', sourceVertexId: 'c', targetVertexId: 'a' },
        ],
        ...extra,
      },
    ],
  };
}
