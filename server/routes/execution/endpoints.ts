import type { FastifyRequest } from 'fastify';
import type { ExecutionSession } from '../../../core/session.js';
import type { Step } from '../../../core/machine/machine.js';
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
  readonly schema: object;
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

function stepBody(step: Step): object {
  return { result: 'ok', currentElementName: step.name, currentElementID: step.id, modelId: step.modelId };
}

/** Every execution endpoint of docs/api-execution.md. */
export const ENDPOINTS: readonly Endpoint[] = [
  {
    methods: ['POST'],
    url: '/load',
    schema: loadSchema,
    run: (session, request) => {
      const body = request.body;
      const { seed } = session.load(typeof body === 'string' ? body : '');
      return { result: 'ok', seed };
    },
  },
  {
    methods: ['GET'],
    url: '/hasNext',
    schema: hasNextSchema,
    run: (session) => (session.machine.hasNext() ? HAS_NEXT : NO_NEXT),
  },
  {
    methods: ['GET'],
    url: '/getNext',
    schema: getNextSchema,
    run: (session) => stepBody(session.machine.next()),
  },
  {
    methods: ['GET'],
    url: '/getData',
    schema: getDataSchema,
    run: (session) => ({ result: 'ok', data: session.machine.data() }),
  },
  {
    methods: ['PUT'],
    url: '/setData/*',
    schema: okSchema,
    run: (session, request) => {
      session.machine.setData(tail(request));
      return OK;
    },
  },
  {
    methods: ['PUT'],
    url: '/restart',
    schema: okSchema,
    run: (session) => {
      session.machine.restart();
      return OK;
    },
  },
  {
    methods: ['PUT'],
    url: '/fail/*',
    schema: okSchema,
    run: (session, request) => {
      session.machine.fail(tail(request));
      return OK;
    },
  },
  {
    methods: ['GET', 'POST'],
    url: '/getStatistics',
    schema: statisticsSchema,
    run: (session) => ({ result: 'ok', ...session.machine.statistics() }),
  },
];
