import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { startServer } from '../../server/start.js';
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

  it('lets a request in flight finish whole, then closes its connection', async () => {
    const app = await buildApp();
    const server = await startServer(app, { port: 0, signals: [], shutdownTimeoutMs: 2000 });
    await fetch(`${server.url}/walker/load`, { method: 'POST', body: JSON.stringify(loop()) });
    let release: () => void = () => {};
    const busy = app.services.session.run(() => new Promise<void>((resolve) => (release = resolve)));
    const client = await rawClient(server.port, `GET /walker/getNext HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
    const closing = server.close();
    setTimeout(release, 100);
    await Promise.all([busy, closing, client.closed]);
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(client.received()).toMatch(/\r\nconnection: close\r\n/i);
    expect(bodyOf(client.received())).toEqual({
      result: 'ok',
      currentElementName: 'e_init',
      currentElementID: 'e0',
      modelId: 'loop',
      modelName: 'Loop',
    });
  });

  it('drops a request in flight that outlasts the deadline, answering nothing half', async () => {
    const app = await buildApp();
    const server = await startServer(app, { port: 0, signals: [], shutdownTimeoutMs: 200 });
    let release: () => void = () => {};
    const busy = app.services.session.run(() => new Promise<void>((resolve) => (release = resolve)));
    const client = await rawClient(server.port, `GET /walker/hasNext HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
    await server.close();
    await client.closed;
    expect(client.received()).toBe('');
    release();
    await busy;
  });
});
