import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { hostAndPort } from '../../server/origins.js';
import { ListenError, startServer } from '../../server/start.js';

/** Whether this machine can listen on ::1 at all: containers often have no IPv6 loopback. */
async function listensOn(host: string): Promise<boolean> {
  const server = createServer();
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(0, host, () => resolve(true));
  });
  if (listening) await new Promise((resolve) => server.close(resolve));
  return listening;
}
const ipv6Loopback = await listensOn('::1');

describe('startServer', () => {
  it('listens on 127.0.0.1 by default, on a free port for 0', async () => {
    const server = await startServer(await buildApp(), { port: 0, signals: [] });
    try {
      expect(server.host).toBe('127.0.0.1');
      expect(server.port).toBeGreaterThan(0);
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
      const res = await fetch(`${server.url}/walker/hasNext`);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await res.json()).toEqual({ result: 'nok', error: 'No model(s) are loaded.' });
    } finally {
      await server.close();
    }
    await expect(server.closed).resolves.toBeUndefined();
  });

  it('says which port is taken, and closes the app it could not start', async () => {
    const first = await startServer(await buildApp(), { port: 0, signals: [] });
    const app = await buildApp();
    try {
      const failure = await startServer(app, { port: first.port, signals: [] }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ListenError);
      expect((failure as ListenError).message).toBe(`Port ${first.port} is already in use on 127.0.0.1`);
    } finally {
      await first.close();
    }
  });

  it('closes cleanly on a signal, letting a request in flight finish', async () => {
    const app = await buildApp();
    const server = await startServer(app, { port: 0, signals: ['SIGUSR2'] });
    const before = process.listenerCount('SIGUSR2');
    process.emit('SIGUSR2', 'SIGUSR2');
    await expect(server.closed).resolves.toBe('SIGUSR2');
    expect(process.listenerCount('SIGUSR2')).toBe(before - 1);
    await expect(fetch(`${server.url}/walker/hasNext`)).rejects.toThrow();
  });

  it('renders an IPv6 host in brackets, or says the machine has no such address', async () => {
    // Containers often have no IPv6 loopback: there the service must say so, rather than be left untested.
    if (!ipv6Loopback) {
      await expect(startServer(await buildApp(), { port: 0, host: '::1', signals: [] })).rejects.toThrow(
        /^Cannot listen on ::1: (the address is not one of this machine's|this machine has its address family \(IPv6, most likely\) turned off)$/,
      );
      return;
    }
    const server = await startServer(await buildApp(), { port: 0, host: '::1', signals: [] });
    expect(server.url).toBe(`http://[::1]:${server.port}`);
    await server.close();
  });

  it('writes an IPv6 address in brackets and without its zone wherever it names a host', () => {
    expect(hostAndPort('::1', 8887)).toBe('[::1]:8887');
    expect(hostAndPort('fe80::1%eth0', 80)).toBe('[fe80::1]:80');
    expect(hostAndPort('127.0.0.1', 8887)).toBe('127.0.0.1:8887');
    expect(hostAndPort('localhost', 8887)).toBe('localhost:8887');
  });
});
