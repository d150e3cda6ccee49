import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, startService, type Service } from '../cli/online-helpers.js';
import { launchBrowser, nextFrame, onScreen, watchedPage } from './browser.js';

const PETCLINIC = 'test/fixtures/models/graphwalker/PetClinic.json';
/** v_FindOwners of the model FindOwners, the first of PetClinic.json. */
const FIND_OWNERS = 'b53814ec-468c-11e7-a919-92ebcb67fe33';

/** The scales of web/pan-zoom.ts, as a reader sees them: a name of 12 px drawn at 9 px at the least, 15 px at the most. */
const MIN_LEGIBLE_SCALE = 0.75;
const MAX_START_SCALE = 1.25;
/** One wheel notch, one press of + or −. */
const ZOOM_STEP = 1.25;
/** The width of a fingertip on the screen, in CSS pixels (about 1 cm at 96 to the inch). */
const FINGERTIP = 40;

let browser: Browser;
let service: Service;

beforeAll(async () => {
  ensureBuilt();
  [browser, service] = await Promise.all([launchBrowser(), startService(['-s', 'RESTFUL', '-p', '0', '-m', PETCLINIC, 'random(never)', '--seed', '5'])]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

/** The drawing's box and the pane's, on the screen once the frame under way is drawn. */
async function boxes(page: Page): Promise<{ drawing: { x: number; y: number; width: number; height: number }; pane: { x: number; y: number; width: number; height: number } }> {
  await nextFrame(page);
  const drawing = await page.getByTestId('model-graph').boundingBox();
  const pane = await page.locator('.graph-canvas').boundingBox();
  return { drawing: drawing as NonNullable<typeof drawing>, pane: pane as NonNullable<typeof pane> };
}

async function opened(path: string): Promise<{ page: Page; errors: string[] }> {
  const watched = await watchedPage(browser);
  await watched.page.goto(`${service.url}${path}`);
  await watched.page.locator('[data-testid=model-graph][data-state=drawn]').waitFor();
  return watched;
}

describe('the drawing, panned and zoomed', () => {
  it("starts a small draft at a capped scale, whole in the pane, and keeps the reader's view as it changes", async () => {
    const post = (path: string, body: object) =>
      fetch(`${service.url}/walker/drafts${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    const draft = ((await (await post('', {})).json()) as { draft_id: string }).draft_id;
    for (const id of ['v_A', 'v_B', 'v_C']) await post(`/${draft}/vertices`, { id, name: id });
    await post(`/${draft}/edges`, { id: 'e_AB', name: 'e_AB', source_vertex_id: 'v_A', target_vertex_id: 'v_B' });
    const { page, errors } = await opened(`/?draft=${draft}`);
    // Three vertices would fill the pane at three times their size: the start is capped instead.
    expect((await onScreen(page, 'v_A')).scale).toBeCloseTo(MAX_START_SCALE, 3);
    const { drawing, pane } = await boxes(page);
    expect(drawing.x).toBeGreaterThanOrEqual(pane.x);
    expect(drawing.y).toBeGreaterThanOrEqual(pane.y);
    expect(drawing.x + drawing.width).toBeLessThanOrEqual(pane.x + pane.width);
    expect(drawing.y + drawing.height).toBeLessThanOrEqual(pane.y + pane.height);
    expect(await page.getByTestId('zoom-level').textContent()).toBe('125 %');

    // The reader zooms in, then the draft changes: it is drawn again where the reader had it.
    await page.getByTestId('zoom-in').click();
    const zoomed = await onScreen(page, 'v_A');
    await post(`/${draft}/vertices`, { id: 'v_D', name: 'v_D' });
    await expect.poll(() => page.getByTestId('draft-revision').textContent()).toBe('5');
    await page.locator('[data-testid=model-graph][data-state=drawn]').waitFor();
    expect((await onScreen(page, 'v_A')).scale).toBeCloseTo(zoomed.scale, 3);
    expect(await page.getByTestId('zoom-level').textContent()).toBe('156 %');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('starts five models at a legible scale rather than shrunk to fit, and fits them on asking', async () => {
    const { page, errors } = await opened('/');
    // PetClinic.json's five models do not fit a 1280 × 800 window at a legible scale: the page starts legible.
    const start = await onScreen(page, FIND_OWNERS);
    expect(start.scale).toBeGreaterThanOrEqual(MIN_LEGIBLE_SCALE - 1e-3);
    expect(start.scale).toBeLessThanOrEqual(MAX_START_SCALE + 1e-3);
    const { drawing, pane } = await boxes(page);
    expect(drawing.height > pane.height || drawing.width > pane.width, 'the drawing is larger than the pane').toBe(true);

    await page.getByTestId('zoom-fit').click();
    const fitted = await boxes(page);
    expect(fitted.drawing.x).toBeGreaterThanOrEqual(fitted.pane.x);
    expect(fitted.drawing.y).toBeGreaterThanOrEqual(fitted.pane.y);
    expect(fitted.drawing.x + fitted.drawing.width).toBeLessThanOrEqual(fitted.pane.x + fitted.pane.width + 0.5);
    expect(fitted.drawing.y + fitted.drawing.height).toBeLessThanOrEqual(fitted.pane.y + fitted.pane.height + 0.5);
    expect((await onScreen(page, FIND_OWNERS)).scale).toBeLessThan(start.scale);

    await page.getByTestId('zoom-reset').click();
    expect(await onScreen(page, FIND_OWNERS)).toEqual(start);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('zooms a step per wheel notch about the pointer, and pans by dragging', async () => {
    const { page, errors } = await opened('/');
    const before = await onScreen(page, FIND_OWNERS);
    // The pointer on the vertex: zooming about it leaves it where it is on the screen.
    await page.mouse.move(before.x, before.y);
    await page.mouse.wheel(0, -100);
    await expect.poll(async () => (await onScreen(page, FIND_OWNERS)).scale / before.scale).toBeCloseTo(ZOOM_STEP, 2);
    const zoomed = await onScreen(page, FIND_OWNERS);
    expect(Math.abs(zoomed.x - before.x)).toBeLessThan(1);
    expect(Math.abs(zoomed.y - before.y)).toBeLessThan(1);
    await page.mouse.wheel(0, 100);
    await expect.poll(async () => (await onScreen(page, FIND_OWNERS)).scale).toBeCloseTo(before.scale, 3);

    // Dragged by (120, 80): the drawing follows the pointer.
    const at = await onScreen(page, FIND_OWNERS);
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    await page.mouse.move(at.x + 60, at.y + 40);
    await page.mouse.move(at.x + 120, at.y + 80);
    // The hand closes while it holds the drawing, and opens again after.
    type Styles = { getComputedStyle(node: unknown): { cursor: string } };
    const cursor = () => page.locator('.graph-canvas').evaluate((pane) => (globalThis as unknown as Styles).getComputedStyle(pane).cursor);
    expect(await cursor()).toBe('grabbing');
    await page.mouse.up();
    expect(await cursor()).toBe('grab');
    const dragged = await onScreen(page, FIND_OWNERS);
    expect(dragged.x - at.x).toBeCloseTo(120, 0);
    expect(dragged.y - at.y).toBeCloseTo(80, 0);
    expect(dragged.scale).toBe(at.scale);

    // The buttons zoom by the same step about the middle of the pane.
    await page.getByTestId('zoom-in').click();
    expect((await onScreen(page, FIND_OWNERS)).scale / at.scale).toBeCloseTo(ZOOM_STEP, 2);
    await page.getByTestId('zoom-out').click();
    expect((await onScreen(page, FIND_OWNERS)).scale).toBeCloseTo(at.scale, 3);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('zooms about the middle of two fingers as they spread on a touch screen, and pans with one', async () => {
    const { page, errors } = await opened('/');
    const before = await onScreen(page, FIND_OWNERS);
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: ReadonlyArray<readonly [number, number]>) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y], id) => ({ x, y, id })) });
    // Two fingers either side of the vertex, 100 px apart, spread to 300 px apart about it.
    await touch('touchStart', [[before.x - 50, before.y], [before.x + 50, before.y]]);
    for (let d = 60; d <= 150; d += 10) await touch('touchMove', [[before.x - d, before.y], [before.x + d, before.y]]);
    await touch('touchEnd', []);
    const pinched = await onScreen(page, FIND_OWNERS);
    expect(pinched.scale).toBeGreaterThan(before.scale * ZOOM_STEP);
    // The vertex stays under the fingers' middle, within a fingertip (about 1 cm, 40 px). Not to the pixel:
    // the two fingers move in one frame, and @panzoom/panzoom zooms for the second with the layer's size as
    // the first left it on the screen, not yet redrawn (13 px off over this pinch, measured).
    expect(Math.abs(pinched.x - before.x)).toBeLessThan(FINGERTIP);
    expect(Math.abs(pinched.y - before.y)).toBeLessThan(FINGERTIP);

    // One finger dragged by (100, 60): the drawing follows it, at the scale the pinch left.
    await touch('touchStart', [[pinched.x, pinched.y]]);
    for (let i = 1; i <= 5; i++) await touch('touchMove', [[pinched.x + 20 * i, pinched.y + 12 * i]]);
    await touch('touchEnd', []);
    const dragged = await onScreen(page, FIND_OWNERS);
    expect(dragged.x - pinched.x).toBeCloseTo(100, 0);
    expect(dragged.y - pinched.y).toBeCloseTo(60, 0);
    expect(dragged.scale).toBe(pinched.scale);
    expect(errors).toEqual([]);
    await page.close();
  });
});
