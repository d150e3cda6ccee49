import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readModelFile } from '../../../core/model/index.js';

/** GraphWalker's own test models, copied unchanged into the fixtures (their provenance is in its README.md). */
const samples = fileURLToPath(new URL('../../fixtures/models/graphwalker/', import.meta.url));
const sampleFiles = readdirSync(samples).filter((name) => name.endsWith('.json'));

describe("GraphWalker's sample models", () => {
  it('are all there', () => {
    expect(sampleFiles.length).toBeGreaterThanOrEqual(14);
  });

  it.each(sampleFiles)('%s loads', async (name) => {
    const { file, graph } = await readModelFile(`${samples}${name}`);
    expect(graph.models.length).toBe(file.models.length);
    expect(graph.models.some((model) => model.startElement >= 0)).toBe(true);
  });

  it('SuperLarge has 787 vertices and 1550 edges', async () => {
    const { graph, warnings } = await readModelFile(`${samples}SuperLarge.json`);
    expect([graph.vertexCount, graph.edgeCount]).toEqual([787, 1550]);
    expect(warnings).toEqual([]);
  });

  it('petClinic has 5 models joined by shared states, one with a start element', async () => {
    const { file, graph, warnings } = await readModelFile(`${samples}petClinic.json`);
    expect(file.models).toHaveLength(5);
    expect(graph.models.filter((model) => model.startElement >= 0).map((model) => model.id)).toEqual([
      '3f6b365f-7011-4db6-b0cc-e19aa453d9b8',
    ]);
    expect(warnings).toEqual([]);
  });

  it('graphWithBlockedElements loses v5, e5, e6 and e10, unless blocked is off', async () => {
    const path = `${samples}graphWithBlockedElements.json`;
    const ids = (file: { models: { vertices: { id: string }[]; edges: { id: string }[] }[] }) =>
      [...file.models[0].vertices, ...file.models[0].edges].map((element) => element.id);
    const all = ids((await readModelFile(path, { blocked: false })).file);
    const kept = ids((await readModelFile(path)).file);
    expect(all.filter((id) => !kept.includes(id))).toEqual(['v5', 'e5', 'e6', 'e10']);
  });

  it('DependencyModel reads dependencies written as strings', async () => {
    const { file } = await readModelFile(`${samples}DependencyModel.json`);
    expect(file.models[0].edges.map((edge) => edge.dependency)).toEqual([100, 100, 85, 15]);
  });

  it('Selftest reads properties: [] and sourceVertexId: null', async () => {
    const { file } = await readModelFile(`${samples}Selftest.json`);
    const start = file.models[0].edges.find((edge) => edge.id === file.models[0].startElementId);
    expect(start).toBeDefined();
    expect(start).not.toHaveProperty('sourceVertexId');
    expect(start!.properties).toEqual({});
  });

  it('Login warns about its unnamed, unreachable Start vertex', async () => {
    // It names its start element, so the vertex stays (GraphWalker's check reports its missing name too).
    const { warnings } = await readModelFile(`${samples}Login.json`);
    expect(warnings.map((w) => [w.code, w.elementId])).toEqual([
      ['unnamed_vertex', 'Start'],
      ['unreachable_element', 'Start'],
    ]);
  });

  it('DualPathModel loads despite its licence comment', async () => {
    const { file } = await readModelFile(`${samples}DualPathModel.json`);
    expect(file.models[0].name).toBe('DualPathModel');
  });

  it('ModelWithPredefinedPath keeps its path', async () => {
    const { graph } = await readModelFile(`${samples}ModelWithPredefinedPath.json`);
    expect(graph.models[0].predefinedPath.map((edge) => graph.ids[edge])).toEqual(['e0', 'e3', 'e1', 'e3', 'e2']);
  });
});

/** Models that GraphWalker's own tests refuse, or read for one field; kept apart so the loop above skips them. */
describe("GraphWalker's special-purpose models", () => {
  const peer = `${samples}peer/`;

  it('NonModel is refused: it has no models array', async () => {
    await expect(readModelFile(`${peer}NonModel.json`)).rejects.toThrow("it has no 'models' array");
  });

  it('a predefined path that names an unknown edge is refused, naming the edge', async () => {
    await expect(readModelFile(`${peer}ModelWithPredefinedPath_unknown_edge.json`)).rejects.toThrow(
      "field 'predefinedPathEdgeIds[5]': names no edge of this model ('e4')",
    );
  });

  it('petClinicWithSeed keeps its top-level seed', async () => {
    const { file } = await readModelFile(`${peer}petClinicWithSeed.json`);
    expect(file.seed).toBe(12345);
  });
});
