import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT, runCli, startWalker } from './online-helpers.js';

const SHOP = 'examples/runner/shop.json';
const dir = mkdtempSync(join(tmpdir(), 'walker-run-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// The signal test runs the built executable; a build takes minutes on a busy machine.
beforeAll(() => ensureBuilt(), 600_000);

describe('walker run', () => {
  it('runs the example: a line per step, the statistics, the seed and the command that replays it', async () => {
    const { code, stdout, stderr } = await runCli(['run', 'examples/runner/shop.test.ts', '-m', SHOP, 'random(edge_coverage(100))', '--seed', '3']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^Shop {2}e_OpenShop {2}pass {2}\d+(\.\d+)? ms$/);
    expect(stdout).toContain('edge coverage 100%, vertex coverage 100%, models failed 0, completed 1 of 1');
    expect(stdout).toContain('Seed: 3\n');
    expect(stdout).toContain("Replay: walker run examples/runner/shop.test.ts -m examples/runner/shop.json 'random(edge_coverage(100))' --seed 3\n");
  });

  it('fails the buggy example with exit 1, names the test line, shrinks it, writes JUnit and the report, and replays the shrunk path', async () => {
    const junit = join(dir, 'run.xml');
    const report = join(dir, 'run.html');
    const shrunk = join(dir, 'shrunk.path');
    const args = ['run', 'examples/runner/shop-buggy.test.ts', '-m', SHOP, 'random(length(500))', '--seed', '1'];
    const { code, stdout } = await runCli([...args, '--shrink', '--shrink-file', shrunk, '--junit', junit, '--report', report]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/Shop {2}e_Pay {2}FAIL {2}[\d.]+ ms\n {4}AssertionError: the total of 2 items with a coupon/);
    expect(stdout).toMatch(/Failed: model Shop, element e_Pay \(e_pay\), step \d+: AssertionError: the total of 2 items with a coupon at \S*examples\/runner\/shop\.test\.ts:\d+:\d+\n/);
    expect(stdout).toMatch(/Shrunk: 9 steps instead of \d+, in \d+ runs; saved to \S*shrunk\.path\n/);

    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(junit, 'utf8'));
    expect(Number(xml.testsuites.testsuite.failures)).toBe(1);
    const page = readFileSync(report, 'utf8');
    expect(page).toContain('Shop.e_Pay: the total of 2 items with a coupon');

    const replay = await runCli([...args, '--path', shrunk]);
    expect(replay.code).toBe(1);
    expect(replay.stdout.split('\n').filter((l) => l.startsWith('Shop  '))).toHaveLength(9);
  });

  it("replays the lines walker offline prints with --path, and refuses a path the model does not allow", async () => {
    const offline = await runCli(['offline', '-m', SHOP, 'random(length(12))', '--seed', '5']);
    const recorded = join(dir, 'offline.path');
    writeFileSync(recorded, offline.stdout);
    const names = offline.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { currentElementName: string }).currentElementName);
    const replay = await runCli(['run', 'examples/runner/shop.test.ts', '-m', SHOP, 'random(edge_coverage(100))', '--path', recorded]);
    expect(replay.code).toBe(0);
    expect(replay.stdout.split('\n').filter((l) => l.startsWith('Shop  ')).map((l) => l.split('  ')[1])).toEqual(names);

    // Across models through shared states: PetClinic's five, with a skeleton of empty methods.
    const petClinic = 'test/fixtures/models/graphwalker/PetClinic.json';
    const across = join(dir, 'petclinic.path');
    writeFileSync(across, (await runCli(['offline', '-m', petClinic, 'random(edge_coverage(100))', '--seed', '9'])).stdout);
    expect((await runCli(['generate', join(dir, 'petclinic'), '-m', petClinic, '--language', 'js'])).code).toBe(0);
    const walked = await runCli(['run', join(dir, 'petclinic'), '-m', petClinic, 'random(edge_coverage(100))', '--path', across]);
    expect(walked.code).toBe(0);
    const models = new Set(walked.stdout.split('\n').filter((l) => /^\w+ {2}/.test(l)).map((l) => l.split('  ')[0]));
    expect(models.size).toBe(5);
    expect(walked.stdout).toContain(`passed: ${readFileSync(across, 'utf8').trim().split('\n').length} steps`);

    // Paying straight from the empty cart: no such edge there.
    const wrong = join(dir, 'wrong.path');
    const line = (id: string, name: string) => `${JSON.stringify({ currentElementName: name, currentElementID: id, modelId: 'shop' })}\n`;
    writeFileSync(wrong, line('e_open', 'e_OpenShop') + line('v_empty', 'v_EmptyCart') + line('e_pay', 'e_Pay'));
    const refused = await runCli(['run', 'examples/runner/shop.test.ts', '-m', SHOP, 'random(edge_coverage(100))', '--path', wrong]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^The recorded path leaves what the model allows at step 3: 'e_Pay' \(e_pay\) cannot be stepped on there/);
  });

  it('answers bad input with one line on stderr and exit 2', async () => {
    writeFileSync(join(dir, 'broken.ts'), 'export class Shop {\n  e_OpenShop( {\n}\n');
    writeFileSync(join(dir, 'other.mjs'), 'export class Other {}\n');
    const cases: Array<[string, RegExp]> = [
      [join(dir, 'missing.ts'), /^The test module '.*missing\.ts' does not exist: give a \.ts, \.mts, \.js or \.mjs file, or a folder with an index\.ts\n$/],
      [join(dir, 'broken.ts'), /^Could not load the test module '.*broken\.ts': .*broken\.ts:4:0: Expected "\)" but found end of file\n$/],
      [join(dir, 'other.mjs'), /^.*other\.mjs has no class for the model 'Shop': export a class named as the model/],
    ];
    for (const [tests, message] of cases) {
      const { code, stderr } = await runCli(['run', tests, '-m', SHOP, 'random(length(5))']);
      expect(code).toBe(2);
      expect(stderr).toMatch(message);
      expect(stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('ends cleanly on SIGTERM: the hanging step is given up, the tear-downs run, the JUnit report is written, exit 143', async () => {
    const marker = join(dir, 'teardown.txt');
    const junit = join(dir, 'term.xml');
    const child = spawn(process.execPath, ['bin/walker.js', 'run', 'test/fixtures/runner/hang.mjs', '-m', SHOP, 'random(length(50))', '--junit', junit], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TEARDOWN_FILE: marker },
    });
    let stdout = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk) => {
        stdout += String(chunk);
        if (stdout.includes('e_OpenShop')) resolve();
      }),
    );
    // The second step hangs; give it a moment to be under way.
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(readFileSync(marker, 'utf8')).toBe('torn down after 2 steps\n');
    expect(readFileSync(junit, 'utf8')).toContain('name="status" value="interrupted"');
  });
});

