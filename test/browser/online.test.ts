import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, http, startService, type Service } from '../cli/online-helpers.js';
import { launchBrowser, watchedPage } from './browser.js';

const PETCLINIC = 'test/fixtures/models/graphwalker/PetClinic.json';

let browser: Browser;
let service: Service;

beforeAll(async () => {
  ensureBuilt();
  [browser, service] = await Promise.all([
    launchBrowser(),
    startService(['-s', 'RESTFUL', '-p', '0', '-m', PETCLINIC, 'random(never)', '--seed', '11']),
  ]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

/** What getStatistics answers now. */
async function statistics(prefix = '/walker'): Promise<Record<string, any>> {
  return http(service.url, 'GET', `${prefix}/getStatistics`);
}

async function walk(prefix: string, steps: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < steps; i++) ids.push(String((await http(service.url, 'GET', `${prefix}/getNext`)).currentElementID));
  return ids;
}

describe('the page of walker online', () => {
  it('follows a walk over REST: step count, coverage and the current element within a second, visited elements marked', async () => {
    const { page, errors } = await watchedPage(browser);
    await page.goto(`${service.url}/`);
    await page.getByTestId('model-graph').locator('[data-element-id]').first().waitFor();
    // PetClinic.json: five models with 16 vertices and 25 edges in all, none blocked: each one drawn.
    expect(await page.locator('[data-testid=model-graph] g.vertex[data-element-id]').count()).toBe(16);
    expect(await page.locator('[data-testid=model-graph] g.edge[data-element-id]').count()).toBe(25);
    expect(await page.locator('[data-testid=model-graph] .title').count()).toBe(5);

    const before = Number(await page.getByTestId('step-count').textContent());
    const ids = await walk('/walker', 40);
    const stats = await statistics();
    const steps = before + 40;
    await expect.poll(() => page.getByTestId('step-count').textContent(), { timeout: 1000, interval: 50 }).toBe(String(steps));
    await expect.poll(() => page.getByTestId('edge-coverage').textContent(), { timeout: 1000, interval: 50 }).toBe(String(stats.edgeCoverage));
    expect(await page.getByTestId('vertex-coverage').textContent()).toBe(String(stats.vertexCoverage));
    expect(await page.getByTestId('current-element').getAttribute('data-element-id')).toBe(ids.at(-1));

    // Marked: exactly the elements getStatistics does not list as unvisited.
    const unvisited = new Set<string>([
      ...stats.edgesNotVisited.map((e: { edgeId: string }) => e.edgeId),
      ...stats.verticesNotVisited.map((v: { vertexId: string }) => v.vertexId),
    ]);
    const marks = await page
      .locator('[data-testid=model-graph] [data-element-id]')
      .evaluateAll((nodes) => nodes.map((n) => [n.getAttribute('data-element-id'), n.getAttribute('data-visited')] as const));
    expect(marks.filter(([, visited]) => visited === 'true')).toHaveLength(stats.totalNumberOfVisitedVertices + stats.totalNumberOfVisitedEdges);
    for (const [id, visited] of marks) expect(visited, id).toBe(unvisited.has(id as string) ? 'false' : 'true');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps up with a walk at full speed and ends on its exact figures', async () => {
    const { page, errors } = await watchedPage(browser);
    await page.goto(`${service.url}/`);
    await page.getByTestId('model-graph').locator('[data-element-id]').first().waitFor();
    await walk('/walker', 500);
    const stats = await statistics();
    const steps = (await http(service.url, 'GET', '/walker/view/session')) as { walk: { steps: number } };
    await expect.poll(() => page.getByTestId('step-count').textContent(), { timeout: 1000, interval: 50 }).toBe(String(steps.walk.steps));
    expect(await page.getByTestId('edge-coverage').textContent()).toBe(String(stats.edgeCoverage));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens a session of /walker/sessions at /?session=<id>, listed in the picker', async () => {
    const created = await fetch(`${service.url}/walker/sessions?generator=random(never)`, {
      method: 'POST',
      body: await (await import('node:fs/promises')).readFile('test/fixtures/models/graphwalker/Login.json', 'utf8'),
    });
    const { id } = (await created.json()) as { id: string };
    const { page, errors } = await watchedPage(browser);
    await page.goto(`${service.url}/?session=${id}`);
    await page.getByTestId('model-graph').locator('[data-element-id]').first().waitFor();
    await walk(`/walker/sessions/${id}`, 5);
    await expect.poll(() => page.getByTestId('step-count').textContent(), { timeout: 1000, interval: 50 }).toBe('5');
    // Login.json has one model, named Login.
    expect(await page.locator('[data-testid=model-graph] .title').allTextContents()).toEqual(['Login']);
    await expect.poll(() => page.getByTestId('session-picker').locator('option').allTextContents()).toContainEqual(expect.stringContaining(id));
    expect(await page.getByTestId('session-picker').inputValue()).toBe(id);
    expect(await page.getByTestId('last-steps').locator('li').count()).toBe(5);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says so when the session asked for is not there', async () => {
    const { page } = await watchedPage(browser);
    await page.goto(`${service.url}/?session=nope`);
    await expect
      .poll(() => page.getByTestId('note').textContent(), { timeout: 2000 })
      .toBe("No session 'nope': it was deleted or never existed. Create one with POST /walker/sessions.");
    await page.close();
  });

  it('redraws a draft edited over the API, with its validation issue', async () => {
    const post = (path: string, body: object) =>
      fetch(`${service.url}/walker/drafts${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    const draft = ((await (await post('', { generator: 'random(edge_coverage(100))' })).json()) as { draft_id: string }).draft_id;
    const { page, errors } = await watchedPage(browser);
    await page.goto(`${service.url}/?draft=${draft}`);
    await expect.poll(() => page.getByTestId('draft-revision').textContent()).toBe('0');
    await post(`/${draft}/vertices`, { id: 'v_A', name: 'v_A' });
    await post(`/${draft}/vertices`, { id: 'v_B', name: 'v_B' });
    await post(`/${draft}/edges`, { id: 'e_AB', name: 'e_AB', source_vertex_id: 'v_A', target_vertex_id: 'v_B' });
    await expect.poll(() => page.getByTestId('draft-revision').textContent(), { timeout: 1000, interval: 50 }).toBe('3');
    // Revision 3 is laid out in ELK's worker, then drawn: milliseconds for three elements, five seconds for a busy machine.
    await page.locator('[data-testid=model-graph][data-state=drawn]').waitFor({ timeout: 5000 });
    const drawn = await page.locator('[data-testid=model-graph] [data-element-id]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-element-id')).sort());
    expect(drawn).toEqual(['e_AB', 'v_A', 'v_B']);
    // No start element yet: the validation says so, as GET .../validation does.
    const validation = (await http(service.url, 'GET', `/walker/drafts/${draft}/validation`)) as { issues: Array<{ code: string }> };
    const codes = await page.getByTestId('draft-issues').locator('li').evaluateAll((items) => items.map((li) => li.getAttribute('data-code')));
    expect(codes).toEqual(validation.issues.map((i) => i.code));
    expect(codes).toContain('no_start_element');
    expect(await page.getByTestId('draft-valid').getAttribute('data-valid')).toBe('false');
    expect(errors).toEqual([]);
    await page.close();
  });
});
