import { Graph } from '../../../core/model/graph.js';
import type { ModelFileJson, ModelJson } from '../../../core/model/types.js';

/** A start edge into A, then A -ab-> B, B -ba-> A, B -bc-> C (a dead end). */
export function lineModel(generator: string, extra: Partial<ModelJson> = {}): ModelJson {
  return {
    id: 'line',
    name: 'Line',
    generator,
    startElementId: 'e0',
    vertices: [
      { id: 'A', name: 'v_A' },
      { id: 'B', name: 'v_B' },
      { id: 'C', name: 'v_C' },
    ],
    edges: [
      { id: 'e0', name: 'e_start', targetVertexId: 'A' },
      { id: 'ab', name: 'e_ab', sourceVertexId: 'A', targetVertexId: 'B' },
      { id: 'ba', name: 'e_ba', sourceVertexId: 'B', targetVertexId: 'A' },
      { id: 'bc', name: 'e_bc', sourceVertexId: 'B', targetVertexId: 'C' },
    ],
    ...extra,
  };
}

/** A ring A -> B -> C -> A with a start vertex A and a chord A -> C. */
export function ringModel(generator: string, extra: Partial<ModelJson> = {}): ModelJson {
  return {
    id: 'ring',
    name: 'Ring',
    generator,
    startElementId: 'A',
    vertices: [
      { id: 'A', name: 'v_A' },
      { id: 'B', name: 'v_B' },
      { id: 'C', name: 'v_C' },
    ],
    edges: [
      { id: 'ab', name: 'e_ab', sourceVertexId: 'A', targetVertexId: 'B' },
      { id: 'bc', name: 'e_bc', sourceVertexId: 'B', targetVertexId: 'C' },
      { id: 'ca', name: 'e_ca', sourceVertexId: 'C', targetVertexId: 'A' },
      { id: 'ac', name: 'e_ac', sourceVertexId: 'A', targetVertexId: 'C' },
    ],
    ...extra,
  };
}

/**
 * Two models joined by the shared state HUB: `left` starts at L0 and reaches its hub vertex; `right` has no
 * start element and is entered only through the hub.
 */
export function sharedModels(leftGenerator: string, rightGenerator: string): ModelFileJson {
  return {
    models: [
      {
        id: 'left',
        name: 'Left',
        generator: leftGenerator,
        startElementId: 'L0',
        vertices: [
          { id: 'L0', name: 'v_L0' },
          { id: 'LH', name: 'v_LeftHub', sharedState: 'HUB' },
        ],
        edges: [
          { id: 'l1', name: 'e_l1', sourceVertexId: 'L0', targetVertexId: 'LH' },
          { id: 'l2', name: 'e_l2', sourceVertexId: 'LH', targetVertexId: 'L0' },
        ],
      },
      {
        id: 'right',
        name: 'Right',
        generator: rightGenerator,
        vertices: [
          { id: 'RH', name: 'v_RightHub', sharedState: 'HUB' },
          { id: 'R1', name: 'v_R1' },
        ],
        edges: [
          { id: 'r1', name: 'e_r1', sourceVertexId: 'RH', targetVertexId: 'R1' },
          { id: 'r2', name: 'e_r2', sourceVertexId: 'R1', targetVertexId: 'RH' },
        ],
      },
    ],
  };
}

/** A graph of one or more models. */
export function graphOf(...models: ModelJson[]): Graph {
  return new Graph({ models });
}
