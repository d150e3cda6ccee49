import { statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { chromiumPath } from './find-chromium.js';
import { Host } from './http-host.js';
import type { BenchRow, BenchSection } from './report.js';

const SECTION = 'editor';
/** The targets: a 200-element model ready to edit within 2 s; a drag redrawn at 60 frames a second. */
const OPEN_TARGET_MS = 2_000;
const FPS_TARGET = 60;

/**
 * The editor (docs/editor.md) in headless Chromium against a walker service in a worker thread: the size of
 * the page's bundle, the requests an edit costs (all requests, and the changes alone), how long a 200-element
 * draft takes from navigation to drawn and ready, and the frames a second while a vertex with 20 edges is
 * dragged. Chromium is the one the browser tests drive (bench/find-chromium.ts).
 */
export const benchEditor: BenchSection = async () => {
  const web = join(import.meta.dirname, '..', 'web');
  const rows: BenchRow[] = [
    { section: SECTION, subject: 'the page (view and editor)', metric: 'app.js bytes', value: statSync(join(web, 'app.js')).size },
    { section: SECTION, subject: 'the page (view and editor)', metric: 'app.css bytes', value: statSync(join(web, 'app.css')).size },
  ];
  const executablePath = chromiumPath();
  const host = await Host.start('walker');
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  try {
    const url = `http://127.0.0.1:${host.client.port}`;
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    rows.push(...(await requestsPerEdit(page, url)));
    rows.push(...(await largeDraft(page, url)));
  } finally {
    await browser.close();
    await host.close();
  }
  return rows;
};

async function revisionIs(page: Page, n: number): Promise<void> {
  await page.waitForFunction(`document.querySelector('[data-testid=revision]')?.textContent === '${n}'`);
}

/** Twenty edits of the kinds a person makes, counting every request the page sends on the way. */
async function requestsPerEdit(page: Page, url: string): Promise<BenchRow[]> {
  await page.goto(`${url}/?edit`);
  await revisionIs(page, 0);
  const sent: string[] = [];
  const listener = (request: { method(): string; url(): string }): void => {
    if (request.url().includes('/walker/')) sent.push(`${request.method()} ${request.url()}`);
  };
  page.on('request', listener);
  const canvas = (await page.getByTestId('model-graph').boundingBox()) as { x: number; y: number };
  let revision = 0;
  for (let i = 0; i < 5; i++) {
    await page.mouse.dblclick(canvas.x + 120 + i * 150, canvas.y + 200);
    await revisionIs(page, ++revision);
    await page.getByTestId('field-name').fill(`v_${i}`);
    await page.getByTestId('field-name').press('Tab');
    await revisionIs(page, ++revision);
    await page.keyboard.press('Escape');
    await page.keyboard.press('ArrowDown');
    await revisionIs(page, ++revision);
  }
  for (let i = 0; i < 4; i++) {
    const from = (await page.locator(`[data-element-id="v${i + 1}"] [data-port]`).boundingBox()) as { x: number; y: number };
    const to = (await page.locator(`[data-element-id="v${i + 2}"] .box`).boundingBox()) as { x: number; y: number };
    await page.mouse.move(from.x + 4, from.y + 4);
    await page.mouse.down();
    await page.mouse.move(to.x + 10, to.y + 10, { steps: 5 });
    await page.mouse.up();
    await revisionIs(page, ++revision);
  }
  await page.keyboard.press('Control+z');
  await revisionIs(page, ++revision);
  page.off('request', listener);
  const edits = revision;
  const changes = sent.filter((r) => /^(POST|PATCH|DELETE) .*\/walker\/drafts\/[^/]+(\/|$)/.test(r) && !r.includes('/script-check')).length;
  return [
    { section: SECTION, subject: `${edits} edits (add, rename, move, edge, undo)`, metric: 'change requests per edit', value: changes / edits, target: '1', met: changes === edits },
    { section: SECTION, subject: `${edits} edits (add, rename, move, edge, undo)`, metric: 'all requests per edit', value: sent.length / edits },
  ];
}

/** A draft of 100 vertices in a ring with 100 edges, 20 of them at one vertex: opened, then that vertex dragged. */
async function largeDraft(page: Page, url: string): Promise<BenchRow[]> {
  const post = async (path: string, body: object): Promise<Record<string, unknown>> =>
    (await (await fetch(`${url}/walker/drafts${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as Record<string, unknown>;
  const id = (await post('', { generator: 'random(edge_coverage(100))' })).draft_id as string;
  for (let i = 0; i < 100; i++) await post(`/${id}/vertices`, { id: `n${i}`, properties: { x: (i % 10) * 130, y: Math.floor(i / 10) * 90 } });
  for (let i = 0; i < 100; i++) {
    const [source, target] = i < 20 ? ['n45', `n${(i * 5) % 100}`] : [`n${i}`, `n${(i + 1) % 100}`];
    await post(`/${id}/edges`, { id: `r${i}`, source_vertex_id: source === target ? 'n0' : source, target_vertex_id: target });
  }
  const started = performance.now();
  await page.goto(`${url}/?draft=${id}&edit`);
  await page.waitForFunction(`document.querySelectorAll('[data-testid=model-graph] [data-element-id]').length === 200 && document.querySelector('[data-testid=revision]')?.textContent === '200'`);
  const openMs = performance.now() - started;
  const box = (await page.locator('[data-element-id="n45"] .box').boundingBox()) as { x: number; y: number; width: number; height: number };
  // Frames drawn while the pointer moves the vertex for about a second, one move every 8 ms (faster than 60 Hz).
  await page.evaluate(`window.__frames = 0; (function count() { window.__frames++; requestAnimationFrame(count); })()`);
  await page.mouse.move(box.x + 10, box.y + 10);
  await page.mouse.down();
  const from = performance.now();
  const frames0 = (await page.evaluate('window.__frames')) as number;
  for (let i = 0; i < 120; i++) {
    await page.mouse.move(box.x + 10 + i * 2, box.y + 10 + (i % 20));
    await new Promise((done) => setTimeout(done, 8));
  }
  const frames = ((await page.evaluate('window.__frames')) as number) - frames0;
  const seconds = (performance.now() - from) / 1000;
  await page.mouse.up();
  return [
    { section: SECTION, subject: '200 elements (100 vertices, 100 edges)', metric: 'open to ready ms', value: Math.round(openMs), target: `<= ${OPEN_TARGET_MS}`, met: openMs <= OPEN_TARGET_MS },
    { section: SECTION, subject: 'drag of a vertex with 20 edges', metric: 'frames/s', value: Math.round(frames / seconds), target: `>= ${FPS_TARGET}`, met: frames / seconds >= FPS_TARGET * 0.95 },
  ];
}
