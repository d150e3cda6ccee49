import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/online-helpers.js';
import { call, load, testApp, walkToEnd } from '../server/helpers.js';

const FOLDER = join(ROOT, 'examples', 'models');
const MODELS = readdirSync(FOLDER).filter((name) => name.endsWith('.json'));

describe('the example models (examples/models, used by `npm start` and the docs)', () => {
  it.each(MODELS)('%s loads and walks to full edge coverage with its own generator', async (name) => {
    const app = await testApp();
    expect((await load(app, readFileSync(join(FOLDER, name), 'utf8'))).body.result).toBe('ok');
    expect((await walkToEnd(app)).length).toBeGreaterThan(0);
    expect((await call(app, 'GET', '/walker/getStatistics')).body).toMatchObject({ edgeCoverage: 100 });
  });
});
