import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { run, RunnerErrorCodes, type RunOptions } from '../../runner/index.js';

const GATE = [{ file: 'test/fixtures/runner/gate.json', generator: 'random(length(7))' }];
const SHOP = [{ file: 'examples/runner/shop.json', generator: 'random(length(500))' }];
const dir = mkdtempSync(join(tmpdir(), 'walker-runner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A test module as an object whose every call is noted, with the data it saw. */
function gateTests(calls: string[], gate: Record<string, unknown> = {}) {
  const note = (name: string) => (data: Record<string, unknown>, step: { name: string }) => void calls.push(`${name}(${step.name}, ready=${String(data.ready)})`);
  return {
    setUpRun: note('setUpRun'),
    tearDownRun: note('tearDownRun'),
    beforeStep: note('beforeStep'),
    afterStep: note('afterStep'),
    Gate: class {
      setUpModel = note('Gate.setUpModel');
      tearDownModel = note('Gate.tearDownModel');
      beforeStep = note('Gate.beforeStep');
      afterStep = note('Gate.afterStep');
      v_Closed = note('v_Closed');
      e_Wait(data: Record<string, unknown>, step: { name: string }) {
        note('e_Wait')(data, step);
        data.ready = true;
      }
      e_Go = note('e_Go');
      v_Open = note('v_Open');
      constructor() {
        Object.assign(this, gate);
      }
    },
  };
}

async function gateRun(tests: Record<string, unknown>, options: Partial<RunOptions> = {}) {
  return run({ tests, models: GATE, seed: 7, stepTimeoutMs: 2000, ...options });
}

describe('walker-mbt/runner run', () => {
  it("calls the fixtures in AltWalker's order, skips unnamed elements, and writes the data back before the next choice", async () => {
    const calls: string[] = [];
    const result = await gateRun(gateTests(calls));
    expect(result.status).toBe('passed');
    // e_Wait wrote ready = true: its guard closes, e_Go opens, so the walk leaves at once.
    expect(calls).toEqual([
      'setUpRun(setUpRun, ready=false)',
      'Gate.setUpModel(setUpModel, ready=false)',
      ...['beforeStep', 'Gate.beforeStep', 'v_Closed', 'Gate.afterStep', 'afterStep'].map((c) => `${c}(v_Closed, ready=false)`),
      ...['beforeStep', 'Gate.beforeStep', 'e_Wait'].map((c) => `${c}(e_Wait, ready=false)`),
      'Gate.afterStep(e_Wait, ready=true)',
      'afterStep(e_Wait, ready=true)',
      ...['beforeStep', 'Gate.beforeStep', 'v_Closed', 'Gate.afterStep', 'afterStep'].map((c) => `${c}(v_Closed, ready=true)`),
      ...['beforeStep', 'Gate.beforeStep', 'e_Go', 'Gate.afterStep', 'afterStep'].map((c) => `${c}(e_Go, ready=true)`),
      ...['beforeStep', 'Gate.beforeStep', 'v_Open', 'Gate.afterStep', 'afterStep'].map((c) => `${c}(v_Open, ready=true)`),
      'Gate.tearDownModel(tearDownModel, ready=true)',
      'tearDownRun(tearDownRun, ready=true)',
    ]);
    expect(result.steps.map((s) => `${s.name || s.id}:${s.status}`)).toEqual([
      'v_Closed:passed',
      'e_Wait:passed',
      'v_Closed:passed',
      'e_Go:passed',
      'v_hall:skipped',
      'e_in:skipped',
      'v_Open:passed',
    ]);
  });

  it('opens a goal that only data written by the tests can reach, and reaches it', async () => {
    // No action of the model sets ready: offline, edge_coverage(100) would be refused for e_Go's guard.
    const models = [{ file: GATE[0].file, generator: 'random(edge_coverage(100))' }];
    const result = await run({ tests: gateTests([]), models, seed: 7, stepTimeoutMs: 2000 });
    expect(result.status).toBe('passed');
    expect(result.steps.map((s) => s.id).filter((id) => id.startsWith('e_')).sort()).toEqual(['e_go', 'e_in', 'e_wait']);
  });

  it('refuses data the sandbox cannot hold, names it, leaves the walk as it was and still tears down', async () => {
    for (const [value, words] of [
      [() => 1, 'a function'],
      [(() => { const o: Record<string, unknown> = {}; o.self = o; return o; })(), 'a cycle'],
      [new Map(), 'an instance of Map'],
    ] as const) {
      const calls: string[] = [];
      const result = await gateRun(
        gateTests(calls, {
          e_Wait(data: Record<string, unknown>) {
            data.ready = true;
            data.label = value;
          },
        }),
      );
      expect(result.status).toBe('error');
      expect(result.error?.message).toContain(`Gate.e_Wait wrote data['label']`);
      expect(result.error?.message).toContain(words);
      expect((result.error as { code?: string }).code).toBe(RunnerErrorCodes.DATA);
      // Nothing was written, ready included: the tear-downs see the walk as it was.
      expect(calls.slice(-2)).toEqual(['Gate.tearDownModel(tearDownModel, ready=false)', 'tearDownRun(tearDownRun, ready=false)']);
    }
  });

  it('fails a named element without a method, naming what to add, and a step that never settles', async () => {
    const missing = await gateRun(gateTests([], { e_Go: undefined }));
    expect(missing.status).toBe('failed');
    expect(missing.failure?.message).toBe("Step not found: add a method 'e_Go' to the class 'Gate' in (module)");
    expect(missing.statistics.totalFailedNumberOfModels).toBe(1);

    const started = performance.now();
    const hanging = await gateRun(gateTests([], { v_Open: () => ({ then() {} }) }), { stepTimeoutMs: 150 });
    expect(hanging.status).toBe('error');
    expect(hanging.error?.message).toBe('Gate.v_Open did not settle within 150 ms (--step-timeout): a step that returns a promise or thenable must settle it');
    expect(hanging.statistics.totalFailedNumberOfModels).toBe(1);
    expect(hanging.failure?.errorClass).toBe('StepTimeoutError');
    expect(hanging.failure?.step?.name).toBe('v_Open');
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it('ends with an error naming a fixture that throws, after the tear-downs', async () => {
    const calls: string[] = [];
    const tests = { ...gateTests(calls), beforeStep: () => { throw new TypeError('no browser'); } };
    const result = await gateRun(tests);
    expect(result.status).toBe('error');
    expect(result.error?.message).toMatch(/^The fixture beforeStep failed: TypeError: no browser \(at .*run\.test\.ts:\d+:\d+\)$/);
    expect(calls).toContain('tearDownRun(tearDownRun, ready=false)');
  });

  it('stops a hanging step when aborted, then tears down', async () => {
    const calls: string[] = [];
    const controller = new AbortController();
    const result = await gateRun(gateTests(calls, { e_Go: () => new Promise(() => setTimeout(() => controller.abort(), 50)) }), { signal: controller.signal });
    expect(result.status).toBe('interrupted');
    expect(calls.at(-1)).toBe('tearDownRun(tearDownRun, ready=true)');
  });

  it('replays the same calls with the same seed, data written by the tests included', async () => {
    const log = async () => {
      const calls: string[] = [];
      const tests = {
        Shop: class {
          constructor() {
            for (const name of ['e_OpenShop', 'v_EmptyCart', 'e_AddItem', 'v_CartWithItems', 'e_RemoveItem', 'e_ApplyCoupon', 'e_Pay', 'v_Paid', 'e_ShopAgain']) {
              (this as Record<string, unknown>)[name] = (data: Record<string, unknown>) => {
                calls.push(`${name} ${JSON.stringify(data)}`);
                data.visits = Number(data.visits ?? 0) + 1;
              };
            }
          }
        },
      };
      await run({ tests, models: [{ file: 'examples/runner/shop.json', generator: 'random(length(60))' }], seed: 42 });
      return calls;
    };
    const first = await log();
    expect(first).toHaveLength(60);
    expect(first.at(-1)).toContain('"visits":59');
    expect(await log()).toEqual(first);
  });

  it('shrinks a failing walk of the example to the shortest failing path, writes it, and replays it with --path', async () => {
    const file = join(dir, 'shrunk.path');
    const junit = join(dir, 'run.xml');
    const failed = await run({ tests: 'examples/runner/shop-buggy.test.ts', models: SHOP, seed: 1, shrink: { file }, junit });
    expect(failed.status).toBe('failed');
    expect(failed.failure?.errorClass).toBe('AssertionError');
    expect(failed.failure?.at).toMatch(/examples\/runner\/shop\.test\.ts:\d+:\d+$/);
    // Two items (the message counts them), the coupon, then paying: 9 elements from the start edge.
    expect(failed.shrunk?.path.length).toBe(9);
    expect(failed.shrunk?.runs).toBeLessThanOrEqual(100);
    const names = readFileSync(file, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { currentElementName: string }).currentElementName);
    expect(names.filter((n) => n === 'e_ApplyCoupon')).toHaveLength(1);
    expect(names.at(-1)).toBe('e_Pay');

    const replay = await run({ tests: 'examples/runner/shop-buggy.test.ts', models: SHOP, path: file });
    expect(replay.status).toBe('failed');
    expect(replay.failure?.message).toBe(failed.failure?.message);
    expect(replay.steps).toHaveLength(9);

    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(junit, 'utf8'));
    const suite = xml.testsuites.testsuite;
    expect(Number(suite.tests)).toBe(failed.steps.length);
    expect(Number(suite.failures)).toBe(1);
    const cases = [suite.testcase].flat() as Array<{ name: string; classname: string; failure?: { message: string } }>;
    const failing = cases.filter((c) => c.failure !== undefined);
    expect(failing.map((c) => [c.classname, c.name])).toEqual([['Shop', `${failed.failure?.step?.index}: e_Pay`]]);
    expect(failing[0].failure?.message).toContain('the total of');
    const properties = Object.fromEntries(([suite.properties.property].flat() as Array<{ name: string; value: string }>).map((p) => [p.name, p.value]));
    expect(properties.seed).toBe('1');
    expect(Number(properties.totalFailedNumberOfModels)).toBe(1);
  });

  it("throws the test's own error from assertPassed, with where and the seed, and its expected and actual", async () => {
    const result = await gateRun({ Gate: class { v_Closed() { assert.deepEqual({ a: 1 }, { a: 2 }); } } });
    expect(result.passed).toBe(false);
    let thrown: unknown;
    try {
      result.assertPassed();
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Error).message).toMatch(/^Gate\.v_Closed \(step 1, seed 7\): /);
    expect((thrown as { expected?: unknown }).expected).toEqual({ a: 2 });
    expect((await gateRun(gateTests([]))).assertPassed()).toBeUndefined();
  });

  it('hands over plain values, shared ones as global.<name>, and writes both back, strings that mention global. included', async () => {
    const seen: unknown[] = [];
    const tests = {
      Counter: class {
        v_A(data: Record<string, unknown>) {
          seen.push({ ...data });
        }
        e_Loop(data: Record<string, unknown>) {
          data.items = (data.items as number) + 1;
          data['global.total'] = (data['global.total'] as number) * 2;
          data.label = `${data.label as string} global.b!`;
          data.list = [1, { two: 'global.x' }];
        }
      },
    };
    const result = await run({ tests, models: [{ file: 'test/fixtures/runner/shared-data.json', generator: 'random(length(3))' }], seed: 1 });
    expect(result.status).toBe('passed');
    expect(seen).toEqual([
      { items: 2, label: 'a', 'global.total': 5 },
      { items: 3, label: 'a global.b!', list: [1, { two: 'global.x' }], 'global.total': 10 },
    ]);

    // A function among the variables has no faithful copy: the values are read from their text instead.
    seen.length = 0;
    const fallback = await run({ tests, models: [{ file: 'test/fixtures/runner/shared-data-function.json', generator: 'random(length(3))' }], seed: 1 });
    expect(fallback.status).toBe('passed');
    expect(seen.map((d) => { const { f: _f, ...rest } = d as Record<string, unknown>; return rest; })).toEqual([
      { items: 2, label: 'a', 'global.total': 5 },
      { items: 3, label: 'a global.b!', list: [1, { two: 'global.x' }], 'global.total': 10 },
    ]);
  });

  it('refuses a module without a class for a model, and one that does not load', async () => {
    await expect(gateRun({ Other: class {} })).rejects.toMatchObject({ code: RunnerErrorCodes.NO_CLASS, message: expect.stringContaining("no class for the model 'Gate'") });
    await expect(run({ tests: 'test/fixtures/runner/nowhere.ts', models: GATE })).rejects.toMatchObject({ code: RunnerErrorCodes.MODULE });
  });
});
