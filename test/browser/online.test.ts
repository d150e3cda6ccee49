import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, http, startService, type Service } from '../cli/online-helpers.js';
import { readFileSync } from 'node:fs';
import { heat } from '../../web/heat.js';
import { launchBrowser, onScreen, watchedPage } from './browser.js';

const PETCLINIC = 'test/fixtures/models/graphwalker/PetClinic.json';

type ModelFile = { models: Array<{ name: string; vertices: Array<{ id: string; name?: string }>; edges: Array<{ id: string; name?: string; sourceVertexId?: string; targetVertexId: string }> }> };

/**
 * How the page names each element of PetClinic.json's five models, by id: its model first, as elements of
 * different models share names; an unnamed edge by the vertices it joins.
 */
function petClinicLabels(): Map<string, string> {
  const file = JSON.parse(readFileSync(PETCLINIC, 'utf8')) as ModelFile;
  const labels = new Map<string, string>();
  for (const model of file.models) {
    const vertex = new Map(model.vertices.map((v) => [v.id, v.name ?? v.id]));
    for (const v of model.vertices) labels.set(v.id, `${model.name} › ${v.name ?? v.id}`);
    for (const e of model.edges) {
      const name = e.name ?? `${e.sourceVertexId === undefined ? 'start' : vertex.get(e.sourceVertexId)} → ${vertex.get(e.targetVertexId)}`;
      labels.set(e.id, `${model.name} › ${name}`);
    }
  }
  return labels;
}

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

