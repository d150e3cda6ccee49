/**
 * Response schemas of the execution endpoints, in both dialects: they document the success bodies and let
 * Fastify serialise them with a compiled serialiser instead of JSON.stringify (the hot loop is
 * hasNext/getNext). Failure bodies bypass them (see wire.ts); the OpenAPI document adds them beside these
 * (openapi.ts). Keep `anyOf` and `oneOf` out of here: the serialiser would validate every body against the
 * branches to pick one.
 */

const text = { type: 'string' } as const;
const integer = { type: 'integer' } as const;
/** The serialiser ignores `enum` on a string, so this documents without costing anything. */
const ok = { type: 'string', enum: ['ok'] } as const;

/** The `response` member of a route schema whose 200 body is `result` plus these properties. */
function okBody(properties: Record<string, unknown>, required: readonly string[]) {
  return {
    200: {
      type: 'object',
      properties: { result: ok, ...properties },
      required: ['result', ...required],
    },
  } as const;
}

export const okResponse = okBody({}, []);

export const loadResponse = okBody({ seed: integer }, ['seed']);

export const hasNextResponse = okBody({ hasNext: { type: 'string', enum: ['true', 'false'] } }, ['hasNext']);

/** Lists of single-member objects, GraphWalker's shape for a step's data and properties. */
const singleMemberObjects = (values: object) => ({ type: 'array', items: { type: 'object', additionalProperties: values } });

/** The members of core's StepReport: the model's base name always, the rest with `--verbose` and `--unvisited`. */
const stepReport = {
  modelName: text,
  data: singleMemberObjects(text),
  properties: singleMemberObjects({}),
  actions: { type: 'array', items: { type: 'object', properties: { Action: text }, required: ['Action'] } },
  numberOfElements: integer,
  numberOfUnvisitedElements: integer,
  unvisitedElements: { type: 'array', items: { type: 'object', properties: { elementName: text, elementId: text } } },
} as const;

/** `/walker`: the element's name, id and model id always, then the step report. */
export const walkerGetNextResponse = okBody(
  { currentElementName: text, currentElementID: text, modelId: text, ...stepReport },
  ['currentElementName', 'currentElementID', 'modelId'],
);

/** `/graphwalker`: the element's name always; its id only with `--verbose`, as in GraphWalker. */
export const graphwalkerGetNextResponse = okBody({ currentElementName: text, currentElementID: text, ...stepReport }, [
  'currentElementName',
]);

/** `/walker`: the variables as one `name=value; ...` string. */
export const walkerGetDataResponse = okBody({ data: text }, ['data']);

/** `/graphwalker`: the current model's variables as an object of strings. */
export const graphwalkerGetDataResponse = okBody({ data: { type: 'object', additionalProperties: text } }, ['data']);

/**
 * GraphWalker answers `fail` with `nok` and the reason, with HTTP 200, even when the model was failed as asked:
 * the body its clients see, which only check the status.
 */
export const failedAsAskedResponse = {
  200: {
    type: 'object',
    properties: { result: { type: 'string', enum: ['nok'] }, error: text },
    required: ['result', 'error'],
  },
} as const;

const unvisitedEdge = {
  type: 'object',
  properties: { edgeName: text, edgeId: text, modelName: text },
} as const;
const unvisitedVertex = {
  type: 'object',
  properties: { vertexName: text, vertexId: text, modelName: text },
} as const;

function requirement(key: string) {
  return { type: 'object', properties: { [key]: text, modelName: text }, required: [key] } as const;
}

/** Counts that are always there (docs/api-execution.md). */
const COUNTS = [
  'totalNumberOfModels',
  'totalCompletedNumberOfModels',
  'totalFailedNumberOfModels',
  'totalIncompleteNumberOfModels',
  'totalNotExecutedNumberOfModels',
  'totalNumberOfVertices',
  'totalNumberOfEdges',
  'totalNumberOfVisitedVertices',
  'totalNumberOfVisitedEdges',
  'totalNumberOfUnvisitedVertices',
  'totalNumberOfUnvisitedEdges',
  'vertexCoverage',
  'edgeCoverage',
] as const;

/** Counts that are there only when the models have requirements. */
const REQUIREMENT_COUNTS = [
  'totalNumberOfRequirement',
  'totalNumberOfPassedRequirement',
  'totalNumberOfFailedRequirement',
  'totalNumberOfUncoveredRequirement',
  'requirementCoverage',
] as const;

/** GraphWalker's statistics: what `/graphwalker` answers, and what `/walker` extends. */
const statistics = {
  ...Object.fromEntries([...COUNTS, ...REQUIREMENT_COUNTS].map((name) => [name, integer])),
  edgesNotVisited: { type: 'array', items: unvisitedEdge },
  verticesNotVisited: { type: 'array', items: unvisitedVertex },
  requirementsPassed: { type: 'array', items: requirement('requirementKey') },
  requirementsNotCovered: { type: 'array', items: requirement('requirementKey') },
  // GraphWalker capitalises the key's name in this list only; clients read it so.
  requirementsFailed: { type: 'array', items: requirement('RequirementKey') },
};
const STATISTICS_REQUIRED = [...COUNTS, 'edgesNotVisited', 'verticesNotVisited'];

/** `/graphwalker`: GraphWalker's statistics, nothing more. */
export const statisticsResponse = okBody(statistics, STATISTICS_REQUIRED);

/** What planning with guards explored (core's PlanningFigures, docs/planning.md). */
const planningFigures = {
  type: 'object',
  description: 'What planning with guards explored; only for walks with guards.',
  properties: {
    exploredStates: integer,
    stateBound: integer,
    timeBoundMs: integer,
    boundHit: { type: 'string', enum: ['states', 'growth', 'time'] },
    decisions: integer,
    graphDecisions: integer,
  },
  required: ['exploredStates', 'stateBound', 'timeBoundMs'],
} as const;

/** `/walker`: GraphWalker's statistics and what planning with guards explored. */
export const walkerStatisticsResponse = okBody({ ...statistics, planning: planningFigures }, STATISTICS_REQUIRED);

/** A warning of a load: a model issue (core/model/issue-reporter.ts). */
const loadWarning = {
  type: 'object',
  properties: {
    code: text,
    severity: text,
    message: text,
    modelId: { type: ['string', 'null'] },
    elementId: { type: ['string', 'null'] },
    field: { type: ['string', 'null'] },
  },
  required: ['code', 'severity', 'message'],
} as const;

/** `/walker`: the seed, and the load's warnings when it has any. */
export const walkerLoadResponse = okBody({ seed: integer, warnings: { type: 'array', items: loadWarning } }, ['seed']);

/**
 * getModel's answer: the model file under `model`, an open object the serialiser writes as it is (the model
 * file's members are documented by the load body's schema in the OpenAPI document).
 */
export const getModelResponse = okBody({ model: { type: 'object', additionalProperties: true } }, ['model']);
