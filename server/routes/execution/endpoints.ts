import type { FastifyRequest } from 'fastify';
import type { ExecutionSession, SessionLoadResult } from '../../../core/session.js';
import type { Machine, Step } from '../../../core/machine/machine.js';
import type { WalkStatistics } from '../../../core/machine/statistics.js';

/** What each execution endpoint does to the session yields, before a dialect encodes it. */
export interface EndpointResults {
  readonly load: SessionLoadResult;
  readonly hasNext: boolean;
  readonly getNext: Step;
  /** The walk, whose variables the dialect reads in the shape it answers them. */
  readonly getData: Machine;
  readonly setData: undefined;
  readonly restart: undefined;
  readonly fail: string;
  readonly getStatistics: WalkStatistics;
}

export type EndpointName = keyof EndpointResults;

/** The HTTP methods an execution endpoint can be reached with. */
export type EndpointMethod = 'GET' | 'POST' | 'PUT';

/**
 * One execution endpoint: where it is and what it does to the session. What it answers is a dialect's
 * business (server/routes/execution/dialect.ts): the same table serves `/walker` and `/graphwalker`, so a walk
 * started through one is the walk the other sees. Failures are thrown (a WalkerError) and turned into `nok` by
 * the scope's error handler.
 */
export interface Endpoint<N extends EndpointName = EndpointName> {
  readonly name: N;
  readonly methods: readonly EndpointMethod[];
  /** Relative to the family prefix; `*` takes the rest of the path, percent-decoded. */
  readonly url: string;
  /** For the OpenAPI document; each dialect adds what its answer looks like. */
  readonly summary: string;
  /** The query parameters it reads, as a JSON Schema (the same in every dialect). */
  readonly querystring?: object;
  /** Runs inside `session.run`, so strictly one at a time per session. */
  run(session: ExecutionSession, request: FastifyRequest): EndpointResults[N];
}

/** The rest of the path after `setData/` or `fail/`, decoded by Fastify; `%2F` and a plain `/` both arrive. */
function tail(request: FastifyRequest): string {
  return (request.params as { '*'?: string })['*'] ?? '';
}

const load: Endpoint<'load'> = {
  name: 'load',
  methods: ['POST'],
  url: '/load',
  summary: 'Load a model file',
  querystring: {
    type: 'object',
    properties: {
      generator: {
        type: 'string',
        description:
          "Replaces the generator of every model of the file, e.g. 'random(edge_coverage(100))'; a GraphML " +
          'file carries none, so its load needs one.',
      },
    },
  },
  run: (session, request) => {
    const { generator } = request.query as { generator?: string };
    // The body is a model file in any registered format, recognised by its content (JSON, GraphML, ...).
    return session.load(typeof request.body === 'string' ? request.body : '', { generator: generator || undefined });
  },
};

const hasNext: Endpoint<'hasNext'> = {
  name: 'hasNext',
  methods: ['GET'],
  url: '/hasNext',
  summary: 'Whether the walk has a next step',
  run: (session) => session.machine.hasNext(),
};

const getNext: Endpoint<'getNext'> = {
  name: 'getNext',
  methods: ['GET'],
  url: '/getNext',
  summary: 'Take one step',
  run: (session) => session.machine.next(),
};

const getData: Endpoint<'getData'> = {
  name: 'getData',
  methods: ['GET'],
  url: '/getData',
  summary: 'The variables of the walk',
  run: (session) => session.machine,
};

const setData: Endpoint<'setData'> = {
  name: 'setData',
  methods: ['PUT'],
  url: '/setData/*',
  summary: "Run a script in the current model's scope",
  run: (session, request) => {
    session.machine.setData(tail(request));
    return undefined;
  },
};

const restart: Endpoint<'restart'> = {
  name: 'restart',
  methods: ['PUT'],
  url: '/restart',
  summary: 'Restart the walk from the start',
  run: (session) => {
    session.machine.restart();
    return undefined;
  },
};

const fail: Endpoint<'fail'> = {
  name: 'fail',
  methods: ['PUT'],
  url: '/fail/*',
  summary: 'Mark the current model failed',
  run: (session, request) => {
    const reason = tail(request);
    session.machine.fail(reason);
    return reason;
  },
};

const getStatistics: Endpoint<'getStatistics'> = {
  name: 'getStatistics',
  methods: ['GET', 'POST'],
  url: '/getStatistics',
  summary: 'Coverage statistics',
  run: (session) => session.machine.statistics(),
};

/** Every execution endpoint of docs/api-execution.md, in the order the document lists them. */
export const ENDPOINTS: readonly Endpoint[] = [load, hasNext, getNext, getData, setData, restart, fail, getStatistics];
