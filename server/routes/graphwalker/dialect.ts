import { ErrorCodes, WalkerError } from '../../../core/errors.js';
import { ownVariables } from '../../../core/machine/machine.js';
import { andThen } from '../../../core/awaitable.js';
import type { Dialect } from '../execution/dialect.js';
import { failedAsAskedResponse, graphwalkerGetDataResponse, graphwalkerGetNextResponse } from '../execution/schemas.js';

/** GraphWalker's answers say they are text, though they are JSON; clients parse them as JSON either way. */
const GRAPHWALKER_TYPE = 'text/plain; charset=utf-8';

/** GraphWalker's `data` of getData: the current model's variables as an object of strings, no `global.` ones. */
export function graphwalkerData(variables: ReadonlyArray<[string, string]>): Record<string, string> {
  return Object.fromEntries(ownVariables(variables));
}

export const NOTHING_TO_FAIL_MESSAGE = 'There is no step to fail yet: take one with getNext first. The model is not failed.';

/**
 * `/graphwalker`: GraphWalker 4.3's REST answers, for AltWalker and every other client written against it
 * (docs/graphwalker.md lists where walker still differs, and why).
 */
export const graphwalkerDialect: Dialect = {
  name: 'graphwalker',
  prefix: '/graphwalker',
  tag: 'graphwalker',
  tagDescription:
    "GraphWalker 4.3's REST dialect under /graphwalker, on the same walk as /walker: answers are JSON sent " +
    'as text/plain, {"result":"ok", ...} or {"result":"nok","error":"..."} with HTTP 200. getData answers an ' +
    'object of strings, getNext the element name (and, with --verbose, its id, data, properties and actions), ' +
    'fail answers nok with the reason.',
  operationPrefix: 'graphwalker',
  contentType: GRAPHWALKER_TYPE,
  leavesOut: ['getModel'],
  encodings: {
    getNext: {
      description:
        "Runs the element's actions and answers its name and the base name of its model's name; with " +
        '--verbose its id, the current model\'s variables as [{"name":"value"}], its properties as ' +
        '[{"key":value}] and its actions as [{"Action":"script"}]; with --unvisited the counts and list of ' +
        "the current model's unvisited elements.",
      response: graphwalkerGetNextResponse,
      encode: ({ step, report }) => ({
        result: 'ok',
        currentElementName: step.name,
        ...report,
      }),
    },
    getData: {
      description: "The current model's variables as an object whose values are strings; no global. ones.",
      response: graphwalkerGetDataResponse,
      encode: (variables) => ({ result: 'ok', data: graphwalkerData(variables) }),
    },
    fail: {
      description:
        'Marks the current model failed, with the requirements of the current element and of the edge ' +
        'before it, and answers nok with the reason, as GraphWalker does. Before the first step it fails ' +
        'nothing and answers nok saying so.',
      response: failedAsAskedResponse,
      precondition: (walk) =>
        andThen(walk.stepCount(), (steps) => {
          if (steps === 0) throw new WalkerError(ErrorCodes.NOT_STARTED, NOTHING_TO_FAIL_MESSAGE);
        }),
      encode: (reason) => ({ result: 'nok', error: reason }),
    },
  },
};
