import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, http, runCli, runWalker, startService, walkOverHttp, type Finished } from '../cli/online-helpers.js';
import { launchBrowser, watchedPage } from './browser.js';

const LOGIN = 'examples/models/login.json';
const model = JSON.parse(readFileSync(LOGIN, 'utf8')) as { models: Array<{ vertices: { id: string }[]; edges: { id: string }[] }> };
const EDGES = new Set(model.models[0].edges.map((e) => e.id));
const VERTICES = new Set(model.models[0].vertices.map((v) => v.id));

let browser: Browser;
let folder: string;
let run: Finished;
let steps: string[];
let report: string;

beforeAll(async () => {
  ensureBuilt();
  folder = mkdtempSync(join(tmpdir(), 'walker-report-'));
  report = join(folder, 'run.html');
  [browser, run] = await Promise.all([
    launchBrowser(),
    runWalker(['offline', '-m', LOGIN, 'random(edge_coverage(100))', '--seed', '42', '--report', report]),
  ]);
  steps = run.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { currentElementID: string }).currentElementID);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** Coverage after the first `n` steps, by the statistics' rule: floor(100 * visited / total). */
function coverageAfter(n: number): { edges: number; vertices: number } {
  const seen = new Set(steps.slice(0, n));
  const share = (all: Set<string>) => Math.floor((100 * [...all].filter((id) => seen.has(id)).length) / all.size);
  return { edges: share(EDGES), vertices: share(VERTICES) };
}

