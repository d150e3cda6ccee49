/**
 * Response schemas of the execution endpoints: they document the success bodies and let Fastify serialise
 * them with a compiled serialiser instead of JSON.stringify (the hot loop is hasNext/getNext). Failure bodies
 * bypass them (see wire.ts); the OpenAPI document adds them beside these (openapi.ts). Keep `anyOf` and
 * `oneOf` out of here: the serialiser would validate every body against the branches to pick one.
 */

const text = { type: 'string' } as const;
const integer = { type: 'integer' } as const;
/** The serialiser ignores `enum` on a string, so this documents without costing anything. */
const ok = { type: 'string', enum: ['ok'] } as const;

function okBody(properties: Record<string, unknown>, required: readonly string[]) {
  return {
    200: {
      type: 'object',
      properties: { result: ok, ...properties },
      required: ['result', ...required],
    },
  } as const;
}

export const okSchema = { response: okBody({}, []) };

export const loadSchema = {
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
  response: okBody({ seed: integer }, ['seed']),
};

export const hasNextSchema = {
  response: okBody({ hasNext: { type: 'string', enum: ['true', 'false'] } }, ['hasNext']),
};

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

export const getNextSchema = {
  response: okBody(
    { currentElementName: text, currentElementID: text, modelId: text, ...stepReport },
    ['currentElementName', 'currentElementID', 'modelId'],
  ),
};

export const getDataSchema = { response: okBody({ data: text }, ['data']) };

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

export const statisticsSchema = {
  response: okBody(
    {
      ...Object.fromEntries([...COUNTS, ...REQUIREMENT_COUNTS].map((name) => [name, integer])),
      edgesNotVisited: { type: 'array', items: unvisitedEdge },
      verticesNotVisited: { type: 'array', items: unvisitedVertex },
      requirementsPassed: { type: 'array', items: requirement('requirementKey') },
      requirementsNotCovered: { type: 'array', items: requirement('requirementKey') },
      // GraphWalker capitalises the key's name in this list only; clients read it so.
      requirementsFailed: { type: 'array', items: requirement('RequirementKey') },
    },
    [...COUNTS, 'edgesNotVisited', 'verticesNotVisited'],
  ),
};
