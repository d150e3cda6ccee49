import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, http, runCli, runWalker, serveInProcess, startService, type InProcessService } from './online-helpers.js';

/**
 * The options of `walker online` that reach the app (who may call it, what scripts may use, how much drafts may
 * hold), each proved by what a client sees, and the script limits of `offline`. The token, read from the
 * command line and from the environment, is proved through the real executable; the other services run `main`
 * in this process and its refusals run through runCli, since a walker process costs a second of CPU.
 */

const LOGIN = 'examples/models/login.json';
const COVER = 'random(edge_coverage(100))';
const running: InProcessService[] = [];

beforeAll(() => ensureBuilt(), 120_000);

afterEach(async () => {
  for (const service of running.splice(0)) await service.stop();
});

/** `walker online` in this process; `env` starts the real executable instead, with that environment added. */
async function serve(args: readonly string[], env?: NodeJS.ProcessEnv): Promise<InProcessService> {
  const argv = ['-s', 'RESTFUL', '-p', '0', ...args];
  const service = env === undefined ? await serveInProcess(argv) : await startService(argv, env);
  running.push(service);
  return service;
}

/** A setData on the preloaded walk, the script percent-encoded whole; answers the body. */
async function setData(service: InProcessService, script: string): Promise<Record<string, unknown>> {
  return http(service.url, 'PUT', `/walker/setData/${encodeURIComponent(script)}`);
}

describe('--token and WALKER_TOKEN', () => {
  it('refuse a request without the token with 401, and serve one with it', async () => {
    for (const [args, env] of [[['--token', 's3cret'], {}], [[], { WALKER_TOKEN: 's3cret' }], [['--token', 's3cret'], { WALKER_TOKEN: 'other' }]] as const) {
      const service = await serve(args, env);
      const without = await fetch(`${service.url}/walker/hasNext`);
      expect(without.status).toBe(401);
      const wrong = await fetch(`${service.url}/walker/hasNext`, { headers: { authorization: 'Bearer other!' } });
      expect(wrong.status).toBe(401);
      const right = await fetch(`${service.url}/walker/hasNext`, { headers: { authorization: 'Bearer s3cret' } });
      expect(right.status).toBe(200);
    }
  });

  it('take an empty WALKER_TOKEN for a mistake, not for no token', async () => {
    const run = await runWalker(['online', '-s', 'RESTFUL', '-p', '0'], { WALKER_TOKEN: '' });
    expect(run.code).toBe(1);
    expect(run.stderr.split('\n')[0]).toBe('walker online: WALKER_TOKEN is set but empty: set it to the token clients must send, or unset it');
  });

  it('refuse a token that cannot travel in a header', async () => {
    const run = await runCli(['online', '-s', 'RESTFUL', '-p', '0', '--token', 'two words']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^walker online: token must be printable ASCII without spaces/);
  });
});

describe('--host beyond this machine', () => {
  it('says on stderr, whatever the log level, that anyone can run scripts unless a token is required', async () => {
    const open = await serve(['--host', '0.0.0.0', '--log-level', 'silent']);
    const port = new URL(open.url).port;
    await open.stop();
    expect(open.output().stderr).toBe(
      `0.0.0.0 is not a loopback address: anyone who can reach port ${port} can load models and run their scripts on this ` +
        'machine. Require a token with --token (or WALKER_TOKEN), or listen on 127.0.0.1.\n',
    );
    const guarded = await serve(['--host', '0.0.0.0', '--log-level', 'silent', '--token', 's3cret']);
    await guarded.stop();
    expect(guarded.output().stderr).toBe('');
  });

  it('on every interface, serves the names of this machine and those of --allow-host, and refuses others', async () => {
    const service = await serve(['--host', '0.0.0.0', '--allow-host', 'walker.example', '--token', 's3cret']);
    const port = Number(new URL(service.url).port);
    const status = (host: string) => statusFor(port, host, 's3cret');
    expect(await status(`${hostname()}:${port}`)).toBe(200);
    expect(await status(`127.0.0.1:${port}`)).toBe(200);
    expect(await status('walker.example')).toBe(200);
    expect(await status(`rebound.example:${port}`)).toBe(403);
  });
});

