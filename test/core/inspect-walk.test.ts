import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkModelFiles } from '../../core/check.js';
import { ErrorCodes, ScriptError, WalkerError } from '../../core/errors.js';
import { inspectWalk } from '../../core/inspect-walk.js';
import { loadModelFile } from '../../core/model/load.js';
import { Walker } from '../../core/walker.js';
import { testRegistries } from '../support/walkers.js';

/** Two models joined by the shared state S: `first` starts the walk, `second` is entered through S. */
function twoModels(changes: { first?: object; second?: object; guard?: string } = {}): unknown {
  return {
    models: [
      {
        id: 'first',
        name: 'First',
        generator: 'first(edge_coverage(100))',
        startElementId: 'go',
        vertices: [{ id: 'a', name: 'v_A', sharedState: 'S' }],
        edges: [{ id: 'go', name: 'e_Go', targetVertexId: 'a' }],
        ...changes.first,
      },
      {
        id: 'second',
        name: 'Second',
        generator: 'first(edge_coverage(100))',
        vertices: [
          { id: 'b', name: 'v_B', sharedState: 'S' },
          { id: 'c', name: 'v_C' },
        ],
        edges: [
          { id: 'bc', name: 'e_BC', sourceVertexId: 'b', targetVertexId: 'c', ...(changes.guard === undefined ? {} : { guard: changes.guard }) },
          { id: 'cb', name: 'e_CB', sourceVertexId: 'c', targetVertexId: 'b' },
        ],
        ...changes.second,
      },
    ],
  };
}

describe('inspectWalk', () => {
  it("names the model of a refusal as data, also for a plugin's condition that knows the model by index only", async () => {
    const walker = new Walker(await testRegistries());
    const loaded = loadModelFile(twoModels());
    const generators = [undefined, 'first(reached_vertex(v_Nowhere))'];
    const { refusal, walk, issues } = inspectWalk(walker, loaded, { seed: 0, generators });
    expect(refusal).toBeInstanceOf(WalkerError);
    expect([refusal?.code, refusal?.modelId, walk, issues]).toEqual([ErrorCodes.GENERATOR_INVALID, 'second', undefined, []]);
    // The message does not start with the model, so only the data can tell it.
    expect(refusal?.message).not.toMatch(/^Model 'Second'/);

    const syntax = inspectWalk(walker, loaded, { seed: 0, generators: [undefined, 'first(edge_coverage(100)'] });
    expect([syntax.refusal?.code, syntax.refusal?.modelId]).toEqual([ErrorCodes.GENERATOR_SYNTAX, 'second']);
  });

  it("names the model and element of a model action's or guard's failure", async () => {
    const walker = new Walker(await testRegistries());
    const loaded = loadModelFile(twoModels({ second: { actions: ['throw new Error("no")'] } }));
    const { refusal } = inspectWalk(walker, loaded, { seed: 0 });
    expect(refusal).toBeInstanceOf(ScriptError);
    expect([refusal?.modelId, refusal?.elementId]).toEqual(['second', undefined]);
  });

  it('lints before it opens: a script that does not parse is an issue naming its element, and the walk stays closed', async () => {
    const walker = new Walker(await testRegistries());
    const loaded = loadModelFile(twoModels({ guard: 'x ==' }));
    const linted = inspectWalk(walker, loaded, { seed: 0 }, { lint: true, keep: true });
    expect(linted.issues.map((i) => [i.severity, i.code, i.modelId, i.elementId])).toEqual([['error', 'script_syntax', 'second', 'bc']]);
    expect([linted.refusal, linted.walk]).toEqual([undefined, undefined]);
    // Without lint, the opening refuses the same script, as a load answers it.
    const opened = inspectWalk(walker, loaded, { seed: 0 }, { keep: true });
    expect([opened.refusal?.code, opened.refusal?.modelId, opened.refusal?.elementId]).toEqual([ErrorCodes.MODEL_INVALID, 'second', 'bc']);
  });

  it('hands the open walk back only when asked to keep it, and opens none when told only to look', async () => {
    const walker = new Walker(await testRegistries());
    const loaded = loadModelFile(twoModels());
    const kept = inspectWalk(walker, loaded, { seed: 0 }, { keep: true });
    expect(kept.refusal).toBeUndefined();
    const walk = kept.walk;
    expect(walk?.next().id).toBe('go');
    walk?.dispose();
    expect(inspectWalk(walker, loaded, { seed: 0 })).toEqual({ issues: [] });
    expect(inspectWalk(walker, loaded, { seed: 0, generators: ['nowhere(never)'] }, { open: false })).toEqual({ issues: [] });
  });
});

describe('walker check', () => {
  it("puts a refusal under the file of the model it concerns, known from the error's data", async () => {
    const walker = new Walker(await testRegistries());
    const [first, second] = (twoModels() as { models: object[] }).models;
    const folder = mkdtempSync(join(tmpdir(), 'walker-inspect-'));
    const files = ['first.json', 'second.json'].map((name) => join(folder, name));
    writeFileSync(files[0], JSON.stringify({ models: [first] }));
    writeFileSync(files[1], JSON.stringify({ models: [second] }));
    const findings = await checkModelFiles(walker, [
      { file: files[0], generator: 'first(edge_coverage(100))' },
      { file: files[1], generator: 'first(reached_vertex(v_Nowhere))' },
    ]);
    expect(findings.map((f) => [f.file, f.severity, f.code])).toEqual([[files[1], 'error', ErrorCodes.GENERATOR_INVALID]]);
  });
});
