import type { Encoding } from './dialect.js';
import { hasNextResponse, loadResponse, okResponse, statisticsResponse } from './schemas.js';

const OK = Object.freeze({ result: 'ok' });
const HAS_NEXT = Object.freeze({ result: 'ok', hasNext: 'true' });
const NO_NEXT = Object.freeze({ result: 'ok', hasNext: 'false' });

/** The answer every dialect gives to a request that did what it asked and has nothing to say: `{"result":"ok"}`. */
export function answerOk(): object {
  return OK;
}

/**
 * The endpoints both dialects answer alike: load with the seed, hasNext's string, the bare `ok` of setData and
 * restart, the statistics. A dialect takes these and says only how it differs.
 */
export const commonEncodings: {
  readonly load: Encoding<'load'>;
  readonly hasNext: Encoding<'hasNext'>;
  readonly setData: Encoding<'setData'>;
  readonly restart: Encoding<'restart'>;
  readonly getStatistics: Encoding<'getStatistics'>;
} = {
  load: {
    description:
      'Replaces the loaded model, its position, data and statistics, and runs the model actions; answers the ' +
      "seed that replays the walk (GraphWalker answers none; its clients ignore the member). The body is a JSON " +
      'or yEd GraphML model file, told apart by its content. A failed load changes nothing.',
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
  setData: {
    description:
      "Runs the script in the current model's scope. The script is the rest of the path, percent-encoded " +
      'whole (? and # must be encoded).',
    response: okResponse,
    encode: answerOk,
  },
  restart: {
    description: 'A full reset with the same seed: the walk after a restart repeats the walk after the load.',
    response: okResponse,
    encode: answerOk,
  },
  getStatistics: {
    description:
      'Percentages are floor(100 * visited / total); the requirement figures and lists (requirementsPassed, ' +
      'requirementsNotCovered, and requirementsFailed, whose items name the key RequirementKey) appear only ' +
      'when the models have requirements. GET and POST answer the same.',
    response: statisticsResponse,
    // GraphWalker's members only: what walker adds is /walker's (walkerDialect).
    encode: ({ planning: _planning, ...statistics }) => ({ result: 'ok', ...statistics }),
  },
};
