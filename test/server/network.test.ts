import { hostname, networkInterfaces } from 'node:os';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { BuildAppOptions } from '../../server/app.js';
import { hostsOf } from '../../server/network.js';
import { startServer } from '../../server/start.js';
import { call, nok, testApp } from './helpers.js';

const NOT_LOADED = nok('No model(s) are loaded.');

/** An app listening on 127.0.0.1 (so that it knows the Host it answers to), driven with app.inject. */
async function listening(options: BuildAppOptions = {}, host = '127.0.0.1'): Promise<{ app: FastifyInstance; port: number }> {
  const app = await testApp(options);
  await app.listen({ port: 0, host });
  return { app, port: (app.server.address() as { port: number }).port };
}

describe('the Host check (DNS rebinding)', () => {
  it('serves the loopback names of the bound port', async () => {
    const { app, port } = await listening();
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      expect((await call(app, 'GET', '/walker/hasNext', undefined, { host })).body).toEqual(NOT_LOADED);
    }
  });

  it('refuses another name with 403, in each route family\'s format', async () => {
    const { app, port } = await listening();
    const message =
      `The Host header 'evil.example:${port}' does not name this service, which answers to localhost:${port}, ` +
      `127.0.0.1:${port}, [::1]:${port}: a request sent to another name (DNS rebinding) is refused. Use one of those names, ` +
      `or start walker with --allow-host evil.example:${port} if that is a name it is reached by (a load balancer in front ` +
      'of it, a DNS name of this machine).';
    const headers = { host: `evil.example:${port}` };
    const execution = await call(app, 'POST', '/walker/load', '{}', headers);
    expect(execution).toMatchObject({ status: 403, type: 'application/json; charset=utf-8', body: nok(message) });
    expect(await call(app, 'POST', '/walker/drafts', undefined, headers)).toMatchObject({ status: 403, body: { code: 'host_not_allowed', message } });
    expect(await call(app, 'GET', '/openapi.json', undefined, headers)).toMatchObject({ status: 403, body: { code: 'host_not_allowed', message } });
    expect((await call(app, 'GET', '/walker/hasNext', undefined, { host: '127.0.0.1:1' })).status).toBe(403);
    expect(app.services.drafts.size).toBe(0);
  });

  it('answers to the addresses it is bound to when they are particular interfaces, and to nothing else', () => {
    // Computed from the bound addresses: tests may not listen on an interface beyond loopback.
    expect(hostsOf([{ address: '192.0.2.10', family: 'IPv4', port: 8887 }])).toEqual(new Set(['192.0.2.10:8887']));
    expect(hostsOf([{ address: '2001:DB8::1', family: 'IPv6', port: 8887 }])).toEqual(new Set(['[2001:db8::1]:8887']));
    expect(hostsOf([{ address: '127.0.0.1', family: 'IPv4', port: 1 }])).toEqual(new Set(['localhost:1', '127.0.0.1:1', '[::1]:1']));
  });

  it("answers to the machine's own names when bound to every interface: loopback, host name, interface addresses", () => {
    const machine = { hostname: 'Build-Agent', addresses: ['127.0.0.1', '::1', '192.0.2.10', 'fe80::1%eth0', '2001:DB8::1'] };
    for (const address of ['0.0.0.0', '::']) {
      expect(hostsOf([{ address, family: 'IPv4', port: 8887 }], machine)).toEqual(
        new Set(['localhost:8887', '127.0.0.1:8887', '[::1]:8887', 'build-agent:8887', '192.0.2.10:8887', '[fe80::1]:8887', '[2001:db8::1]:8887']),
      );
    }
  });

  it('answers to the names --allow-host gives too, port 80 when none is given, and still refuses others', async () => {
    const { app, port } = await listening({ allowHosts: ['Walker.Example', 'lb:8887'] });
    for (const host of ['walker.example', 'walker.example:80', 'lb:8887', `localhost:${port}`]) {
      expect((await call(app, 'GET', '/walker/hasNext', undefined, { host })).body, host).toEqual(NOT_LOADED);
    }
    for (const host of ['lb:8888', 'walker.example:8887', 'evil.example']) {
      expect((await call(app, 'GET', '/walker/hasNext', undefined, { host })).status, host).toBe(403);
    }
    await expect(testApp({ allowHosts: ['http://lb/'] })).rejects.toThrow(
      "allowHosts (--allow-host): 'http://lb/' is not a host name as a Host header gives it",
    );
  });

  it('refuses a foreign name when bound to every interface, and serves the names of the machine and --allow-host', async () => {
    const { app, port } = await listening({ allowHosts: ['walker.example'] }, '0.0.0.0');
    const interfaces = Object.values(networkInterfaces()).flatMap((infos) => infos ?? []);
    const addresses = interfaces.map(({ address, family }) => (family === 'IPv6' ? `[${address.split('%')[0]}]` : address));
    for (const host of [`localhost:${port}`, `${hostname()}:${port}`, ...addresses.map((a) => `${a}:${port}`), 'walker.example']) {
      expect((await call(app, 'GET', '/walker/hasNext', undefined, { host })).body, host).toEqual(NOT_LOADED);
    }
    const rebound = await call(app, 'GET', '/walker/hasNext', undefined, { host: `build-agent.lan:${port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.body.error).toContain(`start walker with --allow-host build-agent.lan:${port} if that is a name it is reached by`);
  });
});

describe('the Origin check (cross-site requests)', () => {
  it('serves clients that send no Origin, such as curl and AltWalker, unchanged', async () => {
    const { app, port } = await listening();
    const res = await call(app, 'POST', '/walker/load', 'x', { host: `127.0.0.1:${port}` });
    expect(res.status).toBe(200);
    expect(res.raw.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("serves the service's own origin, under any of its loopback names", async () => {
    const { app, port } = await listening();
    const res = await call(app, 'GET', '/walker/hasNext', undefined, { host: `127.0.0.1:${port}`, origin: `http://localhost:${port}` });
    expect(res.body).toEqual(NOT_LOADED);
  });

  it('refuses a page of another site with 403, and changes nothing', async () => {
    const { app, port } = await listening();
    const res = await call(app, 'POST', '/walker/load', 'x', { host: `127.0.0.1:${port}`, origin: 'https://evil.example', 'content-type': 'text/plain' });
    const message =
      "A request from the web page at 'https://evil.example' is refused: only the service's own pages may call it. " +
      'Start walker with --allow-origin https://evil.example to let that site in.';
    expect(res).toMatchObject({ status: 403, body: nok(message) });
    expect(res.raw.headers['access-control-allow-origin']).toBeUndefined();
    const draft = await call(app, 'POST', '/walker/drafts', undefined, { host: `localhost:${port}`, origin: 'null' });
    expect(draft).toMatchObject({ status: 403, body: { code: 'origin_not_allowed' } });
    expect(app.services.drafts.size).toBe(0);
  });

  it('refuses the origin null without offering --allow-origin, which cannot take it', async () => {
    const { app, port } = await listening();
    const res = await call(app, 'GET', '/walker/hasNext', undefined, { host: `localhost:${port}`, origin: 'null' });
    const message =
      "A request from the web page at 'null' is refused: only the service's own pages may call it. No --allow-origin can " +
      'let it in: sandboxed frames, files opened from disk and redirected requests send that origin, so any web page can. ' +
      'Serve the page from an http or https origin and allow that one.';
    expect(res).toMatchObject({ status: 403, body: nok(message) });
    await expect(testApp({ allowOrigins: ['null'] })).rejects.toThrow("allowOrigins: 'null' is the origin of sandboxed frames and local files");
    const other = await call(app, 'GET', '/walker/hasNext', undefined, { host: `localhost:${port}`, origin: 'chrome-extension://abc' });
    expect(other.body.error).toContain('No --allow-origin can let it in: it is not an http or https origin.');
  });

  it('refuses a cross-site request without Origin (an <img> GET) by its Sec-Fetch-Site', async () => {
    const app = await testApp();
    for (const site of ['cross-site', 'same-site']) {
      const res = await call(app, 'GET', '/walker/getNext', undefined, { 'sec-fetch-site': site });
      expect(res).toMatchObject({ status: 403, body: nok('A cross-site browser request (Sec-Fetch-Site) is refused: web pages of other sites may not call this service.') });
    }
    expect((await call(app, 'GET', '/walker/hasNext', undefined, { 'sec-fetch-site': 'none' })).body).toEqual(NOT_LOADED);
  });

  it('serves an --allow-origin site with CORS headers, and answers its preflight', async () => {
    const app = await testApp({ allowOrigins: ['http://localhost:3000/'] });
    const origin = 'http://localhost:3000';
    const res = await call(app, 'GET', '/walker/hasNext', undefined, { origin });
    expect(res.body).toEqual(NOT_LOADED);
    expect(res.raw.headers['access-control-allow-origin']).toBe(origin);
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/walker/setData/x',
      headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers).toMatchObject({ 'access-control-allow-origin': origin, 'access-control-allow-headers': 'authorization' });
    expect((await call(app, 'GET', '/walker/hasNext', undefined, { origin: 'http://localhost:3001' })).status).toBe(403);
  });
});

