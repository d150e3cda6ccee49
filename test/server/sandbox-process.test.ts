import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ModelFileJson } from '../../core/model/types.js';
import { ensureBuilt, http, startService, walkOverHttp, type Service } from '../cli/online-helpers.js';
import { loop } from './models.js';
import { sendJson } from './other-clients.js';

const MiB = 1024 * 1024;
/**
 * Grows until something stops it, in arrays of 100,000 numbers: the kind of script that took a shared
 * QuickJS memory to its 2 GiB maximum, because QuickJS's own limit does not count those allocations.
 */
const BOMB = 'hog = []; for (;;) hog.push(new Array(100000).fill(1));';
/**
 * The bomb in promise jobs, which run after the script that queued them: a then callback, and an async
 * function after its await. Stopped there, QuickJS loses track of objects, and freeing its runtime aborted.
 */
const JOB_BOMBS: ReadonlyArray<[string, string]> = [
  ['a then callback', `Promise.resolve().then(function () { ${BOMB} });`],
  ['an async function after its await', `(async function () { await null; ${BOMB} })();`],
];
/** What a script that passes the default limit is told; the bombs in promise jobs meet that limit. */
const LIMIT_MESSAGE = 'Script exceeded the memory limit of 64 MiB';
/**
 * The smallest limit the service takes, for the two tests that send twenty-odd bombs each. Filling 64 MiB
 * each, those two took 23 s of a quiet machine's time and about 100 s beside other suites; filling 16 MiB,
 * 4.6 s. Memory that never came back shows as plainly.
 */
const BOMB_LIMIT = ['--script-memory', '16MiB'];
const BOMB_LIMIT_MESSAGE = 'Script exceeded the memory limit of 16 MiB';
/**
 * What the process may keep of twenty-odd scripts that each filled 16 MiB: a module whose memory grew is
 * dropped with its walk, so what stays is the few the garbage collector has not reached yet. That was 19 and
 * 28 MiB in two runs (at 64 MiB each, -7 to 146 MiB in four), so the bound allows four and one more. Memory
 * that never came back would show as about 370 MiB.
 */
const MAX_GROWTH_BYTES = 5 * 16 * MiB;

/** A script memory limit small enough to keep eight walks that each hold most of it light. */
const SMALL_LIMIT = '32MiB';
/**
 * Holds 20 MiB in strings, more than half of {@link SMALL_LIMIT}: two walks in one memory cannot both hold
 * it. Out of getData's sight (a closure), so that reading the variables stays cheap.
 */
const HOLD_20_MIB =
  'keep = (function () { var held = []; while (held.length < 20) held.push("y".repeat(1 << 20) + held.length); ' +
  'return function () { return held.length; }; })();';

/** The resident set of a process, from Linux's /proc (the real figure, as `ps` shows it). */
function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (kilobytes === null) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kilobytes[1]) * 1024;
}

/** One model whose model actions (run at load) fill the memory. */
function loadBomb(n: number, bomb = BOMB): ModelFileJson {
  const file = loop();
  return { ...file, models: [{ ...file.models[0], id: `bomb${n}`, actions: [bomb] }] };
}

/** A model that loads, and whose first step (the start edge's actions) fills the memory. */
function stepBomb(bomb = BOMB): ModelFileJson {
  const file = loop();
  const [start, ...edges] = file.models[0].edges ?? [];
  return { ...file, models: [{ ...file.models[0], edges: [{ ...start, actions: [bomb] }, ...edges] }] };
}

async function loadsAndWalks(service: Service): Promise<void> {
  // loop()'s count grows without end, so the load also warns that exploring its states stopped at a bound.
  expect(await http(service.url, 'POST', '/walker/load', JSON.stringify(loop()))).toMatchObject({ result: 'ok', seed: expect.any(Number) });
  const path = await walkOverHttp(service.url);
  expect(path[0]).toBe('e0');
  expect(await http(service.url, 'GET', '/walker/getData')).toMatchObject({ result: 'ok', data: expect.stringMatching(/^count=\d+$/) });
}