describe('walker generate and walker verify', () => {
  it('generate writes a skeleton that verify accepts and run executes, in TypeScript and JavaScript', async () => {
    const gate = 'test/fixtures/runner/gate.json';
    for (const language of ['ts', 'js']) {
      const target = join(dir, `skeleton-${language}`);
      const generated = await runCli(['generate', target, '-m', SHOP, '-m', gate, '--language', language]);
      expect(generated.code).toBe(0);
      const file = generated.stdout.trim();
      expect(file).toBe(join(target, language === 'ts' ? 'index.ts' : 'index.mjs'));
      const text = readFileSync(file, 'utf8');
      expect(text).toContain('export class Shop {');
      expect(text).toContain('export class Gate {');
      expect(text).toContain(language === 'ts' ? '  e_AddItem(data: Data, step: Step): void {}' : '  e_AddItem(data, step) {}');
      // Each distinct name once: e_AddItem names two edges.
      expect(text.match(/ e_AddItem\(/g)).toHaveLength(1);
      expect(await runCli(['verify', target, '-m', SHOP, '-m', gate])).toEqual({ code: 0, stdout: '', stderr: '' });
      expect((await runCli(['run', target, '-m', SHOP, 'random(edge_coverage(100))'])).code).toBe(0);
      expect((await runCli(['generate', target, '-m', SHOP, '--language', language])).stderr).toMatch(/exists already/);
    }
  });

  it('verify lists every missing class and method per model, and exits 1', async () => {
    const partial = join(dir, 'partial.mjs');
    writeFileSync(partial, 'export class Shop { e_OpenShop() {} v_EmptyCart() {} e_AddItem() {} v_CartWithItems() {} }\n');
    const { code, stdout } = await runCli(['verify', partial, '-m', SHOP, '-m', 'test/fixtures/runner/gate.json']);
    expect(code).toBe(1);
    expect(stdout).toBe(
      'Shop: missing methods v_Paid, e_RemoveItem, e_ApplyCoupon, e_Pay, e_ShopAgain\n' +
        "Gate: no class 'Gate'; it needs the methods v_Closed, v_Open, e_Wait, e_Go\n",
    );
  });

  it('serves the buggy example to AltWalker as walker executor -p: the failure trace at the TypeScript line, and SIGTERM stops it', async () => {
    const service = await startWalker(['executor', 'examples/runner/shop-buggy.test.ts', '-p', '0']);
    try {
      // The calls AltWalker 0.4 makes up to the failing payment, data as GraphWalker's getData gives it.
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${service.url}/altwalker/${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
        return (await res.json()) as { payload: Record<string, any> };
      };
      const data = (items: number, coupon: boolean) => ({ items: String(items), coupon: String(coupon), paid: '0' });
      const step = (name: string) => `executeStep?modelName=Shop&name=${name}`;
      await call('POST', 'load', { path: join(ROOT, 'examples/runner/shop-buggy.test.ts') });
      await call('PUT', 'reset');
      await call('POST', 'executeStep?name=setUpRun', { data: { items: '0', coupon: 'false' }, step: { type: 'fixture', name: 'setUpRun' } });
      await call('POST', step('e_AddItem'), { data: data(0, false), step: { id: 'e_first', name: 'e_AddItem', modelName: 'Shop' } });
      await call('POST', step('e_ApplyCoupon'), { data: data(1, false), step: { id: 'e_coupon', name: 'e_ApplyCoupon', modelName: 'Shop' } });
      const paid = await call('POST', step('e_Pay'), { data: data(1, true), step: { id: 'e_pay', name: 'e_Pay', modelName: 'Shop' } });
      expect(paid.payload.error.message).toBe('AssertionError: the total of 1 items with a coupon\n\n800 !== 900\n');
      const line = readFileSync(join(ROOT, 'examples/runner/shop.test.ts'), 'utf8').split('\n').findIndex((l) => l.includes('assert.equal(total, expected')) + 1;
      expect(paid.payload.error.trace).toContain(`at Shop.e_Pay (${join(ROOT, 'examples/runner/shop.test.ts')}:${line}:`);
    } finally {
      expect(await service.stop('SIGTERM')).toBe(0);
    }
    expect(service.output().stderr).toBe('');
  });
});