/** A session walking PetClinic.json at random, forever: the same path every run (the service's --seed 11). */
async function petClinicSession(): Promise<string> {
  const created = await fetch(`${service.url}/walker/sessions?generator=random(never)`, { method: 'POST', body: readFileSync(PETCLINIC, 'utf8') });
  expect(created.status).toBe(201);
  return ((await created.json()) as { id: string }).id;
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
    await expect.poll(() => page.getByTestId('step-count').textContent(), { timeout: 10_000, interval: 50 }).toBe(String(steps));
    await expect.poll(() => page.getByTestId('edge-coverage').textContent(), { timeout: 10_000, interval: 50 }).toBe(String(stats.edgeCoverage));
    expect(await page.getByTestId('vertex-coverage').textContent()).toBe(String(stats.vertexCoverage));
    expect(await page.getByTestId('edges-visited').textContent()).toBe(String(stats.totalNumberOfVisitedEdges));
    expect(await page.getByTestId('vertices-total').textContent()).toBe(String(stats.totalNumberOfVertices));
    expect(await page.getByTestId('current-element').getAttribute('data-element-id')).toBe(ids.at(-1));
    // The elements not visited, as getStatistics lists them: edges, then vertices.
    const notVisited = await page.getByTestId('not-visited').locator('li[data-element-id]').evaluateAll((items) => items.map((li) => li.getAttribute('data-element-id')));
    expect(notVisited).toEqual([...stats.edgesNotVisited.map((e: { edgeId: string }) => e.edgeId), ...stats.verticesNotVisited.map((v: { vertexId: string }) => v.vertexId)]);

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
    await expect.poll(() => page.getByTestId('step-count').textContent(), { timeout: 10_000, interval: 50 }).toBe(String(steps.walk.steps));
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
    await expect.poll(() => page.getByTestId('step-count').textContent(), { timeout: 10_000, interval: 50 }).toBe('5');
    // Login.json has one model, named Login.
    expect(await page.locator('[data-testid=model-graph] .title').allTextContents()).toEqual(['Login']);
    expect(await page.getByTestId('session-picker').inputValue()).toBe(id);
    expect(await page.getByTestId('last-steps').locator('li').count()).toBe(5);
    // Its id cut to the first eight digits (the whole id is the option's title), its models and its steps.
    const option = page.getByTestId('session-picker').locator(`option[value="${id}"]`);
    expect(await option.getAttribute('title')).toBe(id);
    // The list is read again when the pointer comes to it: within a second, where the background reading waits five.
    await walk(`/walker/sessions/${id}`, 3);
    await page.getByTestId('session-picker').hover();
    await expect.poll(() => option.textContent(), { timeout: 10_000, interval: 50 }).toBe(`${id.slice(0, 8)}… — Login, 8 steps`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('names the last steps by model, unnamed edges by their ends, and says why the steps before the page are not listed', async () => {
    const id = await petClinicSession();
    const before = await walk(`/walker/sessions/${id}`, 10);
    const { page, errors } = await watchedPage(browser);
    await page.goto(`${service.url}/?session=${id}`);
    await expect.poll(() => page.getByTestId('step-count').textContent()).toBe('10');
    // Nobody watched those ten steps: none is listed, and the page says why.
    expect(await page.getByTestId('last-steps').locator('li[data-element-id]').count()).toBe(0);
    expect(await page.getByTestId('unlisted-steps').textContent()).toBe(
      'None listed: the 10 steps so far came before this page began watching, and steps are noted only while someone watches.',
    );

    // Walk on until the walk crosses an edge without a name: it reads by the vertices it joins.
    const labels = petClinicLabels();
    const unnamed = new Set(['dcb10736-468c-11e7-a919-92ebcb67fe33', '971eeba6-468d-11e7-a919-92ebcb67fe33']);
    const after: string[] = [];
    while (after.length < 500 && !unnamed.has(after.at(-1) ?? '')) after.push(...(await walk(`/walker/sessions/${id}`, 1)));
    expect(unnamed.has(after.at(-1) as string), 'the walk crossed an unnamed edge').toBe(true);
    await expect.poll(() => page.getByTestId('step-count').textContent(), { timeout: 10_000, interval: 50 }).toBe(String(before.length + after.length));
    expect(await page.getByTestId('current-element').textContent()).toBe(labels.get(after.at(-1) as string));
    expect(labels.get(after.at(-1) as string)).toMatch(/^(NewOwner › v_IncorrectData → v_NewOwner|Veterinarians › v_SearchResult → v_Veterinarians)$/);
    const listed = await page.getByTestId('last-steps').locator('li[data-element-id]').allTextContents();
    const newest = after.slice(-20).reverse();
    expect(listed).toEqual(newest.map((step) => labels.get(step)));
    // Fewer than the 20 a list holds: the ten before the page are said to be missing.
    const note = page.getByTestId('unlisted-steps');
    if (after.length < 20) expect(await note.textContent()).toBe('… and 10 earlier, taken before this page began watching: steps are noted only while someone watches.');
    else expect(await note.count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('tells the visits of the element under the pointer, live, and explains the colours in a legend', async () => {
    const id = await petClinicSession();
    const { page, errors } = await watchedPage(browser);
    await page.goto(`${service.url}/?session=${id}`);
    await page.locator('[data-testid=model-graph][data-state=drawn]').waitFor();
    await walk(`/walker/sessions/${id}`, 60);
    await expect.poll(() => page.getByTestId('step-count').textContent(), { timeout: 10_000, interval: 50 }).toBe('60');

    // v_FindOwners of the model FindOwners: where the walk starts, so on the screen when the page opens.
    const vertex = 'b53814ec-468c-11e7-a919-92ebcb67fe33';
    const drawn = page.getByTestId('model-graph').locator(`[data-element-id="${vertex}"]`);
    const { x, y } = await onScreen(page, vertex);
    await page.mouse.move(x, y);
    const tooltip = page.getByTestId('tooltip');
    await tooltip.waitFor();
    const visits = Number(await drawn.getAttribute('data-visits'));
    expect(visits).toBeGreaterThan(0);
    expect(await tooltip.innerText()).toBe(`FindOwners › v_FindOwners\nvertex ${vertex}\nshared state: FindOwners\nvisited ${visits} times`);
    // The walk goes on under the pointer: the tooltip counts along.
    await walk(`/walker/sessions/${id}`, 200);
    await expect.poll(() => page.getByTestId('step-count').textContent(), { timeout: 10_000, interval: 50 }).toBe('260');
    const later = Number(await drawn.getAttribute('data-visits'));
    expect(later).toBeGreaterThan(visits);
    expect(await tooltip.innerText()).toContain(`visited ${later} times`);

    // Every element coloured by its count against the most any element has now, counts that did not change too.
    const colours = await page.getByTestId('model-graph').locator('[data-element-id]').evaluateAll((nodes) =>
      nodes.map((n) => [Number(n.getAttribute('data-visits')), (n as unknown as { style: { getPropertyValue(name: string): string } }).style.getPropertyValue('--heat')] as const),
    );
    const most = Math.max(...colours.map(([count]) => count));
    for (const [count, colour] of colours) expect(colour).toBe(count > 0 ? heat(count, most) : '');
    // The legend: the heat from one visit to the most any element has, and every mark the drawing uses.
    const legend = (await page.getByTestId('legend').innerText()).replace(/\s+/g, ' ').trim();
    expect(legend).toBe(`1 visit … ${most} visits not walked yet where the walk stands same shared state start`);
    await page.mouse.move(1, 1);
    await expect.poll(() => tooltip.isHidden()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says so when the session asked for is not there', async () => {
    const { page } = await watchedPage(browser);
    await page.goto(`${service.url}/?session=nope`);
    await expect
      .poll(() => page.getByTestId('note').textContent(), { timeout: 10_000 })
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
    await expect.poll(() => page.getByTestId('draft-revision').textContent(), { timeout: 10_000, interval: 50 }).toBe('3');
    // Revision 3 is laid out in ELK's worker, then drawn: milliseconds for three elements, five seconds for a busy machine.
    await page.locator('[data-testid=model-graph][data-state=drawn]').waitFor({ timeout: 10_000 });
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
