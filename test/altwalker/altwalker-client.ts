import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { createServer } from 'node:net';
import { ROOT } from '../cli/online-helpers.js';
import { tracked } from '../support/child-processes.js';

/**
 * AltWalker 0.4's side of a GraphWalker service, as its `GraphWalkerService` and `GraphWalkerClient` behave:
 * it spawns the executable with its own argument list, waits for `[HttpServer] Started` in the output (with no
 * time limit of its own), and makes every call on a new connection with no Content-Type, reading the status
 * first and then `result`.
 */

/** Python's `urllib.parse.quote(text, safe="")`: everything but letters, digits and `_.-~` percent-encoded. */
export function pyQuote(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A port nobody listens on, as AltWalker's callers pick one. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

/** A service AltWalker started: the process, and its output (AltWalker captures stdout and stderr into one log). */
export interface AltWalkerService {
  readonly process: ChildProcess;
  readonly port: number;
  log(): string;
  kill(): Promise<void>;
}

/**
 * Spawns `walker <args>` and resolves once a line contains `[HttpServer] Started`; rejects if the process
 * exits first, as AltWalker does. AltWalker itself would wait forever: the test's bound is 60 s.
 */
export function startAsAltWalker(args: readonly string[], port: number): Promise<AltWalkerService> {
  const child = tracked(spawn(process.execPath, ['bin/walker.js', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }));
  let log = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const service: AltWalkerService = {
    process: child,
    port,
    log: () => log,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
  return new Promise((resolve, reject) => {
    // A start takes a second alone; a machine busy with other suites took more than 15 s. One that never
    // starts is ended, not left running behind the failed test.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no [HttpServer] Started line within 60 s:\n${log}`));
    }, 60_000);
    const read = (chunk: Buffer): void => {
      log += String(chunk);
      if (log.split('\n').some((line) => line.includes('[HttpServer] Started'))) {
        clearTimeout(timer);
        resolve(service);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the service exited before it started:\n${log}`));
    });
  });
}

/** An answer as AltWalker's client sees it. */
export interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** One call on a connection of its own, with no Content-Type, as `requests.get/put/post(url)` makes it. */
export function gwCall(port: number, method: string, path: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = body === undefined ? {} : { 'content-length': Buffer.byteLength(body) };
    const request = http.request(
      { agent: false, host: '127.0.0.1', port, method, path: `/graphwalker${path}`, headers },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          try {
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> });
          } catch (error) {
            reject(new Error(`${method} ${path}: not JSON: ${text}`, { cause: error }));
          }
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * AltWalker's `GraphWalkerClient._validate_response`: a status other than 200 or a `result` other than `ok`
 * raises; otherwise the body without `result`.
 */
export async function gw(port: number, method: string, path: string, body?: string): Promise<Record<string, unknown>> {
  const { status, body: answer } = await gwCall(port, method, path, body);
  if (status !== 200) throw new Error(`GraphWalker responded with status code: ${status}.`);
  if (answer.result !== 'ok') throw new Error(String(answer.error ?? 'GraphWalker responded with a nok status.'));
  const { result: _result, ...rest } = answer;
  return rest;
}

/** One step as AltWalker's `_normalize_step(step, verbose=True)` makes it, plus what the runner reads of it. */
export interface NormalisedStep {
  readonly id: unknown;
  readonly name: unknown;
  readonly modelName: unknown;
  readonly data: Record<string, unknown>;
  readonly properties: unknown;
  readonly actions: unknown;
}

/** `_normalize_step`: `data` folded from a list of single-member objects into a dict, `actions` into scripts. */
export function normaliseStep(step: Record<string, unknown>): NormalisedStep {
  const data = Object.assign({}, ...(step.data as Array<Record<string, unknown>>)) as Record<string, unknown>;
  const actions = (step.actions as Array<{ Action: string }> | undefined)?.map((a) => a.Action);
  return { id: step.currentElementID, name: step.currentElementName, modelName: step.modelName, data, properties: step.properties, actions };
}
