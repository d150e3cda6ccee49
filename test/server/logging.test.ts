import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { startServer } from '../../server/start.js';

/** A pino destination that keeps every line, parsed. */
function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream };
}

const DEBUG = 20;
const INFO = 30;
const ERROR = 50;

describe('logging', () => {
  it('writes one line per request at debug, with method, url, status and response time', async () => {
    const { lines, stream } = capture();
    const app = await buildApp({ logger: { level: 'debug', stream } });
    await app.inject({ method: 'GET', url: '/walker/hasNext' });
    await app.inject({ method: 'POST', url: '/walker/drafts/nowhere' });
    expect(lines).toEqual([
      expect.objectContaining({ level: DEBUG, method: 'GET', url: '/walker/hasNext', statusCode: 200 }),
      expect.objectContaining({ level: DEBUG, method: 'POST', url: '/walker/drafts/nowhere', statusCode: 404 }),
    ]);
    expect(lines[0].responseTime).toEqual(expect.any(Number));
    expect(lines[0].msg).toBe('GET /walker/hasNext 200');
    await app.close();
  });

  it('writes nothing for requests at info, however they end', async () => {
    const { lines, stream } = capture();
    const app = await buildApp({ logger: { level: 'info', stream } });
    await app.inject({ method: 'GET', url: '/walker/getNext' });
    await app.inject({ method: 'GET', url: '/walker/getNxt' });
    await app.inject({ method: 'GET', url: '/elsewhere' });
    await app.inject({ method: 'GET', url: '/walker/drafts/missing' });
    expect(lines).toEqual([]);
    await app.close();
  });

  it('writes the address at start and a line at stop, at info', async () => {
    const { lines, stream } = capture();
    const server = await startServer(await buildApp({ logger: { level: 'info', stream } }), { port: 0, signals: [] });
    expect(lines).toEqual([expect.objectContaining({ level: INFO, msg: `Listening on ${server.url}` })]);
    await server.close();
    expect(lines.slice(1)).toEqual([expect.objectContaining({ level: INFO, msg: 'Stopped' })]);
  });

  it('says nothing of stopping when the app closes without ever listening (a failed start)', async () => {
    const { lines, stream } = capture();
    const app = await buildApp({ logger: { level: 'info', stream } });
    await app.close();
    expect(lines).toEqual([]);
  });

  it('writes nothing at all when silent', async () => {
    const { lines, stream } = capture();
    const server = await startServer(await buildApp({ logger: { level: 'silent', stream } }), { port: 0, signals: [] });
    await fetch(`${server.url}/walker/hasNext`);
    await server.close();
    expect(lines).toEqual([]);
  });

  it('logs an unexpected error of a route outside the families at error, and answers it as Fastify does', async () => {
    const { lines, stream } = capture();
    const app = await buildApp({ logger: { level: 'info', stream } });
    app.get('/boom', async () => {
      throw new Error('kaboom');
    });
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ statusCode: 500, message: 'kaboom' });
    expect(lines).toEqual([expect.objectContaining({ level: ERROR, msg: 'unexpected error', err: expect.anything() })]);
    await app.close();
  });
});
