import { Graph } from '../../../core/model/graph.js';
import type { ModelJson } from '../../../core/model/types.js';

/** Model indices of {@link shopGraph}. */
export const LOGIN = 0;
export const SHOP = 1;
export const EMPTY = 2;

/**
 * Three models. `Login` (4 vertices, 6 edges) has an island `n3`/`e5` that cannot be reached from the start
 * edge `e0`; requirements R1 (on two elements) and R2 on reachable elements and R3 on both island elements;
 * edge dependencies 100/90/50/85; and a predefined path. Its `v_Cart` shares the state `CART` with the unnamed model `m_shop`.
 * `Empty` has no elements at all.
 */
export function shopGraph(): Graph {
  const login: ModelJson = {
    id: 'm_login',
    name: 'Login',
    startElementId: 'e0',
    predefinedPathEdgeIds: ['e0', 'e1', 'e2'],
    vertices: [
      { id: 'n0', name: 'v_Start' },
      { id: 'n1', name: 'v_Browse', requirements: ['R1'] },
      { id: 'n2', name: 'v_Cart', sharedState: 'CART' },
      { id: 'n3', name: 'v_Island', requirements: ['R3'] },
    ],
    edges: [
      { id: 'e0', name: 'e_init', targetVertexId: 'n0' },
      { id: 'e1', name: 'e_browse', sourceVertexId: 'n0', targetVertexId: 'n1', dependency: 100 },
      { id: 'e2', name: 'e_back', sourceVertexId: 'n1', targetVertexId: 'n0' },
      { id: 'e3', name: 'e_cart', sourceVertexId: 'n1', targetVertexId: 'n2', dependency: 90, requirements: ['R2'] },
      { id: 'e4', name: 'e_home', sourceVertexId: 'n2', targetVertexId: 'n0', dependency: 50, requirements: ['R1'] },
      { id: 'e5', name: 'e_island', sourceVertexId: 'n3', targetVertexId: 'n0', dependency: 85, requirements: ['R3'] },
    ],
  };
  const shop: ModelJson = {
    id: 'm_shop',
    vertices: [
      { id: 's0', name: 's_Cart', sharedState: 'CART' },
      { id: 's1', name: 's_Pay' },
    ],
    edges: [
      { id: 's2', name: 's_pay', sourceVertexId: 's0', targetVertexId: 's1' },
      { id: 's3', name: 's_back', sourceVertexId: 's1', targetVertexId: 's0' },
    ],
  };
  const empty: ModelJson = { id: 'm_empty', name: 'Empty', vertices: [], edges: [] };
  return new Graph({ models: [login, shop, empty] });
}

/** One model `Star` with a hub and `count` spokes `x1..xN` (vertices) reached by edges `y1..yN`. */
export function starGraph(count: number): Graph {
  const spokes = Array.from({ length: count }, (_, i) => i + 1);
  return new Graph({
    models: [
      {
        id: 'm_star',
        name: 'Star',
        startElementId: 'hub',
        vertices: [{ id: 'hub', name: 'v_Hub' }, ...spokes.map((i) => ({ id: `x${i}`, name: `v_${i}` }))],
        edges: spokes.map((i) => ({ id: `y${i}`, name: `e_${i}`, sourceVertexId: 'hub', targetVertexId: `x${i}` })),
      },
    ],
  });
}
