import { reportStep } from '../../../core/machine/step-report.js';
import { JSON_TYPE, type Dialect } from './dialect.js';
import {
  hasNextResponse,
  loadResponse,
  okResponse,
  statisticsResponse,
  walkerGetDataResponse,
  walkerGetNextResponse,
} from './schemas.js';

const OK = Object.freeze({ result: 'ok' });
const HAS_NEXT = Object.freeze({ result: 'ok', hasNext: 'true' });
const NO_NEXT = Object.freeze({ result: 'ok', hasNext: 'false' });

/** `/walker`: walker's own encoding of GraphWalker's legacy format (docs/api-execution.md). */
export const walkerDialect: Dialect = {
  name: 'execution',
  prefix: '/walker',
  tag: 'execution',
  tagDescription:
    "walker's execution endpoints under /walker: every answer is {\"result\":\"ok\", ...} or " +
    '{"result":"nok","error":"..."}. Application failures answer nok with HTTP 200, as GraphWalker does. ' +
    'Requests that never reach the walk answer nok with another status: 404 for a path under /walker that is ' +
    'no endpoint, 405 for an endpoint with a method it does not take (HEAD included; the Allow header lists ' +
    'the methods it takes), 400 for a URL that cannot be decoded, 413 for a load body over --max-model-bytes.',
  operationPrefix: '',
  contentType: JSON_TYPE,
  encodings: {
    load: {
      description:
        'Replaces the loaded model, its position, data and statistics, and runs the model actions; ' +
        'answers the seed that replays the walk. The body is a JSON or yEd GraphML model file, told apart by ' +
        'its content. A failed load changes nothing.',
      response: loadResponse,
      encode: ({ seed }) => ({ result: 'ok', seed }),
    },
    hasNext: {
      description:
        'The string "true" or "false"; "false" once every stop condition is fulfilled, after a dead end, or ' +
        'after fail.',
      response: hasNextResponse,
      encode: (more) => (more ? HAS_NEXT : NO_NEXT),
    },
    getNext: {
      description:
        "Runs the element's actions and updates coverage; answers the element walked (its name is \"\" " +
        'when it has none), its id, its model id and the base name of its model\'s name, and with --verbose ' +
        "and --unvisited what GraphWalker's verbose and unvisited steps carry.",
      response: walkerGetNextResponse,
      encode: (step, { session, report }) => ({
        result: 'ok',
        currentElementName: step.name,
        currentElementID: step.id,
        modelId: step.modelId,
        ...reportStep(session.machine, step, report),
      }),
    },
    getData: {
      description:
        "name=value pairs joined by '; ', the current model's first, then shared ones as global.name=value.",
      response: walkerGetDataResponse,
      encode: (machine) => ({ result: 'ok', data: machine.data() }),
    },
    setData: {
      description: 'The script is the rest of the path, percent-encoded whole (? and # must be encoded).',
      response: okResponse,
      encode: () => OK,
    },
    restart: {
      description: 'A full reset with the same seed: the walk after a restart repeats the walk after the load.',
      response: okResponse,
      encode: () => OK,
    },
    fail: {
      description:
        'With the requirements of the current element and of the edge before it; hasNext is "false" for ' +
        'that model afterwards. The reason is the rest of the path, encoded like a setData script.',
      response: okResponse,
      encode: () => OK,
    },
    getStatistics: {
      description:
        'GET and POST answer the same. Percentages are floor(100 * visited / total); the requirement ' +
        'figures and lists appear only when the models have requirements.',
      response: statisticsResponse,
      encode: (statistics) => ({ result: 'ok', ...statistics }),
    },
  },
};