/** A JSON request to the draft API; answers the status and the body. */
function draftCall(service: Service, method: string, path: string, body?: object): Promise<{ status: number; body: Record<string, unknown> }> {
  return sendJson(service.url, method, `/walker/drafts${path}`, body);
}

/** A draft whose model actions fill the memory is judged invalid with the limit; once they are fixed, valid. */
async function validatesDrafts(service: Service, bomb = BOMB, message = BOMB_LIMIT_MESSAGE): Promise<void> {
  const created = await draftCall(service, 'POST', '', { model_id: 'drafted', generator: 'random(length(3))', actions: [bomb] });
  expect(created.status).toBe(201);
  const id = created.body.draft_id as string;
  expect((await draftCall(service, 'POST', `/${id}/vertices`, { id: 'v0' })).status).toBe(201);
  expect((await draftCall(service, 'POST', `/${id}/edges`, { id: 'e0', target_vertex_id: 'v0' })).status).toBe(201);
  expect((await draftCall(service, 'PATCH', `/${id}`, { start_element_id: 'e0' })).status).toBe(200);
  const invalid = await draftCall(service, 'GET', `/${id}/validation`);
  expect(invalid.body.issues).toContainEqual(expect.objectContaining({ code: 'script_error', message: `model 'drafted', model actions: ${message}` }));
  expect((await draftCall(service, 'PATCH', `/${id}`, { actions: ['x = 1;'] })).status).toBe(200);
  expect((await draftCall(service, 'GET', `/${id}/validation`)).body).toMatchObject({ valid: true, issues: [] });
}

/** A model whose model actions hold 20 MiB for the whole walk, and whose guard asks that they are still held. */
function holding(n: number): ModelFileJson {
  const file = loop();
  const model = file.models[0];
  const edges = (model.edges ?? []).map((edge) => (edge.id === 'e1' ? { ...edge, guard: 'keep() === 20' } : edge));
  return { ...file, models: [{ ...model, id: `holding${n}`, actions: [HOLD_20_MIB], edges }] };
}

