import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, http, ROOT, runWalker, startService, type Service } from './online-helpers.js';

/**
 * Who writes the variables (docs/planning.md): the data round trip of AltWalker's documentation, on the real
 * process. Online a test step may set data that a guard reads, so a goal only guards close is served with a
 * `goal_needs_data` warning on both dialects, and the walk ends once the client has set the data, or at the
 * usual dead end when it never does; offline nothing but the model writes, and the walk is refused.
 */

const FILE = 'test/fixtures/models/guarded/client-data.json';
const MODEL = readFileSync(join(ROOT, FILE), 'utf8');
const COVER = 'random(edge_coverage(100))';

let service: Service;

beforeAll(async () => {
  ensureBuilt();
  service = await startService(['-s', 'RESTFUL', '--port', '0']);
}, 120_000);

afterAll(async () => {
  await service?.stop();
});

/** getNext until hasNext says false, or until the walk answers nok; the element names and that answer. */
async function walk(prefix: string, setDataAt: string | undefined): Promise<{ names: string[]; refusal?: unknown; hasNext: unknown }> {
  const names: string[] = [];
  for (let i = 0; i < 50; i++) {
    const more = await http(service.url, 'GET', `${prefix}/hasNext`);
    if (more.hasNext !== 'true') return { names, hasNext: more.hasNext };
    const next = await http(service.url, 'GET', `${prefix}/getNext`);
    if (next.result !== 'ok') return { names, refusal: next, hasNext: (await http(service.url, 'GET', `${prefix}/hasNext`)).hasNext };
    names.push(String(next.currentElementName));
    if (next.currentElementName === setDataAt) {
      expect(await http(service.url, 'PUT', `${prefix}/setData/${encodeURIComponent("unlocked='yes'")}`)).toEqual({ result: 'ok' });
    }
  }
  throw new Error(`${prefix}: the walk did not end within 50 steps: ${names.join(' ')}`);
}

describe.each(['/walker', '/graphwalker'])('%s, a guard only the client can open', (prefix) => {
  it('loads ok; after the client sets the data at v_Door, the walk covers every edge and ends', async () => {
    const loaded = await http(service.url, 'POST', `${prefix}/load?generator=${encodeURIComponent(COVER)}`, MODEL);
    if (prefix === '/walker') {
      const warnings = loaded.warnings as Array<{ code: string; message: string }>;
      expect(loaded).toMatchObject({ result: 'ok', seed: expect.any(Number) });
      const goal = warnings.find((w) => w.code === 'goal_needs_data');
      // The edge, its guard and the variable that would open it.
      expect(goal?.message).toMatch(/edge_coverage\(100\) can never be fulfilled.*e_Guarded \(guard "unlocked == 'yes'"; at v_Door the variables are only unlocked=no\).*This holds unless a client sets data: a client may write unlocked/);
    } else {
      // GraphWalker's body: no warnings member.
      expect(loaded).toEqual({ result: 'ok', seed: expect.any(Number) });
    }
    const walked = await walk(prefix, 'v_Door');
    expect(walked).toEqual({ names: ['v_Start', 'e_ToDoor', 'v_Door', 'e_Guarded', 'v_Inside', 'e_Leave', 'v_Start'], hasNext: 'false' });
    const statistics = await http(service.url, 'GET', `${prefix}/getStatistics`);
    expect(statistics.edgeCoverage).toBe(100);
  });

  it('without the data, the walk ends at v_Door in the usual dead-end error, not forever', async () => {
    await http(service.url, 'POST', `${prefix}/load?generator=${encodeURIComponent(COVER)}`, MODEL);
    const walked = await walk(prefix, undefined);
    expect(walked).toEqual({
      names: ['v_Start', 'e_ToDoor', 'v_Door'],
      refusal: { result: 'nok', error: 'Could not find a valid path from element: v_Door (v_Door)' },
      hasNext: 'false',
    });
  });
});

describe('walker check and walker offline on a guard only the client can open', () => {
  it('check grades it a warning that holds unless a client sets data; exit 0', async () => {
    const { code, stdout } = await runWalker(['check', '-m', FILE, COVER]);
    const lines = stdout.split('\n').filter((line) => line !== '');
    expect({ code, first: lines[0] }).toEqual({
      code: 0,
      first: expect.stringMatching(
        new RegExp(`^${FILE}: warning: Model 'Door', generator '${COVER.replace(/[()]/g, '\\$&')}': edge_coverage\\(100\\) can never be fulfilled: .* This holds unless a client sets data: a client may write unlocked \\(setData\\)`),
      ),
    });
  });

  it('offline, where only the model writes, refuses the walk before the first step, naming the guard; exit 2', async () => {
    const { code, stdout, stderr } = await runWalker(['offline', '-m', FILE, COVER, '--seed', '1']);
    expect({ code, stdout, guard: stderr.includes('e_Guarded (guard "unlocked == \'yes\'"'), warned: stderr.includes('unless a client') }).toEqual({
      code: 2,
      stdout: '',
      guard: true,
      warned: false,
    });
  });
});
