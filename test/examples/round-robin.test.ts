import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { PathGeneratorName } from '../../core/index.js';
import { loadPlugin } from '../../core/plugin-loader.js';
import { Walker } from '../../core/walker.js';
import roundRobinPlugin, { roundRobinGenerator } from '../../examples/plugins/round-robin/index.js';
import { builtinPlugins } from '../../plugins/index.js';
import { ensureBuilt, http, ROOT, startService, walkOverHttp } from '../cli/online-helpers.js';
import { call, load, testApp, walkToEnd } from '../server/helpers.js';
import { loop } from '../server/models.js';

const GENERATOR = 'round_robin(edge_coverage(100))';
/** At v_Home the guarded e_finish opens on the second visit; round_robin takes it then, being never taken. */
const EXPECTED = ['e0', 'v0', 'e1', 'v1', 'e2', 'v0', 'e1', 'v1', 'e3', 'v2', 'e4', 'v0'];

describe('the example plugin package examples/plugins/round-robin', () => {
  it('adds round_robin to the generator names by declaration merging', () => {
    expectTypeOf<'round_robin'>().toExtend<PathGeneratorName>();
    expectTypeOf(roundRobinGenerator.name).toEqualTypeOf<PathGeneratorName>();
  });

  it('is loaded by path from the repository root, as --plugin loads it', async () => {
    const plugin = await loadPlugin('./examples/plugins/round-robin', ROOT);
    expect(plugin.meta).toEqual({ name: 'walker-plugin-round-robin', version: '1.0.0' });
  });

  it('walks a model through the service, deterministically, to full edge coverage', async () => {
    const app = await testApp({ plugins: [await loadPlugin('./examples/plugins/round-robin', ROOT)] });
    await load(app, loop(GENERATOR));
    expect(await walkToEnd(app)).toEqual(EXPECTED);
    expect((await call(app, 'GET', '/walker/getStatistics')).body).toMatchObject({ edgeCoverage: 100 });
  });

  it('answers to its aliases, case-insensitively', async () => {
    const app = await testApp({ plugins: [roundRobinPlugin()] });
    await load(app, loop('RoundRobinPath(edge_coverage(100))'));
    expect(await walkToEnd(app)).toEqual(EXPECTED);
  });

  it('works with the library API', async () => {
    const walker = await Walker.create([...builtinPlugins(), roundRobinPlugin()]);
    const walk = await walker.open({ model: loop(), generator: GENERATOR });
    try {
      expect([...walk].map((step) => step.id)).toEqual(EXPECTED);
    } finally {
      walk.dispose();
    }
  });
});

describe('walker online --plugin ./examples/plugins/round-robin', () => {
  let model: string;

  beforeAll(() => {
    ensureBuilt();
    model = join(mkdtempSync(join(tmpdir(), 'walker-example-')), 'loop.json');
    writeFileSync(model, JSON.stringify(loop()));
  }, 120_000);

  it('starts the service with the plugin and walks a model with its generator', async () => {
    const service = await startService(['-s', 'RESTFUL', '-p', '0', '--plugin', './examples/plugins/round-robin', '-m', model, GENERATOR]);
    try {
      expect(await walkOverHttp(service.url)).toEqual(EXPECTED);
      expect(await http(service.url, 'GET', '/walker/getStatistics')).toMatchObject({ result: 'ok', edgeCoverage: 100 });
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });
});