describe('walker offline --report', () => {
  it('prints the same steps as without --report, and nothing on stderr', async () => {
    const plain = await runCli(['offline', '-m', LOGIN, 'random(edge_coverage(100))', '--seed', '42']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(plain.stdout);
    expect(run.stderr).toBe('');
  });

  it('opens from a file:// URL with no request beyond the file, and shows the walk at its end', async () => {
    const { page, errors, requests } = await watchedPage(browser);
    const url = pathToFileURL(report).href;
    await page.goto(url);
    await page.getByTestId('model-graph').locator('[data-element-id]').first().waitFor();
    // login.json places no vertex: ELK lays it out in a worker the page starts from a blob of its own inline text.
    expect(requests.filter((r) => r.startsWith('blob:'))).toHaveLength(1);
    expect(requests.filter((r) => r !== url && !r.startsWith('data:') && !r.startsWith('blob:'))).toEqual([]);
    expect(await page.getByTestId('step-count').textContent()).toBe(String(steps.length));
    // The walk stopped at edge_coverage(100); every vertex of login.json is the target of an edge, so all are visited.
    expect(await page.getByTestId('edge-coverage').textContent()).toBe('100');
    expect(await page.getByTestId('vertex-coverage').textContent()).toBe('100');
    expect(await page.getByTestId('current-element').getAttribute('data-element-id')).toBe(steps.at(-1));
    const visited = await page.locator('[data-testid=model-graph] [data-visited=true]').count();
    expect(visited).toBe(EDGES.size + VERTICES.size);
    // The heat map: each element's count is how often the walk stepped on it.
    const counts = await page.locator('[data-testid=model-graph] [data-element-id]').evaluateAll((nodes) => nodes.map((n) => [n.getAttribute('data-element-id'), Number(n.getAttribute('data-visits'))] as const));
    for (const [id, count] of counts) expect(count, id as string).toBe(steps.filter((s) => s === id).length);
    // login.json's requirements LOGIN-1 and LOGIN-2 sit on vertices the walk stepped on: both passed.
    expect(await page.getByTestId('requirements').locator('[data-requirements=passed]').textContent()).toBe('passed: 2 (LOGIN-1, LOGIN-2)');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows the coverage of a walk that stops short as the run's own getStatistics has it: figures, counts, unvisited elements", async () => {
    const goal = 'random(edge_coverage(60))';
    const partial = join(folder, 'partial.html');
    const offline = await runWalker(['offline', '-m', LOGIN, goal, '--seed', '42', '--report', partial]);
    expect(offline.code).toBe(0);
    // The same run on a service (model, generator, seed): the same path, and getStatistics of its end.
    const service = await startService(['-s', 'RESTFUL', '-p', '0', '-m', LOGIN, goal, '--seed', '42']);
    let stats: Record<string, any>;
    try {
      const path = await walkOverHttp(service.url);
      expect(path).toEqual(offline.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { currentElementID: string }).currentElementID));
      stats = await http(service.url, 'GET', '/walker/getStatistics');
    } finally {
      await service.stop();
    }
    expect(stats.edgeCoverage, 'a walk that stops short of every edge').toBeLessThan(100);

    const { page, errors } = await watchedPage(browser);
    await page.goto(pathToFileURL(partial).href);
    await page.locator('[data-testid=model-graph][data-state=drawn]').waitFor();
    const shown = async (testid: string) => Number(await page.getByTestId(testid).textContent());
    expect(await shown('edge-coverage')).toBe(stats.edgeCoverage);
    expect(await shown('vertex-coverage')).toBe(stats.vertexCoverage);
    expect(await shown('edges-visited')).toBe(stats.totalNumberOfVisitedEdges);
    expect(await shown('edges-total')).toBe(stats.totalNumberOfEdges);
    expect(await shown('vertices-visited')).toBe(stats.totalNumberOfVisitedVertices);
    expect(await shown('vertices-total')).toBe(stats.totalNumberOfVertices);
    const unvisited = await page.getByTestId('not-visited').locator('li[data-element-id]').evaluateAll((items) => items.map((li) => li.getAttribute('data-element-id')));
    expect(unvisited).toEqual([
      ...(stats.edgesNotVisited as Array<{ edgeId: string }>).map((e) => e.edgeId),
      ...(stats.verticesNotVisited as Array<{ vertexId: string }>).map((v) => v.vertexId),
    ]);
    expect(unvisited.length).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('replays the path step by step with its slider', async () => {
    const { page, errors } = await watchedPage(browser);
    await page.goto(pathToFileURL(report).href);
    const slider = page.getByTestId('replay-slider');
    await page.locator('[data-testid=model-graph][data-state=drawn]').waitFor();
    expect(await slider.getAttribute('max')).toBe(String(steps.length));
    for (const n of [0, 1, 3, Math.floor(steps.length / 2)]) {
      await slider.fill(String(n));
      expect(await page.getByTestId('step-count').textContent()).toBe(String(n));
      const { edges, vertices } = coverageAfter(n);
      expect(await page.getByTestId('edge-coverage').textContent(), `step ${n}`).toBe(String(edges));
      expect(await page.getByTestId('vertex-coverage').textContent(), `step ${n}`).toBe(String(vertices));
      expect(await page.getByTestId('current-element').getAttribute('data-element-id')).toBe(n === 0 ? '' : steps[n - 1]);
      const seen = new Set(steps.slice(0, n));
      expect(await page.getByTestId('edges-visited').textContent(), `step ${n}`).toBe(String([...EDGES].filter((id) => seen.has(id)).length));
      const notVisited = await page.getByTestId('not-visited').locator('li[data-element-id]').evaluateAll((items) => items.map((li) => li.getAttribute('data-element-id')));
      expect(notVisited.sort(), `step ${n}`).toEqual([...EDGES, ...VERTICES].filter((id) => !seen.has(id)).sort());
      expect(await page.locator('[data-testid=model-graph] [data-visited=true]').count()).toBe(new Set(steps.slice(0, n)).size);
    }
    // Before the end, the statuses, variables and requirements shown are the end's, and the page says so once.
    expect(await page.getByTestId('end-note').isVisible()).toBe(true);
    expect(await page.getByTestId('model-statuses').locator('li').first().textContent()).toBe('Login: completed');
    expect(await page.getByTestId('requirements').locator('[data-requirements=passed]').textContent()).toBe('passed: 2 (LOGIN-1, LOGIN-2)');
    await page.getByTestId('replay-forward').click();
    expect(await page.getByTestId('step-count').textContent()).toBe(String(Math.floor(steps.length / 2) + 1));
    await slider.fill(String(steps.length));
    expect(await page.getByTestId('end-note').isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('writes the report of a walk that fails too, and fails as without it', async () => {
    const failed = join(folder, 'failed.html');
    const model = 'test/fixtures/models/dead-end.json';
    const { code, stdout, stderr } = await runWalker(['offline', '-m', model, 'random(never)', '--report', failed]);
    const plain = await runCli(['offline', '-m', model, 'random(never)']);
    expect([code, stdout, stderr]).toEqual([plain.code, plain.stdout, plain.stderr]);
    expect(code).toBe(2);
    const { page, errors } = await watchedPage(browser);
    await page.goto(pathToFileURL(failed).href);
    await page.getByTestId('model-graph').locator('[data-element-id]').first().waitFor();
    // e_Start, v_A, e_AB, v_B: then no way on from v_B, and the model failed.
    expect(await page.getByTestId('step-count').textContent()).toBe('4');
    expect(await page.getByTestId('current-element').getAttribute('data-element-id')).toBe('b');
    expect(await page.getByTestId('model-statuses').locator('li').first().textContent()).toBe('DeadEnd: failed');
    // No test failed: no step is marked.
    expect(await page.getByTestId('report-failure').count()).toBe(0);
    expect(await page.locator('[data-issue]').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("marks the failed step of walker run --report: the element in red, its line in the last steps, the slider's place and the failure", async () => {
    const failed = join(folder, 'run-failed.html');
    const { code, stdout } = await runWalker(['run', 'examples/runner/shop-buggy.test.ts', '-m', 'examples/runner/shop.json', 'random(length(500))', '--seed', '1', '--report', failed]);
    expect(code).toBe(1);
    const line = /\nFailed: (model Shop, element e_Pay \(e_pay\), step (\d+): AssertionError: .*)\n/.exec(stdout);
    expect(line, stdout).not.toBeNull();
    const [, text, n] = line!;
    const { page, errors } = await watchedPage(browser);
    await page.goto(pathToFileURL(failed).href);
    const pay = page.getByTestId('model-graph').locator('g.edge[data-element-id=e_pay]');
    await pay.waitFor();
    const position = page.getByTestId('replay-position');
    const marked = page.getByTestId('last-steps').locator('li[data-failed]');

    // At the end, where the run failed: the failure as the run printed it, and every mark.
    expect(await page.getByTestId('report-failure').textContent()).toBe(`Failed: ${text} go to step ${n}`);
    expect(await position.textContent()).toBe(`step ${n} of ${n}: failed here`);
    expect(await pay.getAttribute('data-issue')).toBe('error');
    expect(await pay.getAttribute('class')).toContain('current');
    type Styles = { getComputedStyle(node: unknown): { stroke: string } };
    expect(await pay.locator('path').first().evaluate((path) => (globalThis as unknown as Styles).getComputedStyle(path).stroke)).toBe('rgb(220, 38, 38)');
    expect(await marked.count()).toBe(1);
    expect(await marked.getAttribute('data-element-id')).toBe('e_pay');
    expect(await page.getByTestId('last-steps').locator('li').first().getAttribute('data-failed')).toBe('true');
    expect(await page.getByTestId('replay-slider').getAttribute('list')).toBe('replay-failed-step');
    expect(await page.locator('#replay-failed-step option').getAttribute('value')).toBe(n);

    // A step back the failure is not in the last steps yet, and the element keeps its red ring.
    await page.getByTestId('replay-back').click();
    expect(await position.textContent()).toBe(`step ${Number(n) - 1} of ${n}`);
    expect(await marked.count()).toBe(0);
    expect(await pay.getAttribute('data-issue')).toBe('error');
    // From the start, the button goes back to it.
    await page.getByTestId('replay-slider').fill('0');
    expect(await position.textContent()).toBe(`step 0 of ${n}`);
    await page.getByTestId('replay-to-failure').click();
    expect(await position.textContent()).toBe(`step ${n} of ${n}: failed here`);
    expect(await page.getByTestId('replay-slider').inputValue()).toBe(n);
    expect(await marked.getAttribute('data-element-id')).toBe('e_pay');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('leaves the layout out of a report whose models the file places, and draws them there', async () => {
    const placed = join(folder, 'placed.html');
    // Every vertex of this Login.json has its x and y.
    const { code } = await runWalker(['offline', '-m', 'test/fixtures/models/graphwalker/Login.json', 'random(edge_coverage(100))', '--seed', '3', '--report', placed]);
    expect(code).toBe(0);
    const html = readFileSync(placed, 'utf8');
    expect(html.includes('<script type="text/plain" id="walker-layout-worker">'), 'the layout worker inline').toBe(false);
    // ELK's worker alone is 1.6 MB; the page's own script, stylesheet and this walk are some 50 KB.
    expect(html.length).toBeLessThan(200_000);
    const { page, errors, requests } = await watchedPage(browser);
    const url = pathToFileURL(placed).href;
    await page.goto(url);
    await page.locator('[data-testid=model-graph][data-state=drawn]').waitFor();
    expect(await page.getByTestId('model-graph').locator('g.vertex[data-element-id]').count()).toBe(4);
    expect(requests.filter((r) => r !== url && !r.startsWith('data:'))).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('refuses a report it cannot write before walking, naming the file', async () => {
    const missing = join(folder, 'no', 'such', 'run.html');
    const { code, stdout, stderr } = await runWalker(['offline', '-m', LOGIN, 'random(edge_coverage(100))', '--report', missing]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`Could not write the report '${missing}': its folder does not exist\n`);
  });
});