/** The status of `GET /walker/hasNext` sent to 127.0.0.1:`port` with this Host header (fetch may not set it). */
function statusFor(port: number, host: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/walker/hasNext', headers: { host, authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('--allow-origin', () => {
  it("answers a preflight from that origin with CORS headers, and refuses another site's page", async () => {
    const service = await serve(['--allow-origin', 'http://localhost:3000', '--allow-origin', 'https://tests.example']);
    const preflight = await fetch(`${service.url}/walker/hasNext`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    const second = await fetch(`${service.url}/walker/hasNext`, { headers: { origin: 'https://tests.example' } });
    expect(second.status).toBe(200);
    expect(second.headers.get('access-control-allow-origin')).toBe('https://tests.example');
    const other = await fetch(`${service.url}/walker/hasNext`, { headers: { origin: 'http://elsewhere.example' } });
    expect(other.status).toBe(403);
  });

  it('refuses what is no origin, naming the option', async () => {
    const run = await runCli(['online', '-s', 'RESTFUL', '-p', '0', '--allow-origin', '*']);
    expect(run.code).toBe(1);
    expect(run.stderr.split('\n')[0]).toBe(
      "walker online: --allow-origin '*' would let every web site in (there is no wildcard); write an origin as a browser sends it, e.g. 'http://localhost:3000'",
    );
  });
});

