import type { FastifyRequest } from 'fastify';
import type { ExecutionSession } from '../../../core/session.js';
import type { Step } from '../../../core/machine/machine.js';
import { reportStep } from '../../../core/machine/step-report.js';
import {
  getDataSchema,
  getNextSchema,
  hasNextSchema,
  loadSchema,
  okSchema,
  statisticsSchema,
} from './schemas.js';

/** The HTTP methods an execution endpoint can be reached with. */
export type EndpointMethod = 'GET' | 'POST' | 'PUT';

/**
 * One execution endpoint: where it is, and what it does to the session as a success body. Failures are
 * thrown (a WalkerError) and turned into `nok` by the scope's error handler.
 */
export interface Endpoint {
  readonly methods: readonly EndpointMethod[];
  /** Relative to the family prefix `/walker`; `*` takes the rest of the path, percent-decoded. */
  readonly url: string;
  /** Response schemas: the success body under 200, which Fastify compiles into the route's serialiser. */
  readonly schema: object;
  /** For the OpenAPI document (server/openapi.ts): the operation id of the first method, a summary, details. */
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  /** Runs inside `session.run`, so strictly one at a time per session. */
  run(session: ExecutionSession, request: FastifyRequest): object;
}

const OK = Object.freeze({ result: 'ok' });
const HAS_NEXT = Object.freeze({ result: 'ok', hasNext: 'true' });
const NO_NEXT = Object.freeze({ result: 'ok', hasNext: 'false' });

/** The rest of the path after `setData/` or `fail/`, decoded by Fastify; `%2F` and a plain `/` both arrive. */
function tail(request: FastifyRequest): string {
  return (request.params as { '*'?: string })['*'] ?? '';
}

function stepBody(session: ExecutionSession, step: Step): object {
  return {
    result: 'ok',
    currentElementName: step.name,
    currentElementID: step.id,
    modelId: step.modelId,
    ...reportStep(session.machine, step),
  };
}

/** Every execution endpoint of docs/api-execution.md. */
export const ENDPOINTS: readonly Endpoint[] = [
  {
    methods: ['POST'],
    url: '/load',
    operationId: 'load',
    summary: 'Load a model file',
    description:
      'Replaces the loaded model, its position, data and statistics, and runs the model actions; ' +
      'answers the seed that replays the walk. The body is a JSON or yEd GraphML model file, told apart by ' +
      'its content. A failed load changes nothing.',
    schema: loadSchema,
    run: (session, request) => {
      const body = request.body;
      const { generator } = request.query as { generator?: string };
      // The body is a model file in any registered format, recognised by its content (JSON, GraphML, ...).
      const { seed } = session.load(typeof body === 'string' ? body : '', { generator: generator || undefined });
      return { result: 'ok', seed };
    },
  },
  {
    methods: ['GET'],
    url: '/hasNext',
    operationId: 'hasNext',
    summary: 'Whether the walk has a next step',
    description:
      'The string "true" or "false"; "false" once every stop condition is fulfilled, after a dead end, or ' +
      'after fail.',
    schema: hasNextSchema,
    run: (session) => (session.machine.hasNext() ? HAS_NEXT : NO_NEXT),
  },
  {
    methods: ['GET'],
    url: '/getNext',
    operationId: 'getNext',
    summary: 'Take one step',
    description:
      "Runs the element's actions and updates coverage; answers the element walked (its name is \"\" " +
      'when it has none).',
    schema: getNextSchema,
    run: (session) => stepBody(session, session.machine.next()),
  },
  {
    methods: ['GET'],
    url: '/getData',
    operationId: 'getData',
    summary: 'The variables of the walk',
    description:
      "name=value pairs joined by '; ', the current model's first, then shared ones as global.name=value.",
    schema: getDataSchema,
    run: (session) => ({ result: 'ok', data: session.machine.data() }),
  },
  {
    methods: ['PUT'],
    url: '/setData/*',
    operationId: 'setData',
    summary: "Run a script in the current model's scope",
    description: 'The script is the rest of the path, percent-encoded whole (? and # must be encoded).',
    schema: okSchema,
    run: (session, request) => {
      session.machine.setData(tail(request));
      return OK;
    },
  },
  {
    methods: ['PUT'],
    url: '/restart',
    operationId: 'restart',
    summary: 'Restart the walk from the start',
    description: 'A full reset with the same seed: the walk after a restart repeats the walk after the load.',
    schema: okSchema,
    run: (session) => {
      session.machine.restart();
      return OK;
    },
  },
  {
    methods: ['PUT'],
    url: '/fail/*',
    operationId: 'fail',
    summary: 'Mark the current model failed',
    description:
      'With the requirements of the current element and of the edge before it; hasNext is "false" for ' +
      'that model afterwards. The reason is the rest of the path, encoded like a setData script.',
    schema: okSchema,
    run: (session, request) => {
      session.machine.fail(tail(request));
      return OK;
    },
  },
  {
    methods: ['GET', 'POST'],
    url: '/getStatistics',
    operationId: 'getStatistics',
    summary: 'Coverage statistics',
    description:
      'GET and POST answer the same. Percentages are floor(100 * visited / total); the requirement ' +
      'figures appear only when the models have requirements.',
    schema: statisticsSchema,
    run: (session) => ({ result: 'ok', ...session.machine.statistics() }),
  },
];
