import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, startService, type Service } from '../cli/online-helpers.js';
import { launchBrowser, watchedPage } from './browser.js';

let browser: Browser;
let service: Service;

beforeAll(async () => {
  ensureBuilt();
  [browser, service] = await Promise.all([launchBrowser(), startService(['-s', 'RESTFUL', '-p', '0'])]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

/** A screen box. */
interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

function overlap(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Where an element's parts are on the screen: its line (or box) and its label. */
async function parts(page: Page, id: string): Promise<{ line: Rect; label: Rect | null }> {
  const element = page.getByTestId('model-graph').locator(`[data-element-id="${id}"]`);
  const line = await element.locator('path, rect.box').first().boundingBox();
  const label = await element.locator('text').first().boundingBox();
  return { line: line as Rect, label };
}

async function opened(path: string): Promise<{ page: Page; errors: string[] }> {
  const watched = await watchedPage(browser);
  await watched.page.goto(`${service.url}${path}`);
  await watched.page.locator('[data-testid=model-graph][data-state=drawn]').waitFor();
  return watched;
}

async function session(file: string): Promise<string> {
  const response = await fetch(`${service.url}/walker/sessions`, { method: 'POST', body: readFileSync(file, 'utf8') });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

describe('the loops of a vertex', () => {
  // examples/models/login.json: ELK lays it out; v_prompt has two loops. Login.json: its file places it; n2 has two.
  for (const [file, vertex, loops] of [
    ['examples/models/login.json', 'v_prompt', ['e_invalid', 'e_remember']],
    ['test/fixtures/models/graphwalker/Login.json', 'n2', ['e5', 'e8']],
  ] as const) {
    it(`are drawn apart, each label clear of the other, the vertex and every other element (${file})`, async () => {
      const { page, errors } = await opened(`/?session=${await session(file)}`);
      const box = (await parts(page, vertex)).line;
      const [first, second] = await Promise.all(loops.map((loop) => parts(page, loop)));
      expect(overlap(first.line, second.line), 'the two loops overlap').toBe(false);
      // One on each side of the vertex: the first on the right, the second on the left.
      const middle = box.x + box.width / 2;
      expect(first.line.x, 'the first loop starts right of the middle').toBeGreaterThan(middle);
      expect(second.line.x + second.line.width, 'the second loop ends left of the middle').toBeLessThan(middle);
      expect(overlap(first.label as Rect, second.label as Rect), 'the two labels overlap').toBe(false);
      // No label of a loop covers a vertex, or the label of any other edge.
      const drawn = await page.getByTestId('model-graph').locator('g.vertex rect.box, g.edge text').evaluateAll((nodes) =>
        nodes.map((n) => {
          const r = n.getBoundingClientRect();
          return { id: n.parentElement?.getAttribute('data-element-id'), box: { x: r.x, y: r.y, width: r.width, height: r.height } };
        }),
      );
      for (const loop of loops) {
        const label = drawn.find((d) => d.id === loop)?.box as Rect;
        const covered = drawn.filter((other) => other.id !== loop && overlap(label, other.box)).map((other) => other.id);
        expect(covered, `what the label of ${loop} covers`).toEqual([]);
      }
      expect(errors).toEqual([]);
      await page.close();
    });
  }
});

describe('a start vertex', () => {
  it('is marked with the dot and arrow of a start edge, in a draft as in a walk', async () => {
    const call = (path: string, body: object, method = 'POST') =>
      fetch(`${service.url}/walker/drafts${path}`, { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    const draft = ((await (await call('', {})).json()) as { draft_id: string }).draft_id;
    for (const id of ['v_A', 'v_B']) await call(`/${draft}/vertices`, { id, name: id });
    await call(`/${draft}/edges`, { id: 'e_AB', name: 'e_AB', source_vertex_id: 'v_A', target_vertex_id: 'v_B' });
    expect((await call(`/${draft}`, { start_element_id: 'v_A' }, 'PATCH')).status).toBe(200);
    const { page, errors } = await opened(`/?draft=${draft}`);
    const mark = page.getByTestId('model-graph').locator('[data-start-of="v_A"]');
    expect(await mark.count()).toBe(1);
    // Not an element of the model: no data-element-id, no visits.
    expect(await mark.getAttribute('data-element-id')).toBeNull();
    const dot = (await mark.locator('circle').boundingBox()) as Rect;
    const vertex = (await parts(page, 'v_A')).line;
    expect(dot.y + dot.height, 'the dot above the vertex').toBeLessThan(vertex.y);
    expect(Math.abs(dot.x + dot.width / 2 - (vertex.x + vertex.width / 2)), 'the dot over its middle').toBeLessThan(vertex.width / 2);
    // The other vertex, no start, has none.
    expect(await page.getByTestId('model-graph').locator('[data-start-of]').count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();

    // A walk of a model whose start element is a vertex.
    const model = {
      models: [
        {
          id: 'm',
          name: 'StartsOnAVertex',
          generator: 'random(never)',
          startElementId: 'v_A',
          vertices: [{ id: 'v_A', name: 'v_A' }, { id: 'v_B', name: 'v_B' }],
          edges: [{ id: 'e_AB', name: 'e_AB', sourceVertexId: 'v_A', targetVertexId: 'v_B' }, { id: 'e_BA', name: 'e_BA', sourceVertexId: 'v_B', targetVertexId: 'v_A' }],
        },
      ],
    };
    const response = await fetch(`${service.url}/walker/sessions`, { method: 'POST', body: JSON.stringify(model) });
    const walked = await opened(`/?session=${((await response.json()) as { id: string }).id}`);
    expect(await walked.page.getByTestId('model-graph').locator('[data-start-of="v_A"] circle').count()).toBe(1);
    expect(walked.errors).toEqual([]);
    await walked.page.close();
  });
});

describe('a layout that cannot run', () => {
  it('says why in the pane, rather than laying out forever', async () => {
    const id = await session('examples/models/login.json');
    const { page, errors } = await watchedPage(browser);
    // A proxy that does not pass the layout worker on.
    await page.route('**/assets/elk-worker.js', (route) => route.fulfill({ status: 404, body: 'not here' }));
    await page.goto(`${service.url}/?session=${id}`);
    await page.locator('[data-testid=model-graph][data-state=failed]').waitFor();
    expect(await page.getByTestId('graph-status').textContent()).toBe('The layout worker failed: its script did not load');
    // The figures go on regardless.
    expect(await page.getByTestId('step-count').textContent()).toBe('0');
    expect(errors).toEqual([]);
    await page.close();
  });
});
