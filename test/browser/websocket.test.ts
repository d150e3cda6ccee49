import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, startService, type Service } from '../cli/online-helpers.js';
import { launchBrowser, watchedPage } from './browser.js';

const SMALL = JSON.parse(readFileSync('test/fixtures/models/graphwalker/SmallModel.json', 'utf8')) as object;

let browser: Browser;
let service: Service;

beforeAll(async () => {
  ensureBuilt();
  [browser, service] = await Promise.all([launchBrowser(), startService(['-s', 'WEBSOCKET', '-p', '0', '--seed', '3'])]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

/** What the page's script answers: every message it received, or how its WebSocket ended. */
interface PageWalk {
  readonly messages: Array<Record<string, any>>;
  readonly closeCode?: number;
}

describe("GraphWalker's WebSocket service in Chromium", () => {
  it("walks from a page of the service's own origin, as GraphWalker Studio's client does", async () => {
    const { page, errors } = await watchedPage(browser);
    await page.goto(`${service.url}/`);
    // Studio's client: send a command, wait for its answer (getNext: for the visitedElement pushed first).
    const walk = await page.evaluate(async ({ model, url }): Promise<PageWalk> => {
      const socket = new WebSocket(url);
      const messages: Array<Record<string, any>> = [];
      let wake: (() => void) | undefined;
      socket.onmessage = (event) => {
        messages.push(JSON.parse(event.data as string) as Record<string, any>);
        wake?.();
      };
      await new Promise((resolve, reject) => {
        socket.onopen = resolve;
        socket.onerror = reject;
      });
      const send = async (message: object, answersAs: string): Promise<Record<string, any>> => {
        const from = messages.length;
        socket.send(JSON.stringify(message));
        for (;;) {
          const found = messages.slice(from).find((m) => m.command === answersAs);
          if (found !== undefined) return found;
          await new Promise<void>((resolve) => (wake = resolve));
        }
      };
      await send({ command: 'start', gw: model }, 'start');
      while ((await send({ command: 'hasNext' }, 'hasNext')).hasNext === true) await send({ command: 'getNext' }, 'getNext');
      socket.close();
      return { messages };
    }, { model: SMALL, url: `${service.url.replace(/^http/, 'ws')}/` });

    expect(walk.messages[0]).toEqual({ command: 'start', success: true, seed: 3 });
    const pushes = walk.messages.filter((m) => m.command === 'visitedElement');
    const steps = walk.messages.filter((m) => m.command === 'getNext');
    expect(steps.length).toBeGreaterThanOrEqual(6);
    expect(steps.every((m) => m.success === true)).toBe(true);
    // Each getNext answer follows the push of the same element.
    for (const [i, step] of steps.entries()) expect(pushes[i]).toMatchObject({ elementId: step.elementId, totalCount: i + 1 });
    expect(new Set(steps.map((m) => m.elementId))).toEqual(new Set(['n0', 'n1', 'e0', 'e1', 'e2', 'e3']));
    expect(pushes[pushes.length - 1].stopConditionFulfillment).toBe(1);
    expect(errors).toEqual([]);
  });

  it('refuses a page of another origin at the upgrade: its WebSocket never opens, and no walk is made', async () => {
    const sessions = async (): Promise<unknown[]> => ((await (await fetch(`${service.url}/walker/sessions`)).json()) as { sessions: unknown[] }).sessions;
    // The walk of the test before goes once its connection has closed.
    await expect.poll(sessions).toEqual([]);
    const { page } = await watchedPage(browser);
    // about:blank's scripts have an opaque origin, which Chromium sends as Origin: null.
    await page.goto('about:blank');
    const ended = await page.evaluate(
      (url) =>
        new Promise<PageWalk>((resolve) => {
          const socket = new WebSocket(url);
          socket.onopen = () => resolve({ messages: [{ opened: true }] });
          socket.onclose = (event) => resolve({ messages: [], closeCode: event.code });
        }),
      `${service.url.replace(/^http/, 'ws')}/`,
    );
    // 1006: the connection failed before it opened (the 403 is not shown to the page).
    expect(ended).toEqual({ messages: [], closeCode: 1006 });
    expect(await sessions()).toEqual([]);
  });
});
