import { Type, type TProperties } from 'typebox';
import type { ModelFileJson } from '../../../core/model/types.js';

/**
 * A model file in walker's canonical form (core/model/types.ts), for the OpenAPI document: the body of
 * `POST /walker/load`. It is documentation only (load reads its body as text and the loader checks it), so
 * it lists the canonical members and leaves every object open: the loader accepts more than the canonical
 * form (docs/api-execution.md).
 */
const open = { additionalProperties: true } as const;
const text = (description?: string) => Type.String(description ? { description } : {});
const texts = Type.Optional(Type.Array(Type.String()));
const properties = Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Any JSON object.' }));

/** The id and name every element has, then the kind's own members. */
function element(own: TProperties) {
  return Type.Object(
    { id: text('Unique among the vertices and edges of the model.'), name: Type.Optional(text()), ...own },
    open,
  );
}

const vertex = element({
  sharedState: Type.Optional(text('Vertices of different models with the same shared state are linked.')),
  actions: texts,
  requirements: texts,
  properties,
});

const edge = element({
  sourceVertexId: Type.Optional(text('Absent on a start edge.')),
  targetVertexId: text(),
  guard: Type.Optional(text('JavaScript expression; the edge is open while it is true.')),
  actions: texts,
  requirements: texts,
  properties,
  weight: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'For weighted_random.' })),
  dependency: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'For dependency_edge_coverage.' })),
});

const model = Type.Object(
  {
    id: text(),
    name: Type.Optional(text()),
    generator: Type.Optional(text("Generator and stop condition, e.g. 'random(edge_coverage(100))'.")),
    startElementId: Type.Optional(text('The vertex or edge the walk starts on.')),
    actions: texts,
    requirements: texts,
    properties,
    vertices: Type.Array(vertex),
    edges: Type.Array(edge),
    predefinedPathEdgeIds: Type.Optional(Type.Array(Type.String(), { description: 'For predefined_path.' })),
  },
  open,
);

export const ModelFileSchema = Type.Unsafe<ModelFileJson>(
  Type.Object(
    {
      name: Type.Optional(text()),
      seed: Type.Optional(Type.Integer({ minimum: 0, description: 'Seed of the walk unless --seed fixes one.' })),
      models: Type.Array(model, { description: 'One or more models, linked by shared states.' }),
    },
    { ...open, description: 'A GraphWalker JSON model file.' },
  ),
);
