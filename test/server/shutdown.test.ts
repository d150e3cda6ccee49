import { describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../server/app.js';
import { CLOSING_MESSAGE } from '../../server/closing.js';
import { startServer } from '../../server/start.js';
import { call, load, nok } from './helpers.js';
import { loop } from './models.js';
import { bodyOf, rawClient } from './raw-client.js';

/** Closing over real sockets, whatever the clients are doing (the process-level test is process-faults.test.ts). */
describe('closing a listening server', () => {
  it('drops idle keep-alive connections at once and half-sent requests at the deadline', async () => {
    const server = await startServer(await buildApp(), { port: 0, signals: [], shutdownTimeoutMs: 400 });
    const idle = await rawClient(server.port, `GET /walker/hasNext HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
    await idle.waitFor('No model(s) are loaded.');
    const half = await rawClient(server.port, 'GET /walker/getNext HTTP/1.1\r\nHost: 127.0');
    const idleClosedAt = idle.closed.then(() => Date.now());
    const started = Date.now();
    await server.close();
    const took = Date.now() - started;
    expect((await idleClosedAt) - started).toBeLessThan(200);
    expect(took).toBeGreaterThanOrEqual(390);
    expect(took).toBeLessThan(1500);
    await half.closed;
    expect(half.received()).toBe('');
  });

  it('lets an answer under way finish whole, then closes its connection', async () => {
    const app = await buildApp();
    const server = await startServer(app, { port: 0, signals: [], shutdownTimeoutMs: 5000 });
    await fetch(`${server.url}/walker/load`, { method: 'POST', body: JSON.stringify(loop()) });
    // An answer of 20 MB: more than the sockets of the loopback hold, so most of it is still to send.
    await fetch(`${server.url}/walker/setData/${encodeURIComponent('big = "x".repeat(20e6);')}`, { method: 'PUT' });
    const client = await rawClient(server.port, `GET /walker/getData HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
    await client.waitFor('HTTP/1.1 200 OK');
    client.socket.pause();
    const closing = server.close();
    setTimeout(() => client.socket.resume(), 100);
    await Promise.all([closing, client.closed]);
    const text = client.received();
    const length = Number(/\r\ncontent-length: (\d+)\r\n/i.exec(text)?.[1]);
    expect(Buffer.byteLength(text.slice(text.indexOf('\r\n\r\n') + 4), 'latin1')).toBe(length);
    expect((bodyOf(text) as { data: string }).data).toBe(`big=${'x'.repeat(20e6)}`);
  });

  it('answers a request waiting behind work under way with 503 and Connection: close, without running it', async () => {
    let clock = 0;
    const app = await buildApp({ now: () => ++clock });
    const server = await startServer(app, { port: 0, signals: [], shutdownTimeoutMs: 2000 });
    const { sessions } = app.services;
    const session = sessions.create();
    let release: () => void = () => {};
    const busy = session.run(() => new Promise<string>((resolve) => (release = () => resolve('finished'))));
    const before = session.lastUsedAt;
    const client = await rawClient(server.port, `GET /walker/sessions/${session.id}/getNext HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
    // The route renews the session and queues the request in one go: once renewed, the request waits in line.
    await vi.waitFor(() => expect(session.lastUsedAt).not.toBe(before));
    const ran = vi.fn();
    const queued = session.run(ran);
    const closing = server.close();
    setTimeout(release, 100);
    await expect(busy).resolves.toBe('finished');
    await expect(queued).rejects.toMatchObject({ code: 'service_unavailable', status: 503, message: CLOSING_MESSAGE });
    await Promise.all([closing, client.closed]);
    expect(ran).not.toHaveBeenCalled();
    expect(client.received()).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(client.received()).toMatch(/\r\nconnection: close\r\n/i);
    expect(bodyOf(client.received())).toEqual({ code: 'service_unavailable', message: CLOSING_MESSAGE });
  });

  it('drops a request whose body is still on its way at the deadline, answering nothing half', async () => {
    const app = await buildApp();
    const server = await startServer(app, { port: 0, signals: [], shutdownTimeoutMs: 200 });
    const headers = new Promise((resolve) => app.server.once('request', resolve));
    const head = `POST /walker/load HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Length: 1000\r\n\r\n`;
    const client = await rawClient(server.port, `${head}{"models":`);
    await headers;
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    await client.closed;
    expect(client.received()).toBe('');
  });
});

describe('a service that has begun to close', () => {
  it('answers every route 503 in its own format, with Connection: close, before anything runs', async () => {
    const app = await buildApp();
    try {
      await load(app, loop());
      app.services.beginClosing();
      const answers = await Promise.all(
        ['/walker/getNext', '/graphwalker/getNext', '/walker/sessions', '/walker/drafts', '/walker/view/session'].map((url) =>
          call(app, url === '/walker/sessions' || url === '/walker/drafts' ? 'POST' : 'GET', url),
        ),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(503);
        expect(answer.raw.headers.connection).toBe('close');
      }
      expect(answers.map((a) => a.body)).toEqual([
        nok(CLOSING_MESSAGE),
        nok(CLOSING_MESSAGE),
        { code: 'service_unavailable', message: CLOSING_MESSAGE },
        { code: 'service_unavailable', message: CLOSING_MESSAGE },
        { code: 'service_unavailable', message: CLOSING_MESSAGE },
      ]);
      // Nothing ran: no session or draft was made.
      expect([app.services.sessions.size, app.services.drafts.size]).toEqual([0, 0]);
    } finally {
      await app.close();
    }
  });
});
