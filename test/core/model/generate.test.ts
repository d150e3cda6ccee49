import { describe, expect, it } from 'vitest';
import { collectModelIssues, generateModel, Graph } from '../../../core/model/index.js';

/** True when every vertex reaches every other vertex (forward and backward search from vertex 0). */
function stronglyConnected(graph: Graph): boolean {
  const reachesAll = (next: (vertex: number) => Iterable<number>) => {
    const seen = new Uint8Array(graph.vertexCount);
    const stack = [0];
    seen[0] = 1;
    let count = 1;
    while (stack.length) {
      for (const other of next(stack.pop()!)) {
        if (other >= 0 && !seen[other]) {
          seen[other] = 1;
          count++;
          stack.push(other);
        }
      }
    }
    return count === graph.vertexCount;
  };
  const forward = (v: number) => Array.from(graph.outEdgesOf(v), (edge) => graph.target[edge]);
  const backward = (v: number) => Array.from(graph.inEdgesOf(v), (edge) => graph.source[edge]);
  return reachesAll(forward) && reachesAll(backward);
}

describe('generateModel', () => {
  it('makes a valid, strongly connected model with the requested counts', () => {
    const file = generateModel({ vertices: 200, edges: 700, seed: 3 });
    const { issues } = collectModelIssues(file);
    expect(issues).toEqual([]);
    const graph = new Graph(file);
    expect([graph.vertexCount, graph.edgeCount]).toEqual([200, 700]);
    expect(stronglyConnected(graph)).toBe(true);
    expect(file.models[0].startElementId).toBe('e0');
    expect(file.models[0].edges[0]).toStrictEqual({ id: 'e0', name: 'e_0', targetVertexId: 'v0' });
  });

  it('is deterministic per seed', () => {
    const options = { vertices: 50, edges: 200, seed: 12345 };
    expect(generateModel(options)).toStrictEqual(generateModel(options));
    expect(generateModel(options)).not.toStrictEqual(generateModel({ ...options, seed: 12346 }));
  });

  it('adds guards that always hold and actions, with a model action that defines x', () => {
    const model = generateModel({ vertices: 3, edges: 6, seed: 1, guards: true, actions: true }).models[0];
    expect(model.actions).toEqual(['x = 0;']);
    expect(model.edges.every((edge) => edge.guard === 'x >= 0' && edge.actions?.[0] === 'x = x + 1;')).toBe(true);
    expect(model.vertices.every((vertex) => vertex.actions?.[0] === 'x = x + 1;')).toBe(true);
    const guarded = generateModel({ vertices: 3, edges: 6, seed: 1, guards: true }).models[0];
    expect(guarded.actions).toEqual(['x = 0;']);
    expect(guarded.vertices[0]).not.toHaveProperty('actions');
  });

  it('handles a single vertex with a self-loop ring', () => {
    const graph = new Graph(generateModel({ vertices: 1, edges: 2, seed: 0 }));
    expect(Array.from(graph.outEdgesOf(0), (edge) => graph.target[edge])).toEqual([0]);
  });

  it('rejects counts that cannot make a connected model', () => {
    expect(() => generateModel({ vertices: 0, edges: 5, seed: 1 })).toThrow(RangeError);
    expect(() => generateModel({ vertices: 10, edges: 10, seed: 1 })).toThrow(
      "generateModel: 'edges' must be a whole number of at least vertices + 1 (11)",
    );
  });
});
