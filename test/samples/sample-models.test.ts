import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../core/errors.js';
import { Walker } from '../../core/walker.js';
import { loadModelFile, type LoadedModelFile } from '../../core/model/load.js';
import { builtinPlugins } from '../../plugins/index.js';

/** GraphWalker's own test models, copied unchanged into the fixtures (their provenance is in its README.md). */
const FOLDER = join(import.meta.dirname, '..', 'fixtures', 'models', 'graphwalker');
/**
 * DualPathModel asks for full edge coverage of a model whose two branches end in the same sink vertex: no walk
 * can take both branches. GraphWalker walks into the sink and fails there; walker refuses the goal at load.
 */
const REFUSED: Record<string, string> = {
  'DualPathModel.json':
    "Model 'DualPathModel', generator 'a_star(reached_vertex(v2)) random(edge_coverage(100))': edge_coverage(100) " +
    "can never be fulfilled: one walk covers at most 3 of the 5 edges of model 'DualPathModel', and 5 are needed " +
    '(guards ignored). No walk steps on both e1 and e2, since neither can be reached from the other; the best walk ' +
    'leaves out e2, e4',
};
const FILES = readdirSync(FOLDER).filter((f) => f.endsWith('.json') && !(f in REFUSED));
/** Steps after which a walk counts as hung. */
const STEP_LIMIT = 200_000;

let walker: Walker;
beforeAll(async () => {
  walker = await Walker.create(builtinPlugins());
});

function load(file: string): LoadedModelFile {
  return loadModelFile(readFileSync(join(FOLDER, file), 'utf8'), { source: file });
}

/** Walks a model with its own generators to the end; returns the steps and the walk. */
function walkToEnd(loaded: LoadedModelFile, seed: number) {
  const machine = walker.walk(loaded, { seed });
  const elements: number[] = [];
  while (machine.hasNext() && elements.length < STEP_LIMIT) elements.push(machine.next().element);
  return { machine, elements, path: elements.map((e) => loaded.graph.ids[e]) };
}

describe.each(FILES)('%s, walked with its own generator', (file) => {
  it('reaches its stop condition, with statistics that agree with the path', () => {
    const loaded = load(file);
    const { machine, elements } = walkToEnd(loaded, 2026);
    try {
      expect(machine.hasNext()).toBe(false);
      const stats = machine.statistics();
      expect(stats.totalNumberOfVisitedEdges + stats.totalNumberOfVisitedVertices).toBe(new Set(elements).size);
      expect(stats.totalNumberOfUnvisitedEdges).toBe(stats.edgesNotVisited.length);
      expect(stats.totalNumberOfUnvisitedVertices).toBe(stats.verticesNotVisited.length);
      expect(stats.totalNumberOfModels).toBe(loaded.graph.models.length);
      expect(stats.totalFailedNumberOfModels).toBe(0);
      const generators = loaded.graph.models.map((m) => m.generator ?? '');
      if (generators.every((g) => /edge_?coverage\(100\)\)$/i.test(g))) expect(stats.edgeCoverage).toBe(100);
      expect(loaded.graph.isVertex(machine.current) || /reached_edge/i.test(generators.join())).toBe(true);
    } finally {
      machine.dispose();
    }
  });

  it('walks the same path again from the same seed', () => {
    const loaded = load(file);
    const a = walkToEnd(loaded, 99);
    const b = walkToEnd(loaded, 99);
    a.machine.dispose();
    b.machine.dispose();
    expect(b.path).toEqual(a.path);
  });
});

describe('particular sample models', () => {
  it.each(Object.entries(REFUSED))('refuses %s at load, saying which elements no one walk can cover', (file, message) => {
    expect(() => walker.walk(load(file), { seed: 4 })).toThrow(
      expect.objectContaining({ code: ErrorCodes.UNREACHABLE_GOAL, message }),
    );
  });

  it('walks ModelWithPredefinedPath exactly along its predefinedPathEdgeIds', () => {
    const { machine, path } = walkToEnd(load('ModelWithPredefinedPath.json'), 1);
    machine.dispose();
    expect(path).toEqual(['n0', 'e0', 'n1', 'e3', 'n0', 'e1', 'n1', 'e3', 'n0', 'e2', 'n1']);
  });

  it('leaves out the blocked elements of graphWithBlockedElements', () => {
    const { graph } = load('graphWithBlockedElements.json');
    const ids = new Set(graph.ids);
    for (const blocked of ['e5', 'e6', 'e10']) expect(ids.has(blocked)).toBe(false);
  });

  it('covers 100 % of the UC01 edges and reports its requirements', () => {
    const { machine } = walkToEnd(load('UC01.json'), 5);
    const stats = machine.statistics();
    machine.dispose();
    expect(stats.edgeCoverage).toBe(100);
    expect(stats.totalNumberOfRequirement).toBeGreaterThan(0);
    expect(stats.totalNumberOfUncoveredRequirement).toBe(0);
  });

  it('walks petClinicWithSeed from the seed its file names', () => {
    const machine = walker.walk(load('peer/petClinicWithSeed.json'), {});
    const seed = machine.seed;
    machine.dispose();
    expect(seed).toBe(12345);
  });

  it('walks all five PetClinic models to completion through their shared states', () => {
    const { machine } = walkToEnd(load('PetClinic.json'), 8);
    const stats = machine.statistics();
    machine.dispose();
    expect(stats).toMatchObject({ totalNumberOfModels: 5, totalCompletedNumberOfModels: 5, edgeCoverage: 100 });
  });
});