describe('the token', () => {
  const token = 's3cr3t-token';

  it('is required on every route: 401 with WWW-Authenticate without it or with another', async () => {
    const app = await testApp({ token });
    const missing =
      "This service requires a token: send the header 'Authorization: Bearer <token>' with the token it was started with (--token or WALKER_TOKEN).";
    const res = await call(app, 'GET', '/walker/hasNext');
    expect(res).toMatchObject({ status: 401, body: nok(missing) });
    expect(res.raw.headers['www-authenticate']).toBe('Bearer realm="walker"');
    const wrong = await call(app, 'POST', '/walker/drafts', undefined, { authorization: `Bearer ${token}x` });
    expect(wrong).toMatchObject({ status: 401, body: { code: 'unauthorized', message: 'The bearer token is not the one this service was started with (--token or WALKER_TOKEN).' } });
    expect((await call(app, 'GET', '/openapi.json', undefined, { authorization: token })).status).toBe(401);
    expect((await call(app, 'GET', '/nowhere')).status).toBe(401);
    expect(app.services.drafts.size).toBe(0);
  });

  it('lets a request with the token through, the scheme in any case', async () => {
    const app = await testApp({ token });
    expect((await call(app, 'GET', '/walker/hasNext', undefined, { authorization: `Bearer ${token}` })).body).toEqual(NOT_LOADED);
    expect((await call(app, 'GET', '/walker/hasNext', undefined, { authorization: `bearer ${token}` })).body).toEqual(NOT_LOADED);
  });

  it("does not ask an allowed origin's preflight for it, which browsers send without credentials", async () => {
    const app = await testApp({ token, allowOrigins: ['http://localhost:3000'] });
    const headers = { origin: 'http://localhost:3000', 'access-control-request-method': 'GET' };
    expect((await app.inject({ method: 'OPTIONS', url: '/walker/hasNext', headers })).statusCode).toBe(204);
    const foreign = { ...headers, origin: 'http://localhost:4000' };
    expect((await app.inject({ method: 'OPTIONS', url: '/walker/hasNext', headers: foreign })).statusCode).toBe(403);
  });
});

describe('a service open to the network', () => {
  it('warns at start, unless a token is required', async () => {
    for (const [token, warnings] of [[undefined, 1], ['t', 0]] as const) {
      const lines: string[] = [];
      const stream = new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) });
      const app = await testApp({ token, logger: { level: 'warn', stream } });
      const server = await startServer(app, { port: 0, host: '0.0.0.0', signals: [] });
      await server.close();
      const warned = lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((l) => l.level === 40);
      expect(warned).toHaveLength(warnings);
      if (warnings > 0) {
        expect(warned[0].msg).toBe(
          `0.0.0.0 is not a loopback address: anyone who can reach port ${server.port} can load models and run their scripts on this ` +
            'machine. Require a token with --token (or WALKER_TOKEN), or listen on 127.0.0.1.',
        );
      }
    }
  });

  it('says so through the warn it is given, whatever the log level', async () => {
    const app = await testApp({ logger: { level: 'silent' } });
    const warnings: string[] = [];
    const server = await startServer(app, { port: 0, host: '0.0.0.0', signals: [], warn: (message) => warnings.push(message) });
    await server.close();
    expect(warnings).toEqual([expect.stringMatching(/^0\.0\.0\.0 is not a loopback address: anyone who can reach port \d+ /)]);
  });
});
