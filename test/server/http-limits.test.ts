import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp, type BuildAppOptions } from '../../server/app.js';
import { MAX_MODEL_BYTES } from '../../server/resolve-options.js';
import { startServer, type RunningServer } from '../../server/start.js';
import { loop } from './models.js';
import { bodyOf, rawClient } from './raw-client.js';

/**
 * The HTTP server's limits, over real sockets: app.inject bypasses Node's HTTP parser and its timers, where
 * these limits live. Timeouts are short here so that the tests are quick; their defaults are in options.test.ts.
 */

async function serve(options: BuildAppOptions, fn: (server: RunningServer, app: FastifyInstance) => Promise<void>): Promise<void> {
  const app = await buildApp(options);
  const server = await startServer(app, { port: 0, signals: [] });
  try {
    await fn(server, app);
  } finally {
    await server.close();
  }
}

async function json(server: RunningServer, method: string, path: string, body?: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.url}${path}`, { method, body });
  return (await res.json()) as Record<string, unknown>;
}

describe('long URLs', () => {
  it('carry a 64 KiB setData script and fail reason through a listening server', async () => {
    await serve({}, async (server) => {
      await json(server, 'POST', '/walker/load', JSON.stringify(loop()));
      // Characters percent-encoding triples or sextuples, as AltWalker's quote(script, safe="") sends them.
      const value = 'a b/c;d=é?'.repeat(6600).slice(0, 64 * 1024 - 'note = "";'.length);
      const script = `note = "${value}";`;
      expect(script).toHaveLength(64 * 1024);
      expect(await json(server, 'PUT', `/walker/setData/${encodeURIComponent(script)}`)).toEqual({ result: 'ok' });
      expect((await json(server, 'GET', '/walker/getData')).data).toContain(`note=${value}`);
      expect(await json(server, 'PUT', `/walker/fail/${encodeURIComponent(value)}`)).toEqual({ result: 'ok' });
    });
  });

  it('over maxHeaderBytes answer 431 with a message naming the limit, in both formats', async () => {
    await serve({ maxHeaderBytes: 32 * 1024 }, async (server) => {
      const res = await fetch(`${server.url}/walker/setData/${'x'.repeat(40 * 1024)}`, { method: 'PUT' });
      expect(res.status).toBe(431);
      const message =
        'The request line and headers are larger than 32768 bytes, the limit of this service: send a shorter setData script or fail reason, or fewer headers.';
      expect(await res.json()).toEqual({ result: 'nok', error: message, code: 'headers_too_large', message });
    });
  });
});

describe('slow clients', () => {
  const timeouts = { headersMs: 200, requestMs: 400, keepAliveMs: 300, idleMs: 300 };

  it('are answered 408 when the headers do not arrive in time, and disconnected', async () => {
    await serve({ timeouts }, async (server) => {
      const client = await rawClient(server.port, 'GET /walker/hasNext HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      const after = await client.closed;
      expect(client.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(bodyOf(client.received())).toMatchObject({ result: 'nok', code: 'request_timeout', message: expect.stringContaining('within 200 ms') as unknown });
      // Node checks the timers every headersMs / 4 here: closed after 200 ms, well before 1 s.
      expect(after).toBeGreaterThanOrEqual(190);
      expect(after).toBeLessThan(1000);
    });
  });

  it('are answered 408 when the body does not arrive within the request timeout', async () => {
    // idleMs beyond requestMs, or the silent connection would be dropped (unanswered) by that timer first.
    await serve({ timeouts: { ...timeouts, idleMs: 2000 } }, async (server) => {
      const client = await rawClient(server.port, `POST /walker/load HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Length: 100\r\n\r\n{"mod`);
      const after = await client.closed;
      expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
      expect(after).toBeLessThan(1200);
    });
  });

  it('lose an idle keep-alive connection after keepAliveMs', async () => {
    await serve({ timeouts }, async (server) => {
      const client = await rawClient(server.port, `GET /walker/hasNext HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
      await client.waitFor('No model(s) are loaded.');
      // Node keeps an idle connection 1 s beyond keepAliveTimeout, for answers still on their way.
      expect(await client.closed).toBeGreaterThanOrEqual(290);
      expect(await client.closed).toBeLessThan(2000);
    });
  });

  it('are answered however long their requests wait for their session or run, beyond idleMs', async () => {
    // A request whose scripts run 1.2 s in its session's thread, and one queued behind it: neither connection
    // carries a byte meanwhile, which idleMs (300 ms) is not about; each must get its answer. Twenty loads
    // queued on one session of a busy machine waited past the default 60 s and had their connections dropped.
    const spin = (ms: number) => encodeURIComponent(`var t = Date.now(); while (Date.now() - t < ${ms}) {} spun = ${ms};`);
    await serve({ timeouts, scriptLimits: { timeoutMs: 5000, realClock: true } }, async (server) => {
      const session = (await (await fetch(`${server.url}/walker/sessions`, { method: 'POST', body: JSON.stringify(loop()) })).json()) as { id: string };
      const base = `/walker/sessions/${session.id}`;
      // Slow requests move the walk to a thread of its own, so that the event loop reads the queued request at once.
      for (let i = 0; i < 3; i++) expect(await json(server, 'PUT', `${base}/setData/${spin(60)}`)).toEqual({ result: 'ok' });
      // Behind the move in the session's queue: the session's figures are those of before a move under way.
      expect(await json(server, 'GET', `${base}/hasNext`)).toMatchObject({ result: 'ok' });
      expect(await json(server, 'GET', base)).toMatchObject({ isolated: true });
      const [slow, queued] = await Promise.all([json(server, 'PUT', `${base}/setData/${spin(1200)}`), json(server, 'GET', `${base}/getData`)]);
      expect(slow).toEqual({ result: 'ok' });
      expect(queued).toMatchObject({ result: 'ok', data: expect.stringContaining('spun=1200') });
    });
  });

  it('that stop reading their answer are dropped after idleMs', async () => {
    const options = { timeouts, scriptLimits: { memoryBytes: 256 * 1024 * 1024 } };
    await serve(options, async (server, app) => {
      await json(server, 'POST', '/walker/load', JSON.stringify(loop()));
      // 40 MB: more than loopback's socket buffers hold, so that writing stalls while nobody reads.
      await json(server, 'PUT', `/walker/setData/${encodeURIComponent('big = "x".repeat(40e6);')}`);
      const client = await rawClient(server.port);
      client.socket.pause();
      client.socket.write(`GET /walker/getData HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
      // The timer runs from the answer's start (server/serving-time.ts): after the 40 MB of getData are made,
      // which a busy machine stretches to seconds.
      await until(async () => (await connections(app)) === 0, 60_000);
      client.socket.resume();
      await client.closed;
      expect(client.received().length).toBeLessThan(40e6);
    });
  }, 120_000);
});

describe('a load body over what Node.js can hold as a string', () => {
  it('answers 413 naming the lowered limit, without reading the body', async () => {
    await serve({ maxModelBytes: 2 ** 40 }, async (server) => {
      const head = `POST /walker/load HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Length: ${MAX_MODEL_BYTES + 1}\r\n\r\n`;
      const client = await rawClient(server.port, `${head}{"models":`);
      await client.closed;
      expect(client.received()).toMatch(/^HTTP\/1\.1 413 /);
      expect(bodyOf(client.received())).toEqual({
        result: 'nok',
        error: `The model is larger than the limit of ${MAX_MODEL_BYTES} bytes (--max-model-bytes; no more than the longest string Node.js can hold).`,
      });
    });
  });
});

function connections(app: FastifyInstance): Promise<number> {
  return new Promise((resolve, reject) => app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

async function until(condition: () => Promise<boolean>, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
