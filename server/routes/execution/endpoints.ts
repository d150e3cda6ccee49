import type { FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { andThen } from '../../../core/awaitable.js';
import type { Awaitable, SessionLoadResult, SessionWalk, StepAnswer } from '../../../core/session.js';
import type { WalkStatistics } from '../../../core/machine/statistics.js';
import type { ModelFileJson } from '../../../core/model/types.js';
import type { Encoding } from './dialect.js';
import { hasNextResponse, loadResponse, okResponse, statisticsResponse } from './schemas.js';

/** What each execution endpoint does to the session yields, before a dialect encodes it. */
export interface EndpointResults {
  readonly load: SessionLoadResult;
  readonly hasNext: boolean;
  readonly getNext: StepAnswer;
  /** The variables, current model's first, then the shared ones as `global.<name>`; each dialect picks its shape. */
  readonly getData: Array<[string, string]>;
  readonly setData: void;
  readonly restart: void;
  readonly fail: string;
  readonly getStatistics: WalkStatistics;
  /** The model file of the last load, as the loader read it. */
  readonly getModel: ModelFileJson;
}

export type EndpointName = keyof EndpointResults;

/**
 * What each endpoint takes of a request, read from it by the endpoint's {@link Endpoint.input}; a wire that is
 * not HTTP (GraphWalker's WebSocket commands) reads the same from its own messages.
 */
export interface EndpointInputs {
  readonly load: { readonly text: string; readonly generator?: string };
  readonly hasNext: void;
  readonly getNext: void;
  readonly getData: void;
  /** The script. */
  readonly setData: string;
  readonly restart: void;
  /** The reason. */
  readonly fail: string;
  readonly getStatistics: void;
  readonly getModel: void;
}

/** The HTTP methods an execution endpoint can be reached with. */
export type EndpointMethod = 'GET' | 'POST' | 'PUT';

/**
 * One execution endpoint: where it is, what it does to the session, and how every dialect answers it unless a
 * dialect encodes it its own way (server/routes/execution/dialect.ts): the same table serves `/walker` and
 * `/graphwalker`, so a walk started through one is the walk the other sees. Failures are thrown (a
 * WalkerError) and turned into `nok` by the scope's error handler.
 */
export interface Endpoint<N extends EndpointName = EndpointName> {
  readonly name: N;
  readonly methods: readonly EndpointMethod[];
  /** Relative to the family prefix; `*` takes the rest of the path, percent-decoded. */
  readonly url: string;
  /** For the OpenAPI document; each dialect adds what its answer looks like. */
  readonly summary: string;
  /** The query parameters it reads, as a JSON Schema (the same in every dialect). */
  readonly querystring?: TSchema;
  /** What it takes of an HTTP request. */
  input(request: FastifyRequest): EndpointInputs[N];
  /** Runs in the session's queue, so strictly one at a time per session; the walk may answer later (another thread). */
  run(walk: SessionWalk, input: EndpointInputs[N]): Awaitable<EndpointResults[N]>;
  /** The answer of every dialect that does not encode the endpoint its own way; without it, each must. */
  readonly answer?: Encoding<N>;
}

const OK = Object.freeze({ result: 'ok' });
const HAS_NEXT = Object.freeze({ result: 'ok', hasNext: 'true' });
const NO_NEXT = Object.freeze({ result: 'ok', hasNext: 'false' });

/** The answer every dialect gives to a request that did what it asked and has nothing to say: `{"result":"ok"}`. */
export function answerOk(): object {
  return OK;
}

/** For endpoints that take nothing of the request. */
const nothing = (): void => undefined;

/** The rest of the path after `setData/` or `fail/`, decoded by Fastify; `%2F` and a plain `/` both arrive. */
function tail(request: FastifyRequest): string {
  return (request.params as { '*'?: string })['*'] ?? '';
}

const load: Endpoint<'load'> = {
  name: 'load',
  methods: ['POST'],
  url: '/load',
  summary: 'Load a model file',
  querystring: Type.Object({
    generator: Type.Optional(
      Type.String({
        description:
          "Replaces the generator of every model of the file, e.g. 'random(edge_coverage(100))'; a GraphML " +
          'file carries none, so its load needs one.',
      }),
    ),
  }),
  input: (request) => {
    const { generator } = request.query as { generator?: string };
    // The body is a model file in any registered format, recognised by its content (JSON, GraphML, ...).
    return { text: typeof request.body === 'string' ? request.body : '', generator: generator || undefined };
  },
  run: (walk, { text, generator }) => walk.load(text, { generator }),
  answer: {
    description:
      'Replaces the loaded model, its position, data and statistics, and runs the model actions; answers the ' +
      "seed that replays the walk (GraphWalker answers none; its clients ignore the member). The body is a JSON " +
      'or yEd GraphML model file, told apart by its content. A failed load changes nothing.',
    response: loadResponse,
    encode: ({ seed }) => ({ result: 'ok', seed }),
  },
};

const hasNext: Endpoint<'hasNext'> = {
  name: 'hasNext',
  methods: ['GET'],
  url: '/hasNext',
  summary: 'Whether the walk has a next step',
  input: nothing,
  run: (walk) => walk.hasNext(),
  answer: {
    description:
      'The string "true" or "false"; "false" once every stop condition is fulfilled, after a dead end, or ' +
      'after fail.',
    response: hasNextResponse,
    encode: (more) => (more ? HAS_NEXT : NO_NEXT),
  },
};

const getNext: Endpoint<'getNext'> = {
  name: 'getNext',
  methods: ['GET'],
  url: '/getNext',
  summary: 'Take one step',
  input: nothing,
  run: (walk) => walk.next(),
};

const getData: Endpoint<'getData'> = {
  name: 'getData',
  methods: ['GET'],
  url: '/getData',
  summary: 'The variables of the walk',
  input: nothing,
  run: (walk) => walk.variables(),
};

const setData: Endpoint<'setData'> = {
  name: 'setData',
  methods: ['PUT'],
  url: '/setData/*',
  summary: "Run a script in the current model's scope",
  input: tail,
  run: (walk, script) => walk.setData(script),
  answer: {
    description:
      "Runs the script in the current model's scope. The script is the rest of the path, percent-encoded " +
      'whole (? and # must be encoded).',
    response: okResponse,
    encode: answerOk,
  },
};

const restart: Endpoint<'restart'> = {
  name: 'restart',
  methods: ['PUT'],
  url: '/restart',
  summary: 'Restart the walk from the start',
  input: nothing,
  run: (walk) => walk.restart(),
  answer: {
    description: 'A full reset with the same seed: the walk after a restart repeats the walk after the load.',
    response: okResponse,
    encode: answerOk,
  },
};

const fail: Endpoint<'fail'> = {
  name: 'fail',
  methods: ['PUT'],
  url: '/fail/*',
  summary: 'Mark the current model failed',
  input: tail,
  run: (walk, reason) => andThen(walk.fail(reason), () => reason),
};

/** Exported for `/walker`, whose answer adds to this one's. */
export const getStatistics: Endpoint<'getStatistics'> & Required<Pick<Endpoint<'getStatistics'>, 'answer'>> = {
  name: 'getStatistics',
  methods: ['GET', 'POST'],
  url: '/getStatistics',
  summary: 'Coverage statistics',
  input: nothing,
  run: (walk) => walk.statistics(),
  answer: {
    description:
      'Percentages are floor(100 * visited / total); the requirement figures and lists (requirementsPassed, ' +
      'requirementsNotCovered, and requirementsFailed, whose items name the key RequirementKey) appear only ' +
      'when the models have requirements. GET and POST answer the same.',
    response: statisticsResponse,
    // GraphWalker's members only: what walker adds is /walker's (walkerDialect).
    encode: ({ planning: _planning, ...statistics }) => ({ result: 'ok', ...statistics }),
  },
};

const getModel: Endpoint<'getModel'> = {
  name: 'getModel',
  methods: ['GET'],
  url: '/getModel',
  summary: 'The loaded model file',
  input: nothing,
  run: (walk) => walk.modelFile(),
};

/** Every execution endpoint of docs/api-execution.md, in the order the document lists them. */
export const ENDPOINTS: readonly Endpoint[] = [load, hasNext, getNext, getData, setData, restart, fail, getStatistics, getModel];
