import { Type, type TProperties, type TSchema } from 'typebox';

/**
 * Response schemas of the execution endpoints, in both dialects: they document the success bodies and let
 * Fastify serialise them with a compiled serialiser instead of JSON.stringify (the hot loop is
 * hasNext/getNext). Failure bodies bypass them (see wire.ts); the OpenAPI document adds them beside these
 * (openapi.ts). Keep `anyOf` and `oneOf` out of here: the serialiser would validate every body against the
 * branches to pick one.
 */

const text = Type.String();
const integer = Type.Integer();
/** The serialiser ignores `enum` on a string, so this documents without costing anything. */
const ok = Type.Enum(['ok'], { type: 'string' });

/**
 * The `response` member of a route schema whose 200 body is `result` plus these properties, of which
 * `required` are always there.
 */
function okBody(properties: TProperties, required: readonly string[]) {
  const members = Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, required.includes(name) ? schema : Type.Optional(schema)]));
  return { 200: Type.Object({ result: ok, ...members }) };
}

export const okResponse = okBody({}, []);

export const loadResponse = okBody({ seed: integer }, ['seed']);

export const hasNextResponse = okBody({ hasNext: Type.Enum(['true', 'false'], { type: 'string' }) }, ['hasNext']);

/** Lists of single-member objects, GraphWalker's shape for a step's data and properties. */
const singleMemberObjects = (values: TSchema) => Type.Array(Type.Object({}, { additionalProperties: values }));

/** The members of core's StepReport: the model's base name always, the rest with `--verbose` and `--unvisited`. */
const stepReport = {
  modelName: text,
  data: singleMemberObjects(text),
  properties: singleMemberObjects(Type.Unknown()),
  actions: Type.Array(Type.Object({ Action: text })),
  numberOfElements: integer,
  numberOfUnvisitedElements: integer,
  unvisitedElements: Type.Array(Type.Object({ elementName: Type.Optional(text), elementId: Type.Optional(text) })),
};

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
export const graphwalkerGetDataResponse = okBody({ data: Type.Object({}, { additionalProperties: text }) }, ['data']);

/**
 * GraphWalker answers `fail` with `nok` and the reason, with HTTP 200, even when the model was failed as asked:
 * the body its clients see, which only check the status.
 */
export const failedAsAskedResponse = { 200: Type.Object({ result: Type.Enum(['nok'], { type: 'string' }), error: text }) };

const optionalTexts = (...names: string[]) => Object.fromEntries(names.map((name) => [name, Type.Optional(text)]));
const unvisitedEdge = Type.Object(optionalTexts('edgeName', 'edgeId', 'modelName'));
const unvisitedVertex = Type.Object(optionalTexts('vertexName', 'vertexId', 'modelName'));

function requirement(key: string) {
  return Type.Object({ [key]: text, modelName: Type.Optional(text) });
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
const statistics: TProperties = {
  ...Object.fromEntries([...COUNTS, ...REQUIREMENT_COUNTS].map((name) => [name, integer])),
  edgesNotVisited: Type.Array(unvisitedEdge),
  verticesNotVisited: Type.Array(unvisitedVertex),
  requirementsPassed: Type.Array(requirement('requirementKey')),
  requirementsNotCovered: Type.Array(requirement('requirementKey')),
  // GraphWalker capitalises the key's name in this list only; clients read it so.
  requirementsFailed: Type.Array(requirement('RequirementKey')),
};
const STATISTICS_REQUIRED = [...COUNTS, 'edgesNotVisited', 'verticesNotVisited'];

/** `/graphwalker`: GraphWalker's statistics, nothing more. */
export const statisticsResponse = okBody(statistics, STATISTICS_REQUIRED);

/** What planning with guards explored (core's PlanningFigures, docs/planning.md). */
const planningFigures = Type.Object(
  {
    exploredStates: integer,
    stateBound: integer,
    timeBoundMs: integer,
    boundHit: Type.Optional(Type.Enum(['states', 'growth', 'time'], { type: 'string' })),
    decisions: Type.Optional(integer),
    graphDecisions: Type.Optional(integer),
  },
  { description: 'What planning with guards explored; only for walks with guards.' },
);

/** `/walker`: GraphWalker's statistics and what planning with guards explored. */
export const walkerStatisticsResponse = okBody({ ...statistics, planning: planningFigures }, STATISTICS_REQUIRED);

/** A warning of a load: a model issue (core/model/issue-reporter.ts). */
const nullableText = Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'] }));
const loadWarning = Type.Object({ code: text, severity: text, message: text, modelId: nullableText, elementId: nullableText, field: nullableText });

/** `/walker`: the seed, and the load's warnings when it has any. */
export const walkerLoadResponse = okBody({ seed: integer, warnings: Type.Array(loadWarning) }, ['seed']);

/**
 * getModel's answer: the model file under `model`, an open object the serialiser writes as it is (the model
 * file's members are documented by the load body's schema in the OpenAPI document).
 */
export const getModelResponse = okBody({ model: Type.Object({}, { additionalProperties: true }) }, ['model']);