/** A JSON request to a session of /walker/sessions; answers the status and the body. */
async function sessionCall(service: Service, method: string, path: string, body?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${service.url}/walker/sessions${path}`, { method, body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Walks a session to its end, answering the steps' element ids and the variables at the end. */
async function walkSession(service: Service, id: string): Promise<{ path: string[]; data: unknown }> {
  const path: string[] = [];
  while ((await sessionCall(service, 'GET', `/${id}/hasNext`)).body.hasNext === 'true') {
    const step = await sessionCall(service, 'GET', `/${id}/getNext`);
    expect(step.body.result).toBe('ok');
    path.push(String(step.body.currentElementID));
    if (path.length > 10_000) throw new Error('the walk does not end');
  }
  return { path, data: (await sessionCall(service, 'GET', `/${id}/getData`)).body.data };
}

beforeAll(() => ensureBuilt(), 120_000);

// Each test takes seconds alone and a minute or more on a machine busy with other suites (load 12: past 60 s).
describe('walker online against memory bombs, the real executable', { timeout: 240_000 }, () => {
  it('stops every script at the memory limit, names it, and gives the memory back', async () => {
    const service = await startService(['-s', 'RESTFUL', '-p', '0', ...BOMB_LIMIT]);
    const pid = service.process.pid as number;
    try {
      await loadsAndWalks(service);
      const before = residentBytes(pid);
      for (let n = 0; n < 20; n++) {
        const answer = await http(service.url, 'POST', '/walker/load', JSON.stringify(loadBomb(n)));
        expect(answer).toEqual({ result: 'nok', error: `model 'bomb${n}', model actions: ${BOMB_LIMIT_MESSAGE}` });
      }
      for (let n = 0; n < 3; n++) {
        expect(await http(service.url, 'POST', '/walker/load', JSON.stringify(stepBomb()))).toMatchObject({ result: 'ok' });
        expect(await http(service.url, 'GET', '/walker/getNext')).toEqual({
          result: 'nok',
          error: `model 'loop', element 'e0', actions: ${BOMB_LIMIT_MESSAGE}`,
        });
      }
      await validatesDrafts(service);
      await loadsAndWalks(service);
      expect(residentBytes(pid) - before).toBeLessThan(MAX_GROWTH_BYTES);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });

  it('stops a bomb in promise jobs at the memory limit, names it, and leaves the walks after it working', async () => {
    const service = await startService(['-s', 'RESTFUL', '-p', '0']);
    try {
      await loadsAndWalks(service);
      for (const [what, bomb] of JOB_BOMBS) {
        const answer = await http(service.url, 'POST', '/walker/load', JSON.stringify(loadBomb(0, bomb)));
        expect(answer, what).toEqual({ result: 'nok', error: `model 'bomb0', model actions: ${LIMIT_MESSAGE}` });
        expect(await http(service.url, 'POST', '/walker/load', JSON.stringify(stepBomb(bomb))), what).toMatchObject({ result: 'ok' });
        expect(await http(service.url, 'GET', '/walker/getNext'), what).toEqual({
          result: 'nok',
          error: `model 'loop', element 'e0', actions: ${LIMIT_MESSAGE}`,
        });
        // A restart gives the walk a fresh memory: its first step fills that one in turn.
        expect(await http(service.url, 'PUT', '/walker/restart'), what).toEqual({ result: 'ok' });
        expect(await http(service.url, 'GET', '/walker/getNext'), what).toMatchObject({ result: 'nok', error: expect.stringContaining(LIMIT_MESSAGE) });
        await validatesDrafts(service, bomb, LIMIT_MESSAGE);
        await loadsAndWalks(service);
      }
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });

  it('holds twenty bombs sent at once each to its limit, and gives the memory of every one back', async () => {
    const service = await startService(['-s', 'RESTFUL', '-p', '0', ...BOMB_LIMIT]);
    const pid = service.process.pid as number;
    try {
      await loadsAndWalks(service);
      // A draft made before the bombs must come through them as it was.
      const made = await draftCall(service, 'POST', '', { model_id: 'kept', generator: 'random(length(3))', actions: ['kept = 1;'] });
      const kept = made.body.draft_id as string;
      const before = residentBytes(pid);
      // The session serves them one after another, faster than spare modules are made: each load waits for one.
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, n) => http(service.url, 'POST', '/walker/load', JSON.stringify(loadBomb(n)))),
      );
      answers.forEach((answer, n) => expect(answer).toEqual({ result: 'nok', error: `model 'bomb${n}', model actions: ${BOMB_LIMIT_MESSAGE}` }));
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
  });

  it('gives eight sessions created at once a memory each: each holds most of its limit, and a bomb in one leaves the others be', async () => {
    const service = await startService(['-s', 'RESTFUL', '-p', '0', '--script-memory', SMALL_LIMIT]);
    try {
      const created = await Promise.all(
        Array.from({ length: 8 }, (_, n) => sessionCall(service, 'POST', '', JSON.stringify(holding(n)))),
      );
      for (const answer of created) expect(answer).toMatchObject({ status: 201, body: { id: expect.any(String) } });
      const ids = created.map((answer) => String(answer.body.id));
      const bombed = await sessionCall(service, 'PUT', `/${ids[0]}/setData/${encodeURIComponent(BOMB)}`);
      expect(bombed.body).toEqual({ result: 'nok', error: "model 'holding0', setData: Script exceeded the memory limit of 32 MiB" });
      for (const id of ids.slice(1)) {
        const { path, data } = await walkSession(service, id);
        expect(path[0]).toBe('e0');
        // The guard of e1 asks for the 20 MiB held since the load: the walk goes through it to its end.
        expect(path).toContain('e1');
        expect(data).toMatch(/^keep=function \(\) \{ return held\.length; \}; count=\d+$/);
      }
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });
});
