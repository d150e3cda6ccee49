import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumPath } from '../../bench/find-chromium.js';

/** A headless Chromium for one test file; close it in afterAll. */
export function launchBrowser(): Promise<Browser> {
  // Root (CI) cannot use Chromium's sandbox; the pages it opens are the project's own.
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox'] });
}

/** A page that records every console error and failed request, to assert there were none. */
export async function watchedPage(browser: Browser): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => requests.push(request.url()));
  return { page, errors, requests };
}

/** Where a drawn element stands on the screen: the drawing's scale there, and the element's centre in pixels. */
export interface OnScreen {
  readonly scale: number;
  readonly x: number;
  readonly y: number;
}

/**
 * Resolves once the page has drawn its next frame: a pan or zoom (web/pan-zoom.ts, by @panzoom/panzoom) moves
 * the drawing at the next animation frame, which is when the reader sees it, and what is on the screen is read
 * after it. Animation frame callbacks run in the order asked, so this one runs after the view's.
 */
export async function nextFrame(page: Page): Promise<void> {
  type Frames = { requestAnimationFrame(callback: () => void): void };
  await page.evaluate(() => new Promise<void>((done) => (globalThis as unknown as Frames).requestAnimationFrame(() => done())));
}

/** The element `id` of the drawing as the reader sees it, once the frame under way is drawn (docs/view.md's `data-element-id`). */
export async function onScreen(page: Page, id: string): Promise<OnScreen> {
  await nextFrame(page);
  return page.evaluate((element) => {
    type Drawn = { getScreenCTM(): { a: number } | null; getBoundingClientRect(): { x: number; y: number; width: number; height: number } };
    const doc = (globalThis as unknown as { document: { querySelector(selector: string): Drawn | null } }).document;
    const g = doc.querySelector(`[data-testid=model-graph] [data-element-id="${element}"]`);
    if (g === null) throw new Error(`No element '${element}' is drawn.`);
    const box = g.getBoundingClientRect();
    return { scale: (g.getScreenCTM() as { a: number }).a, x: box.x + box.width / 2, y: box.y + box.height / 2 };
  }, id);
}
