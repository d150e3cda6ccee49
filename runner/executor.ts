import { format } from 'node:util';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { callStep, DEFAULT_STEP_TIMEOUT_MS } from './call-step.js';
import { RunnerError } from './errors.js';
import { loadTestModule, type TestModule } from './load-module.js';
import { literalOf, valueOfText } from './step-data.js';
import { MAX_JSON_NESTING } from '../core/model/json-syntax.js';
import { TestSuite } from './test-suite.js';

/** AltWalker's status codes for an executor's faults (its `HttpExecutor.ERROR_CODES`). */
const STATUS = { badRequest: 400, notFound: 404, modelNotFound: 460, stepNotFound: 461, invalidHandler: 462, pathNotFound: 463, loadError: 464, notLoaded: 465, internal: 500 } as const;

/** A fault answered with AltWalker's status and `{"error": {"message", "trace"}}`. */
class ExecutorFault extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly trace = '',
  ) {
    super(message);
  }
}

export interface ExecutorOptions {
  /** The test module the executor serves: `POST /altwalker/load` (re)loads it, whatever path AltWalker sends. */
  readonly tests: string;
  readonly stepTimeoutMs?: number;
  readonly cwd?: string;
}

/**
 * AltWalker's HTTP executor protocol (docs/runner.md), served from a test module: AltWalker 0.4 run as
 * `altwalker online <tests> -x http --executor-url <url>` calls `load`, `reset`, `hasModel`, `hasStep` and
 * `executeStep` under `/altwalker/`, and this answers them from the module's classes and fixtures, with the
 * runner's lookups and calls. AltWalker chooses the steps and keeps the data; a step gets the data and the
 * step AltWalker sends and answers the data as the step left it, with what it printed as `output`.
 */
export function executorApp(options: ExecutorOptions): FastifyInstance {
  const app = Fastify({ logger: false });
  const timeout = options.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
  let module: TestModule | undefined;
  let suite: TestSuite | undefined;

  const loaded = (): TestSuite => {
    if (suite === undefined) throw new ExecutorFault(STATUS.notLoaded, 'No test code is loaded: POST /altwalker/load first.');
    return suite;
  };
  const query = (q: unknown, key: string): string | undefined => {
    const value = (q as Record<string, unknown> | undefined)?.[key];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };

  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply: FastifyReply) => {
    if (error instanceof ExecutorFault) return reply.code(error.status).send({ error: { message: error.message, trace: error.trace } });
    const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : STATUS.internal;
    return reply.code(status).send({ error: { message: error.message, trace: error.stack ?? '' } });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(STATUS.notFound).send({ error: { message: `No such executor call: ${request.method} ${request.url.split('?')[0]}`, trace: '' } }),
  );

  app.post('/altwalker/load', async () => {
    try {
      module = await loadTestModule(options.tests, options.cwd);
    } catch (error) {
      const status = error instanceof RunnerError && /does not exist/.test(error.message) ? STATUS.pathNotFound : STATUS.loadError;
      throw new ExecutorFault(status, (error as Error).message, String((error as Error).cause instanceof Error ? ((error as Error).cause as Error).stack : ''));
    }
    suite = new TestSuite(module);
    return { payload: {} };
  });

  // A fresh instance of every class, as AltWalker's reset before a run asks.
  app.put('/altwalker/reset', async () => {
    loaded();
    suite = new TestSuite(module!);
    return { payload: {} };
  });

  app.get('/altwalker/hasModel', async (request) => {
    const name = query(request.query, 'name') ?? '';
    return { payload: { hasModel: loaded().hasModel(name) } };
  });

  app.get('/altwalker/hasStep', async (request) => {
    const tests = loaded();
    const model = query(request.query, 'modelName');
    const name = query(request.query, 'name') ?? '';
    return { payload: { hasStep: tests.lookup(model, name) !== undefined } };
  });

  app.post('/altwalker/executeStep', async (request) => {
    const tests = loaded();
    const model = query(request.query, 'modelName');
    const name = query(request.query, 'name');
    if (name === undefined) throw new ExecutorFault(STATUS.stepNotFound, 'executeStep needs the query parameter name.');
    if (model !== undefined && !tests.hasModel(model)) {
      if (Object.hasOwn(module!.exports, model)) throw new ExecutorFault(STATUS.invalidHandler, `The test code exports '${model}', but not as a class or object.`);
      throw new ExecutorFault(STATUS.modelNotFound, `The test code has no class '${model}'.`);
    }
    const fn = tests.lookup(model, name);
    if (fn === undefined) throw new ExecutorFault(STATUS.stepNotFound, model === undefined ? `The test code exports no function '${name}'.` : `The class '${model}' has no method '${name}'.`);
    const body = (request.body ?? {}) as { data?: unknown; step?: unknown };
    // Copied and compared recursively below: a body of 1 MiB of brackets overflowed the stack as a 500.
    if (nestsDeeperThan(body, MAX_JSON_NESTING)) {
      throw new ExecutorFault(STATUS.badRequest, `The body of executeStep nests arrays and objects more than ${MAX_JSON_NESTING} deep; a step's data and step need a few levels.`);
    }
    const sent = body.data !== null && typeof body.data === 'object' ? (body.data as Record<string, unknown>) : {};
    const data = plainData(sent);
    const output: string[] = [];
    let error: { message: string; trace: string } | undefined;
    let result: unknown;
    const restore = captureConsole(output);
    try {
      const pending = callStep((...args) => (result = fn(...args)), [data, body.step ?? {}], timeout);
      if (pending !== undefined) {
        await pending;
        result = await (result as PromiseLike<unknown>);
      }
    } catch (thrown) {
      // A method that failed returned nothing: not the promise it rejected.
      result = undefined;
      error = { message: thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown), trace: thrown instanceof Error ? (thrown.stack ?? '') : '' };
    } finally {
      restore();
    }
    let answer: Record<string, unknown>;
    try {
      answer = answeredData(sent, data, model === undefined ? name : `${model}.${name}`);
    } catch (refused) {
      // Data the walk cannot hold (a function, a cycle) fails the step by name, and AltWalker's data stays as it sent it.
      if (!(refused instanceof RunnerError)) throw refused;
      return { payload: { output: output.join(''), data: sent, error: error ?? { message: refused.message, trace: '' } } };
    }
    return { payload: { output: output.join(''), data: answer, ...(jsonable(result) ? { result } : {}), ...(error === undefined ? {} : { error }) } };
  });

  return app;
}

