import { joinVariables } from '../../../core/machine/machine.js';
import { JSON_TYPE, type Dialect } from './dialect.js';
import { answerOk, getStatistics } from './endpoints.js';
import { getModelResponse, okResponse, walkerGetDataResponse, walkerGetNextResponse, walkerLoadResponse, walkerStatisticsResponse } from './schemas.js';

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
        'Replaces the loaded model, its position, data and statistics, and runs the model actions; answers the ' +
        'seed that replays the walk, and the warnings of the load when it has any: the model checks of the ' +
        "loader, edges no state of the walk lets through (closed_edge) and a planning bound reached (plan_bound). " +
        'The body is a JSON or yEd GraphML model file, told apart by its content. A failed load changes nothing.',
      response: walkerLoadResponse,
      encode: ({ seed, warnings }) => (warnings.length === 0 ? { result: 'ok', seed } : { result: 'ok', seed, warnings }),
    },
    getStatistics: {
      description:
        `${getStatistics.answer.description} For a walk with guards, planning says how many states ` +
        'planning with guards explored, its bounds, which bound an exploration stopped at (boundHit), if any, and then the decisions planned on the fly (decisions) and those that went by the graph alone (graphDecisions).',
      response: walkerStatisticsResponse,
      encode: (statistics) => ({ result: 'ok', ...statistics }),
    },
    getNext: {
      description:
        "Runs the element's actions and updates coverage; answers the element walked (its name is \"\" " +
        'when it has none), its id, its model id and the base name of its model\'s name, and with --verbose ' +
        "and --unvisited what GraphWalker's verbose and unvisited steps carry.",
      response: walkerGetNextResponse,
      encode: ({ step, report }) => ({
        result: 'ok',
        currentElementName: step.name,
        currentElementID: step.id,
        modelId: step.modelId,
        ...report,
      }),
    },
    getData: {
      description:
        "name=value pairs joined by '; ', the current model's first, then shared ones as global.name=value.",
      response: walkerGetDataResponse,
      encode: (variables) => ({ result: 'ok', data: joinVariables(variables) }),
    },
    getModel: {
      description:
        'The model file of the last load as the loader read it, in the canonical JSON form (a GraphML load ' +
        "answers JSON too): what the editor opens a running walk's models from, and the REST form of the " +
        "WebSocket service's getModel. Before a load: nok.",
      response: getModelResponse,
      encode: (file) => ({ result: 'ok', model: file }),
    },
    fail: {
      description:
        'With the requirements of the current element and of the edge before it; hasNext is "false" for ' +
        'that model afterwards. The reason is the rest of the path, encoded like a setData script.',
      response: okResponse,
      encode: answerOk,
    },
  },
};
