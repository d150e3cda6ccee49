import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loop } from '../server/models.js';
import { ensureBuilt, http, startService, walkOverHttp } from './online-helpers.js';

const GENERATOR = 'random(edge_coverage(100))';
let model: string;
let modelText: string;

beforeAll(() => {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'walker-process-'));
  model = join(dir, 'loop.json');
  modelText = JSON.stringify(loop('random(length(1))'));
  writeFileSync(model, modelText);
}, 120_000);

describe('walker online, the real executable', () => {
  it('serves a preloaded model over HTTP, replays it with --seed and stops cleanly on SIGTERM', async () => {
    const service = await startService(['-s', 'RESTFUL', '-p', '0', '-m', model, GENERATOR]);
    expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(service.seed).toEqual(expect.any(Number));
    const path = await walkOverHttp(service.url);
    expect(path[0]).toBe('e0');
    const statistics = await http(service.url, 'GET', '/walker/getStatistics');
    expect(statistics).toMatchObject({ result: 'ok', edgeCoverage: 100, totalNumberOfUnvisitedEdges: 0 });
    expect(await http(service.url, 'PUT', '/walker/restart')).toEqual({ result: 'ok' });
    expect(await walkOverHttp(service.url)).toEqual(path);
    expect(await service.stop('SIGTERM')).toBe(0);

    const replay = await startService(['-s', 'RESTFUL', '-p', '0', '-m', model, GENERATOR, '--seed', String(service.seed)]);
    expect(replay.seed).toBe(service.seed);
    expect(await walkOverHttp(replay.url)).toEqual(path);
    expect(await replay.stop('SIGINT')).toBe(0);
  });

  it('passes the size and draft limits on to the app', async () => {
    const service = await startService(['-s', 'RESTFUL', '-p', '0', '--max-model-bytes', '100', '--max-drafts', '1']);
    try {
      const load = await fetch(`${service.url}/walker/load`, { method: 'POST', body: modelText });
      expect(load.status).toBe(413);
      expect(await load.json()).toEqual({ result: 'nok', error: 'The model is larger than the limit of 100 bytes (--max-model-bytes).' });
      expect((await fetch(`${service.url}/walker/drafts`, { method: 'POST' })).status).toBe(201);
      const second = await fetch(`${service.url}/walker/drafts`, { method: 'POST' });
      expect(second.status).toBe(429);
      expect(await second.json()).toMatchObject({ code: 'draft_limit_reached' });
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });

  it('waits for a load without -m, and replays the seed the load answered', async () => {
    const service = await startService(['-s', 'restful', '-p', '0']);
    expect(service.seed).toBeUndefined();
    expect(await http(service.url, 'GET', '/walker/hasNext')).toEqual({ result: 'nok', error: 'No model(s) are loaded.' });
    const loaded = await http(service.url, 'POST', '/walker/load', JSON.stringify(loop()));
    // loop()'s count grows without end, so the load also warns that exploring its states stopped at a bound.
    expect(loaded).toMatchObject({ result: 'ok', seed: expect.any(Number) });
    const path = await walkOverHttp(service.url);
    expect(await service.stop()).toBe(0);

    const replay = await startService(['-s', 'RESTFUL', '-p', '0', '--seed', String(loaded.seed)]);
    expect(await http(replay.url, 'POST', '/walker/load', JSON.stringify(loop()))).toMatchObject({ result: 'ok', seed: loaded.seed });
    expect(await walkOverHttp(replay.url)).toEqual(path);
    expect(await replay.stop()).toBe(0);
  });
});
