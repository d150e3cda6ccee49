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
  constructor(readonly url: string) {}

  async call(method: string, path: string, query: Record<string, string | undefined> = {}, body?: unknown): Promise<{ status: number; json: Record<string, any> }> {
    const params = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
    const url = `${this.url}/altwalker/${path}${params.size > 0 ? `?${params}` : ''}`;
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

      // Data nested past what any walk's variables hold is refused as such, not overflowed into a 500.
      const depth = 100_000;
      const deep = await fetch(`${side.url}/altwalker/executeStep?modelName=Counter&name=v_Check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"data":{"count":${'['.repeat(depth)}${']'.repeat(depth)}},"step":{}}`,
      });
      expect({ status: deep.status, json: await deep.json() }).toEqual({
        status: 400,
        json: { error: { message: "The body of executeStep nests arrays and objects more than 1000 deep; a step's data and step need a few levels.", trace: '' } },
      });

      // A failing test is 200 with payload.error.
      const failing = await side.executeStep('Counter', 'v_Check', { count: 2 }, { id: 'v1', name: 'v_Check', modelName: 'Counter' });
      expect(failing.status).toBe(200);
      expect(failing.json.payload.output).toBe('');
      expect(failing.json.payload.error.message).toBe('RangeError: count 2 is over 1');
      expect(failing.json.payload.error.trace).toContain('wire.mjs');

      // Data the walk cannot hold fails the step by name, and the data goes back as AltWalker sent it.
      const callback = await side.executeStep('Counter', 'e_Callback', { count: '1' }, { id: 'e1', name: 'e_Callback', modelName: 'Counter' });
      expect(callback).toEqual({
        status: 200,
        json: { payload: { output: '', data: { count: '1' }, error: { message: "Counter.e_Callback wrote data['onDone']: a function, which the walk's variables cannot hold; write plain values (numbers, strings, booleans, null, lists and plain objects)", trace: '' } } },
      });
      const loop = await side.executeStep('Counter', 'e_Loop', { count: 1 }, { id: 'e2', name: 'e_Loop', modelName: 'Counter' });
      expect(loop.json.payload.data).toEqual({ count: 1 });
      expect(loop.json.payload.error.message).toBe("Counter.e_Loop wrote data['self'].self: a cycle (the value contains itself), which the walk's variables cannot hold; write plain values (numbers, strings, booleans, null, lists and plain objects)");

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

  it('serves the shop example as AltWalker 0.4 drove it against walker as gw: string data in, plain values to the tests, only changes back', async () => {
    const { side, close } = await serve('examples/runner/shop-buggy.test.ts');
    // The step AltWalker sends for a model's element, and the data as GraphWalker's getData gives it: strings.
    const step = (name: string, id: string) => ({ id, name, modelName: 'Shop' });
    const asGetData = (items: number, coupon: boolean, paid?: number) => ({ items: String(items), coupon: String(coupon), ...(paid === undefined ? {} : { paid: String(paid) }) });
    // Before and after every element AltWalker asks for the four step fixtures, model-level and run-level.
    const hooks = async (phase: 'beforeStep' | 'afterStep') => {
      for (const model of phase === 'beforeStep' ? [undefined, 'Shop'] : ['Shop', undefined]) expect((await side.hasStep(model, phase)).json).toEqual({ payload: { hasStep: false } });
    };
    const element = async (name: string, id: string, data: Record<string, unknown>) => {
      await hooks('beforeStep');
      expect((await side.hasStep('Shop', name)).json).toEqual({ payload: { hasStep: true } });
      const answer = await side.executeStep('Shop', name, data, step(name, id));
      await hooks('afterStep');
      expect(answer.status).toBe(200);
      return answer.json.payload as Record<string, any>;
    };
    try {
      expect(await side.call('POST', 'load', {}, { path: `${process.cwd()}/examples/runner/shop-buggy.test.ts` })).toEqual({ status: 200, json: { payload: {} } });
      expect(await side.call('PUT', 'reset')).toEqual({ status: 200, json: { payload: {} } });
      expect((await side.hasStep(undefined, 'setUpRun')).json).toEqual({ payload: { hasStep: true } });
      const setUp = await side.executeStep(undefined, 'setUpRun', asGetData(0, false), { type: 'fixture', name: 'setUpRun' });
      expect(setUp).toEqual({ status: 200, json: { payload: { output: '', data: asGetData(0, false) } } });
      expect((await side.hasStep('Shop', 'setUpModel')).json).toEqual({ payload: { hasStep: false } });

      // e_OpenShop adds paid: the new key goes back as a number, so AltWalker writes paid=0, unquoted.
      expect(await element('e_OpenShop', 'e_open', asGetData(0, false))).toEqual({ output: '', data: { items: '0', coupon: 'false', paid: 0 } });
      // v_EmptyCart compares data.items with 0 strictly: it sees a number, and the unchanged strings go back as sent.
      expect(await element('v_EmptyCart', 'v_empty', asGetData(0, false, 0))).toEqual({ output: '', data: asGetData(0, false, 0) });
      expect(await element('e_AddItem', 'e_first', asGetData(0, false, 0))).toEqual({ output: '', data: asGetData(0, false, 0) });
      expect(await element('v_CartWithItems', 'v_items', asGetData(1, false, 0))).toEqual({ output: '', data: asGetData(1, false, 0) });
      expect(await element('e_ApplyCoupon', 'e_coupon', asGetData(1, false, 0))).toEqual({ output: '', data: asGetData(1, false, 0) });

      // The deliberate mistake: a failing test is 200 with payload.error, the data unchanged, no result, and the
      // trace at the TypeScript line of the assertion.
      const failed = await element('e_Pay', 'e_pay', asGetData(1, true, 0));
      expect(Object.keys(failed).sort()).toEqual(['data', 'error', 'output']);
      expect(failed.data).toEqual(asGetData(1, true, 0));
      expect(failed.error.message).toBe('AssertionError: the total of 1 items with a coupon\n\n800 !== 900\n');
      // Under vitest the trace is unmapped; `walker executor` maps it to the TypeScript line (test/cli/run.test.ts).
      expect(failed.error.trace).toMatch(/at Shop\.e_Pay \(.*examples\/runner\/shop\.test\.ts/);

      // After a failure AltWalker still asks for the tear-downs.
      expect((await side.hasStep('Shop', 'tearDownModel')).json).toEqual({ payload: { hasStep: false } });
      expect((await side.hasStep(undefined, 'tearDownRun')).json).toEqual({ payload: { hasStep: true } });
      const tearDown = await side.executeStep(undefined, 'tearDownRun', asGetData(1, true, 0), { type: 'fixture', name: 'tearDownRun' });
      expect(tearDown).toEqual({ status: 200, json: { payload: { output: '', data: asGetData(1, true, 0) } } });

      // A reset makes fresh classes, and the run's shop is made again by setUpRun: a paid cart adds paid back.
      expect((await side.call('PUT', 'reset')).status).toBe(200);
      await side.executeStep(undefined, 'setUpRun', asGetData(0, false), { type: 'fixture', name: 'setUpRun' });
      await element('e_OpenShop', 'e_open', asGetData(0, false));
      await element('e_AddItem', 'e_first', asGetData(0, false, 0));
      expect(await element('e_Pay', 'e_pay', asGetData(1, false, 0))).toEqual({ output: '', data: { items: '1', coupon: 'false', paid: 1 } });
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
