import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ModelFileJson } from '../../core/model/types.js';
import { ensureBuilt, http, startService, walkOverHttp, type Service } from '../cli/online-helpers.js';
import { loop } from './models.js';

const MiB = 1024 * 1024;
/**
 * Grows until something stops it, in arrays of 100,000 numbers: the kind of script that took a shared
 * QuickJS memory to its 2 GiB maximum, because QuickJS's own limit does not count those allocations.
 */
const BOMB = 'hog = []; for (;;) hog.push(new Array(100000).fill(1));';
const LIMIT_MESSAGE = 'Script exceeded the memory limit of 64 MiB';
/**
 * What the process may keep of twenty-odd scripts that each filled 64 MiB (the issue's bound): a module
 * whose memory grew is dropped with its walk, so what stays is at most the one or two the garbage collector
 * has not reached yet. Memory that never came back would show as about 1.4 GB.
 */
const MAX_GROWTH_BYTES = 150 * MiB;

/** The resident set of a process, from Linux's /proc (the real figure, as `ps` shows it). */
function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (kilobytes === null) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kilobytes[1]) * 1024;
}

/** One model whose model actions (run at load) fill the memory. */
function loadBomb(n: number): ModelFileJson {
  const file = loop();
  return { ...file, models: [{ ...file.models[0], id: `bomb${n}`, actions: [BOMB] }] };
}

/** A model that loads, and whose first step (the start edge's actions) fills the memory. */
function stepBomb(): ModelFileJson {
  const file = loop();
  const [start, ...edges] = file.models[0].edges ?? [];
  return { ...file, models: [{ ...file.models[0], edges: [{ ...start, actions: [BOMB] }, ...edges] }] };
}

async function loadsAndWalks(service: Service): Promise<void> {
  // loop()'s count grows without end, so the load also warns that exploring its states stopped at a bound.
  expect(await http(service.url, 'POST', '/walker/load', JSON.stringify(loop()))).toMatchObject({ result: 'ok', seed: expect.any(Number) });
  const path = await walkOverHttp(service.url);
  expect(path[0]).toBe('e0');
  expect(await http(service.url, 'GET', '/walker/getData')).toMatchObject({ result: 'ok', data: expect.stringMatching(/^count=\d+$/) });
}

/** A JSON request to the draft API; answers the status and the body. */
async function draftCall(service: Service, method: string, path: string, body?: object): Promise<{ status: number; body: Record<string, unknown> }> {
  const init = body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  const response = await fetch(`${service.url}/walker/drafts${path}`, init);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A draft whose model actions fill the memory is judged invalid with the limit; once they are fixed, valid. */
async function validatesDrafts(service: Service): Promise<void> {
  const created = await draftCall(service, 'POST', '', { model_id: 'drafted', generator: 'random(length(3))', actions: [BOMB] });
  expect(created.status).toBe(201);
  const id = created.body.draft_id as string;
  expect((await draftCall(service, 'POST', `/${id}/vertices`, { id: 'v0' })).status).toBe(201);
  expect((await draftCall(service, 'POST', `/${id}/edges`, { id: 'e0', target_vertex_id: 'v0' })).status).toBe(201);
  expect((await draftCall(service, 'PATCH', `/${id}`, { start_element_id: 'e0' })).status).toBe(200);
  const invalid = await draftCall(service, 'GET', `/${id}/validation`);
  expect(invalid.body.issues).toContainEqual(expect.objectContaining({ code: 'script_error', message: `model 'drafted', model actions: ${LIMIT_MESSAGE}` }));
  expect((await draftCall(service, 'PATCH', `/${id}`, { actions: ['x = 1;'] })).status).toBe(200);
  expect((await draftCall(service, 'GET', `/${id}/validation`)).body).toMatchObject({ valid: true, issues: [] });
}

beforeAll(() => ensureBuilt(), 120_000);

describe('walker online against memory bombs, the real executable', () => {
  it('stops every script at the memory limit, names it, and gives the memory back', async () => {
    const service = await startService(['-s', 'RESTFUL', '-p', '0']);
    const pid = service.process.pid as number;
    try {
      await loadsAndWalks(service);
      const before = residentBytes(pid);
      for (let n = 0; n < 20; n++) {
        const answer = await http(service.url, 'POST', '/walker/load', JSON.stringify(loadBomb(n)));
        expect(answer).toEqual({ result: 'nok', error: `model 'bomb${n}', model actions: ${LIMIT_MESSAGE}` });
      }
      for (let n = 0; n < 3; n++) {
        expect(await http(service.url, 'POST', '/walker/load', JSON.stringify(stepBomb()))).toMatchObject({ result: 'ok' });
        expect(await http(service.url, 'GET', '/walker/getNext')).toEqual({
          result: 'nok',
          error: `model 'loop', element 'e0', actions: ${LIMIT_MESSAGE}`,
        });
      }
      await validatesDrafts(service);
      await loadsAndWalks(service);
      expect(residentBytes(pid) - before).toBeLessThan(MAX_GROWTH_BYTES);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 60_000);

  it('holds twenty bombs sent at once to one limit: the walks that share a memory share its limit', async () => {
    const service = await startService(['-s', 'RESTFUL', '-p', '0']);
    const pid = service.process.pid as number;
    try {
      await loadsAndWalks(service);
      // A draft made before the bombs must come through them as it was.
      const made = await draftCall(service, 'POST', '', { model_id: 'kept', generator: 'random(length(3))', actions: ['kept = 1;'] });
      const kept = made.body.draft_id as string;
      const before = residentBytes(pid);
      // The session serves them one after another in one go, faster than spare modules are made: most share one.
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, n) => http(service.url, 'POST', '/walker/load', JSON.stringify(loadBomb(n)))),
      );
      answers.forEach((answer, n) => expect(answer).toEqual({ result: 'nok', error: `model 'bomb${n}', model actions: ${LIMIT_MESSAGE}` }));
      await loadsAndWalks(service);
      expect((await draftCall(service, 'GET', `/${kept}`)).body).toMatchObject({
        revision: 0,
        model: { models: [{ id: 'kept', actions: ['kept = 1;'], generator: 'random(length(3))' }] },
      });
      await validatesDrafts(service);
      expect(residentBytes(pid) - before).toBeLessThan(MAX_GROWTH_BYTES);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 60_000);
});