describe('--session-ttl, --max-sessions and --node-id', () => {
  /** A request to the service, answering the status and the JSON body. */
  async function call(service: InProcessService, method: string, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${service.url}${path}`, { method });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it('keep 64 live sessions by default and refuse the next with 429, naming the option', async () => {
    const service = await serve([]);
    for (let i = 0; i < 64; i++) expect((await call(service, 'POST', '/walker/sessions')).status).toBe(201);
    const refused = await call(service, 'POST', '/walker/sessions');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'session_limit_reached', message: expect.stringMatching(/^64 sessions are open, the most this server keeps \(--max-sessions\)/) as unknown });
  });

  it('--max-sessions 2 refuses the third session with 429', async () => {
    const service = await serve(['--max-sessions', '2']);
    expect((await call(service, 'POST', '/walker/sessions')).status).toBe(201);
    expect((await call(service, 'POST', '/walker/sessions')).status).toBe(201);
    const refused = await call(service, 'POST', '/walker/sessions');
    expect(refused).toMatchObject({ status: 429, body: { code: 'session_limit_reached' } });
    expect(String(refused.body.message)).toMatch(/^2 sessions are open/);
  });

  it('--session-ttl 2 lets an idle session expire after 2 s, then answers 410 session_expired', async () => {
    const service = await serve(['--session-ttl', '2']);
    const created = Date.now();
    const id = String((await call(service, 'POST', '/walker/sessions')).body.id);
    // Reading a session renews nothing, so it can be watched until it expires; within 2 s it is still there.
    const first = await call(service, 'GET', `/walker/sessions/${id}`);
    if (Date.now() - created < 2000) expect(first.status).toBe(200);
    const expired = async (): Promise<{ status: number; body: Record<string, unknown> }> => {
      for (;;) {
        const answer = await call(service, 'GET', `/walker/sessions/${id}`);
        if (answer.status !== 200) return answer;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    const gone = await expired();
    // Not before its 2 s (the service's clock is this machine's); the test's own time limit bounds the wait.
    expect(Date.now() - created).toBeGreaterThanOrEqual(2000);
    expect(gone).toEqual({
      status: 410,
      body: {
        code: 'session_expired',
        message: `Session '${id}' expired after 2 s without a request (--session-ttl) and was deleted; create a new one with POST /walker/sessions.`,
      },
    });
    expect((await call(service, 'GET', `/walker/sessions/${id}/hasNext`)).status).toBe(410);
  });

  it('--node-id starts every session and draft id with the name and a dot', async () => {
    const service = await serve(['--node-id', 'node-7']);
    expect(String((await call(service, 'POST', '/walker/sessions')).body.id)).toMatch(/^node-7\.[0-9a-f-]{36}$/);
    expect(String((await call(service, 'POST', '/walker/drafts')).body.draft_id)).toMatch(/^node-7\./);
    expect(String((await call(await serve([]), 'POST', '/walker/sessions')).body.id)).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('the script limits of online', () => {
  it('--script-memory: a script that fills memory is stopped at the limit given, and named', async () => {
    const service = await serve(['-m', LOGIN, COVER, '--script-memory', '16MiB']);
    await http(service.url, 'GET', '/walker/getNext');
    const answer = await setData(service, 'bomb = []; for (;;) bomb.push(new Array(100000).fill(1));');
    expect(answer).toEqual({ result: 'nok', error: "model 'login', setData: Script exceeded the memory limit of 16 MiB" });
  });

  it('--script-memory: refuses less than the script engine starts with, and what is no size', async () => {
    const small = await runCli(['online', '-s', 'RESTFUL', '-p', '0', '--script-memory', '1MiB']);
    expect(small.code).toBe(1);
    expect(small.stderr.split('\n')[0]).toBe(
      'walker online: invalid value for --script-memory: must be at least 16 MiB, the memory QuickJS starts with; got 1 MiB',
    );
    const decimal = await runCli(['online', '-s', 'RESTFUL', '-p', '0', '--script-memory', '64MB']);
    expect(decimal.code).toBe(1);
    expect(decimal.stderr.split('\n')[0]).toBe(
      "walker online: invalid value for --script-memory: expected a number of bytes, or of KiB, MiB or GiB (e.g. 64MiB), got '64MB'",
    );
  });

  it('--script-timeout: one evaluation is stopped after the milliseconds given', async () => {
    const service = await serve(['-m', LOGIN, COVER, '--script-timeout', '100']);
    const answer = await setData(service, 'for (;;) {}');
    expect(answer).toEqual({ result: 'nok', error: "model 'login', setData: Script exceeded the time limit of 100 ms" });
  });

  it('--script-budget: the scripts of one request are stopped after the milliseconds given', async () => {
    // The budget is below the time limit of an evaluation, so it is what stops the endless script.
    const service = await serve(['-m', LOGIN, COVER, '--script-budget', '100', '--script-timeout', '5000']);
    const answer = await setData(service, 'for (;;) {}');
    expect(answer).toEqual({ result: 'nok', error: "model 'login', setData: Scripts of one request exceeded the time budget of 100 ms" });
  });

  it("--real-clock: scripts read the host's clock; by default the run's, fixed by the seed", async () => {
    // Seed 0: the run's clock starts at 2024-01-01T00:00:00Z and, before the first step, stands there.
    const runClock = await serve(['-m', LOGIN, COVER, '--seed', '0']);
    await setData(runClock, 't = Date.now()');
    expect(((await http(runClock.url, 'GET', '/graphwalker/getData')).data as Record<string, string>).t).toBe(String(Date.UTC(2024, 0, 1)));

    const realClock = await serve(['-m', LOGIN, COVER, '--seed', '0', '--real-clock']);
    const before = Date.now();
    await setData(realClock, 't = Date.now()');
    const after = Date.now();
    const t = Number(((await http(realClock.url, 'GET', '/graphwalker/getData')).data as Record<string, string>).t);
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(after);
  });
});

describe('--max-draft-memory', () => {
  it('bounds what the drafts may hold together, in the units given', async () => {
    // An empty draft is estimated at a little over 2 KiB: 2KiB leaves room for none, the default for many.
    const tight = await serve(['--max-draft-memory', '2KiB']);
    const refused = await fetch(`${tight.url}/walker/drafts`, { method: 'POST' });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'memory_limit_reached', message: expect.stringContaining('more than the 2 KiB') });
    const roomy = await serve([]);
    expect((await fetch(`${roomy.url}/walker/drafts`, { method: 'POST' })).status).toBe(201);
  });
});

describe('the script limits of offline', () => {
  it('stop an endless action after --script-timeout and name it, exit 2', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'walker-limits-')), 'endless.json');
    const model = {
      models: [
        {
          id: 'endless',
          name: 'Endless',
          startElementId: 'e0',
          vertices: [{ id: 'v1', name: 'v_Stuck' }],
          edges: [{ id: 'e0', name: 'e_Enter', targetVertexId: 'v1', actions: ['for (;;) {}'] }],
        },
      ],
    };
    writeFileSync(file, JSON.stringify(model));
    const run = await runCli(['offline', '-m', file, 'random(length(1))', '--script-timeout', '100']);
    expect([run.code, run.stdout]).toEqual([2, '']);
    expect(run.stderr).toBe("model 'endless', element 'e0', actions: Script exceeded the time limit of 100 ms\n");
  });

  it('refuse a memory limit below what the engine starts with', async () => {
    const run = await runCli(['offline', '-m', LOGIN, COVER, '--script-memory', '1048576']);
    expect(run.code).toBe(1);
    expect(run.stderr.split('\n')[0]).toBe(
      'walker offline: invalid value for --script-memory: must be at least 16 MiB, the memory QuickJS starts with; got 1 MiB',
    );
  });
});
