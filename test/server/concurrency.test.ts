import { describe, expect, it } from 'vitest';
import { startServer } from '../../server/start.js';
import { call, load, testApp } from './helpers.js';
import { ring } from './models.js';

const SEED = 4242;
const STEPS = 120;

/** The first `count` steps of the ring walk, taken one after the other. */
async function referencePath(count: number): Promise<string[]> {
  const app = await testApp({ seed: SEED });
  await load(app, ring(20, 'random(never)'));
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(String((await call(app, 'GET', '/walker/getNext')).body.currentElementID));
  return ids;
}

/** `n` counts the edges walked; each getNext result fixes what `n` must be right after it. */
function expectConsistent(data: string[], statistics: Array<Record<string, unknown>>): void {
  for (const d of data) expect(d).toMatch(/^(n=\d+)?$/);
  for (const s of statistics) {
    expect(s.result).toBe('ok');
    expect(Number(s.totalNumberOfVisitedEdges) + Number(s.totalNumberOfUnvisitedEdges)).toBe(21);
  }
}

describe('concurrent requests against one session', () => {
  it('serve every getNext exactly once, in some order, as a sequential walk would', async () => {
    const expected = await referencePath(STEPS);
    const app = await testApp({ seed: SEED });
    await load(app, ring(20, 'random(never)'));
    const steps = Array.from({ length: STEPS }, () => call(app, 'GET', '/walker/getNext'));
    const data = Array.from({ length: 40 }, () => call(app, 'GET', '/walker/getData'));
    const stats = Array.from({ length: 40 }, () => call(app, 'GET', '/walker/getStatistics'));
    const ids = (await Promise.all(steps)).map((r) => String(r.body.currentElementID));
    expect([...ids].sort()).toEqual([...expected].sort());
    expectConsistent(
      (await Promise.all(data)).map((r) => String(r.body.data)),
      (await Promise.all(stats)).map((r) => r.body),
    );
    const edges = expected.filter((id) => id.startsWith('e')).length;
    expect((await call(app, 'GET', '/walker/getData')).body.data).toBe(`n=${edges - 1}`);
  });

  it('make a request wait while the session is busy', async () => {
    const app = await testApp();
    await load(app, ring(5));
    const session = app.services.session;
    let release: () => void = () => {};
    const hold = session.run(() => new Promise<void>((resolve) => (release = resolve)));
    let answered = false;
    const pending = call(app, 'GET', '/walker/getNext').then((r) => ((answered = true), r));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(answered).toBe(false);
    release();
    await hold;
    expect((await pending).body).toMatchObject({ result: 'ok', currentElementID: 'e0' });
  });

  it('serve many HTTP connections at once without losing or repeating a step', async () => {
    const expected = await referencePath(STEPS);
    const app = await testApp({ seed: SEED });
    const server = await startServer(app, { port: 0, signals: [] });
    try {
      await fetch(`${server.url}/walker/load`, { method: 'POST', body: JSON.stringify(ring(20, 'random(never)')) });
      const get = async (path: string) => (await (await fetch(`${server.url}${path}`)).json()) as Record<string, unknown>;
      const steps = Array.from({ length: STEPS }, () => get('/walker/getNext'));
      const others = Array.from({ length: 30 }, (_, i) => get(i % 2 === 0 ? '/walker/getData' : '/walker/hasNext'));
      const ids = (await Promise.all(steps)).map((r) => String(r.currentElementID));
      expect([...ids].sort()).toEqual([...expected].sort());
      for (const r of await Promise.all(others)) expect(r.result).toBe('ok');
    } finally {
      await server.close();
    }
  });
});
