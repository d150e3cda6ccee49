import type { Browser } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, startService, type Service } from '../cli/online-helpers.js';
import { openStream, ringModel, statusOf, type RawStream } from '../../bench/stream-clients.js';
import { launchBrowser, watchedPage } from './browser.js';

/**
 * The page where the service bounds what the view costs it (issue 21): a graph too large for the stream, read
 * once with a GET; a stream refused because the session has as many as it may; variables whose read fails.
 */

const LOGIN = readFileSync('test/fixtures/models/graphwalker/Login.json', 'utf8');
/** Each read of the variables below runs into it: short, so that the page shows it within a second. */
const SCRIPT_TIMEOUT_MS = 200;

let browser: Browser;
let service: Service;
const streams: RawStream[] = [];

beforeAll(async () => {
  ensureBuilt();
  [browser, service] = await Promise.all([
    launchBrowser(),
    startService(['-s', 'RESTFUL', '-p', '0', '--max-view-streams-per-session', '1', '--script-timeout', String(SCRIPT_TIMEOUT_MS)]),
  ]);
}, 60_000);

afterAll(async () => {
  for (const stream of streams) stream.socket.destroy();
  await browser?.close();
  await service?.stop();
});

async function session(model: string): Promise<string> {
  const response = await fetch(`${service.url}/walker/sessions?generator=random(never)`, { method: 'POST', body: model });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function walk(id: string, steps: number): Promise<void> {
  for (let i = 0; i < steps; i++) await fetch(`${service.url}/walker/sessions/${id}/getNext`);
}

describe('the page, where the service bounds the view', () => {
  it('reads a graph too large for the stream once, with a GET, and follows the walk on it', async () => {
    // 1,200 vertices and 1,201 edges named in 300 characters: 850 KB of graph, more than a stream carries.
    const id = await session(ringModel(1_200, 300));
    const { page, errors, requests } = await watchedPage(browser);
    await page.goto(`${service.url}/?session=${id}`);
    await page.locator('[data-testid=model-graph][data-state=grid]').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('model-graph').textContent()).toContain('2401 elements');
    await walk(id, 30);
    await expect.poll(() => page.getByTestId('step-count').textContent(), { timeout: 10_000, interval: 50 }).toBe('30');
    const reads = requests.filter((url) => url.endsWith(`/walker/view/sessions/${id}`));
    expect(reads).toHaveLength(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says so when the session has as many streams as it may, and follows the walk once one is free', async () => {
    const id = await session(LOGIN);
    const taken = openStream(Number(new URL(service.url).port), `/walker/view/sessions/${id}/events`, true);
    streams.push(taken);
    expect(statusOf(await taken.head)).toBe(200);
    const { page } = await watchedPage(browser);
    await page.goto(`${service.url}/?session=${id}`);
    const note = page.getByTestId('note');
    await expect.poll(() => note.textContent(), { timeout: 10_000 }).toBe('The service has as many live views open as it serves: trying again in a few seconds…');
    taken.socket.destroy();
    await walk(id, 4);
    // The page asks again five seconds after it was refused.
    await expect.poll(() => page.getByTestId('step-count').textContent(), { timeout: 15_000, interval: 100 }).toBe('4');
    expect(await note.textContent()).toBe('');
    await page.close();
  });

  it('shows the variables as unavailable, and why, when reading them runs past the script limits', async () => {
    const id = await session(LOGIN);
    await walk(id, 2);
    const evil = encodeURIComponent('Object.defineProperty(globalThis, "evil", { get() { while (true) {} }, enumerable: true });');
    expect((await fetch(`${service.url}/walker/sessions/${id}/setData/${evil}`, { method: 'PUT' })).status).toBe(200);
    const { page, errors } = await watchedPage(browser);
    await page.goto(`${service.url}/?session=${id}`);
    const variables = page.getByTestId('variables');
    await expect.poll(() => variables.getAttribute('data-unavailable'), { timeout: 10_000 }).toBe('true');
    expect(await variables.textContent()).toMatch(new RegExp(`^unavailable: model '.+', getData: Script exceeded the time limit of ${SCRIPT_TIMEOUT_MS} ms$`));
    // The rest of the walk is there.
    expect(await page.getByTestId('step-count').textContent()).toBe('2');
    expect(errors).toEqual([]);
    await page.close();
  });
});
