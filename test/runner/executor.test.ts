import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startExecutor } from '../../runner/executor.js';

/**
 * AltWalker's side of the executor wire, as its HttpExecutor speaks it: every call under /altwalker/, a step's
 * model and name in the query (no modelName for the run's fixtures), data and step as the JSON body.
 */
class AltWalkerSide {
  constructor(private readonly base: string) {}

  async call(method: string, path: string, query: Record<string, string | undefined> = {}, body?: unknown): Promise<{ status: number; json: Record<string, any> }> {
    const params = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
    const url = `${this.base}/altwalker/${path}${params.size > 0 ? `?${params}` : ''}`;
    const res = await fetch(url, { method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
    return { status: res.status, json: (await res.json()) as Record<string, any> };
  }

  hasStep(modelName: string | undefined, name: string) {
    return this.call('GET', 'hasStep', { modelName, name });
  }

  executeStep(modelName: string | undefined, name: string, data: Record<string, unknown>, step: Record<string, unknown>) {
    return this.call('POST', 'executeStep', { modelName, name }, { data, step });
  }
}

const dir = mkdtempSync(join(tmpdir(), 'walker-executor-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function serve(tests: string) {
  const { url, app } = await startExecutor({ tests, port: 0, stepTimeoutMs: 2000 });
  return { side: new AltWalkerSide(url), close: () => app.close() };
}

describe('walker executor', () => {
  it("answers AltWalker's calls of a run: load, reset, hasModel, hasStep, executeStep with output, data and errors", async () => {
    const { side, close } = await serve('test/fixtures/runner/wire.mjs');
    try {
      expect(await side.call('GET', 'hasModel', { name: 'Counter' })).toEqual({ status: 465, json: { error: { message: 'No test code is loaded: POST /altwalker/load first.', trace: '' } } });
      expect((await side.call('POST', 'load', {}, { path: 'whatever AltWalker was given' })).status).toBe(200);
      expect((await side.call('PUT', 'reset')).status).toBe(200);
      expect((await side.call('GET', 'hasModel', { name: 'Counter' })).json).toEqual({ payload: { hasModel: true } });
      expect((await side.call('GET', 'hasModel', { name: 'Other' })).json).toEqual({ payload: { hasModel: false } });
      expect((await side.hasStep(undefined, 'setUpRun')).json).toEqual({ payload: { hasStep: true } });
      expect((await side.hasStep(undefined, 'tearDownRun')).json).toEqual({ payload: { hasStep: false } });
      expect((await side.hasStep('Counter', 'e_Increment')).json).toEqual({ payload: { hasStep: true } });
      expect((await side.hasStep('Counter', 'setUpModel')).json).toEqual({ payload: { hasStep: false } });

      const fixture = await side.executeStep(undefined, 'setUpRun', { count: 0 }, { type: 'fixture', name: 'setUpRun' });
      expect(fixture).toEqual({ status: 200, json: { payload: { output: '', data: { count: 0 } } } });
      const start = await side.executeStep('Counter', 'v_Start', { count: 0 }, { id: 'v0', name: 'v_Start', modelName: 'Counter' });
      expect(start.json.payload).toEqual({ output: 'at the start with 0\n', data: { count: 0 } });
      const inc = await side.executeStep('Counter', 'e_Increment', { count: 0 }, { id: 'e0', name: 'e_Increment', modelName: 'Counter' });
      expect(inc.json.payload).toEqual({ output: '', data: { count: 1 } });
      const check = await side.executeStep('Counter', 'v_Check', { count: 1 }, { id: 'v1', name: 'v_Check', modelName: 'Counter' });
      expect(check.json.payload).toEqual({ output: '', data: { count: 1 }, result: { checked: 1 } });

      // A failing test is 200 with payload.error.
      const failing = await side.executeStep('Counter', 'v_Check', { count: 2 }, { id: 'v1', name: 'v_Check', modelName: 'Counter' });
      expect(failing.status).toBe(200);
      expect(failing.json.payload.output).toBe('');
      expect(failing.json.payload.error.message).toBe('RangeError: count 2 is over 1');
      expect(failing.json.payload.error.trace).toContain('wire.mjs');

      expect((await side.executeStep('Other', 'v_Start', {}, {})).status).toBe(460);
      const missing = await side.executeStep('Counter', 'v_Nowhere', {}, {});
      expect(missing).toEqual({ status: 461, json: { error: { message: "The class 'Counter' has no method 'v_Nowhere'.", trace: '' } } });
      expect((await side.executeStep('NotAClass', 'v_Start', {}, {})).status).toBe(462);
      expect((await side.call('GET', 'nothing')).status).toBe(404);
      expect((await side.call('GET', 'nothing')).json.error.message).toBe('No such executor call: GET /altwalker/nothing');
    } finally {
      await close();
    }
  });

  it('answers a test module that is missing with 463 and one that does not load with 464', async () => {
    const broken = join(dir, 'broken.mjs');
    writeFileSync(broken, 'export class {');
    for (const [tests, status] of [[join(dir, 'missing.mjs'), 463], [broken, 464]] as const) {
      const { side, close } = await serve(tests);
      try {
        const answer = await side.call('POST', 'load', {}, { path: tests });
        expect(answer.status).toBe(status);
        expect(answer.json.error.message).toContain(tests);
      } finally {
        await close();
      }
    }
  });
});