/** Starts the executor on a port (0: any free one) and answers its URL. */
export async function startExecutor(options: ExecutorOptions & { readonly port?: number; readonly host?: string }): Promise<{ url: string; app: FastifyInstance }> {
  const app = executorApp(options);
  const url = await app.listen({ port: options.port ?? 5000, host: options.host ?? '127.0.0.1' });
  return { url, app };
}

/**
 * What a step prints through `console` goes into its `output`, as AltWalker's executors answer it. Console is
 * the process's: AltWalker sends one step at a time, so the capture holds for one call.
 */
function captureConsole(output: string[]): () => void {
  const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
  const saved = methods.map((m) => console[m]);
  for (const m of methods) console[m] = (...args: unknown[]) => void output.push(`${format(...args)}\n`);
  return () => methods.forEach((m, i) => (console[m] = saved[i]));
}

function jsonable(value: unknown): boolean {
  if (value === undefined) return false;
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * AltWalker hands on the data as GraphWalker's getData gives it, every value a string (`"0"`, `"false"`). A
 * method gets plain values, as under `walker run`, so that one test module serves both; `data.items + 1` must
 * not be `"01"`.
 */
function plainData(sent: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(sent).map(([key, value]) => [key, typeof value === 'string' ? valueOfText(value) : value]));
}

/**
 * The data as the step left it, with every value the step did not change answered as AltWalker sent it:
 * AltWalker writes back each key whose value differs from what it sent (a string quoted), so a `0` answered
 * for `"0"` would cost a setData per key and step. A changed value goes back as a plain value, which AltWalker
 * writes unquoted when it is a number or boolean. A changed value the walk's variables cannot hold is refused
 * as `walker run` refuses it (RUNNER_DATA, naming the step and the key).
 */
function answeredData(sent: Record<string, unknown>, data: Record<string, unknown>, where: string): Record<string, unknown> {
  const answer: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const unchanged = Object.hasOwn(sent, key) && sameJson(value, typeof sent[key] === 'string' ? valueOfText(sent[key]) : sent[key]);
    if (!unchanged) literalOf(value, key, where);
    answer[key] = unchanged ? sent[key] : value;
  }
  return answer;
}

function sameJson(a: unknown, b: unknown): boolean {
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

/** True when `value` nests arrays and objects more than `max` deep; measured without recursion, so any depth is. */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<{ readonly value: unknown; readonly depth: number }> = [{ value, depth: 0 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if (top.value === null || typeof top.value !== 'object') continue;
    if (top.depth >= max) return true;
    for (const child of Object.values(top.value)) stack.push({ value: child, depth: top.depth + 1 });
  }
  return false;
}
