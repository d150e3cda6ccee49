import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModelFile } from '../../../core/model/load.js';
import type { ModelFileJson } from '../../../core/model/types.js';
import { scriptEngineOf } from '../../../core/plugin.js';
import type { ScriptEngine } from '../../../core/scripting.js';
import { Walker } from '../../../core/walker.js';
import { builtinPlugins } from '../../../plugins/index.js';
import { objectEngine } from '../../support/object-engine.js';

/**
 * Planning asks the script engine for what only the engine knows (docs/plugins.md, "Script engines"): another
 * engine than QuickJS plans through the same contract, and the host stepper is the engine's to offer.
 */

const lockout = (): ModelFileJson =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/models/guarded/lockout.json'), 'utf8')) as ModelFileJson;
const SEEDS = [1, 2, 3, 4, 5];
/** The optimum of lockout.json's edge coverage, which the oracle finds (test/core/planning/walks.test.ts). */
const OPTIMUM = 19;

let walker: Walker;
/** How often planning asked QuickJS, behind a second name, for its host stepper. */
let asked = 0;

beforeAll(async () => {
  const counted = (engine: ScriptEngine): ScriptEngine => ({
    name: 'counted-quickjs',
    createSandbox: (options) => engine.createSandbox(options),
    checkSyntax: (source, kind) => engine.checkSyntax(source, kind),
    actionScripts: (actions) => engine.actionScripts?.(actions) ?? actions,
    hostStepper: (graph) => {
      asked++;
      return engine.hostStepper?.(graph);
    },
  });
  walker = await Walker.create([
    ...builtinPlugins(),
    {
      meta: { name: 'test-engines', version: '1.0.0' },
      setup(registries) {
        registries.scriptEngines.register(objectEngine());
        registries.scriptEngines.register(counted(scriptEngineOf(registries)));
      },
    },
  ]);
});

afterAll(() => walker?.dispose());

function walk(scriptEngine: string, seed: number): string[] {
  const machine = walker.walk(loadModelFile(lockout()), { generator: 'shortest_all_paths(edge_coverage(100))', seed, scriptEngine });
  try {
    const path: string[] = [];
    while (machine.hasNext() && path.length < 1000) path.push(machine.next().id);
    expect(machine.statistics().edgeCoverage).toBe(100);
    return path;
  } finally {
    machine.dispose();
  }
}

describe('planning with another script engine', () => {
  it('plans the walk of an engine without a host stepper in its sandbox, to the same optimum as QuickJS', () => {
    for (const seed of SEEDS) {
      const path = walk('objects', seed);
      expect(path, `seed ${seed}`).toHaveLength(OPTIMUM);
      expect(path, `seed ${seed}`).toEqual(walk('quickjs', seed));
    }
  });

  it("asks the engine for its host stepper, and plans QuickJS's plain scripts with it", () => {
    asked = 0;
    for (const seed of SEEDS) expect(walk('counted-quickjs', seed), `seed ${seed}`).toHaveLength(OPTIMUM);
    expect(asked).toBeGreaterThan(0);
  });
});
