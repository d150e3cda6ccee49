import { Type, type TProperties } from 'typebox';
import type { ModelFileJson } from '../core/model/types.js';

/**
 * A model file in walker's canonical form (core/model/types.ts), as the API documents it: the body of
 * `POST /walker/load` and the `model` of a draft export. Two things follow from the export using it as its
 * response schema, which drives the serialiser:
 * - members are listed in the order the export writes them, because the serialiser writes listed members in
 *   schema order; the export's field order is part of its contract;
 * - no member is listed as `required` (the descriptions say which are): the serialiser writes required
 *   members before the others, which would reorder the export;
 * - every object keeps members it does not list (`additionalProperties: true`), so nothing is ever dropped,
 *   and the schema also describes what the loader accepts beyond the canonical form (docs/api-execution.md).
 */
const open = { additionalProperties: true } as const;
const optionalText = (description?: string) => Type.Optional(Type.String(description ? { description } : {}));
const id = Type.Optional(Type.String({ description: 'Required; unique across the vertices and edges of a model.' }));
const texts = Type.Optional(Type.Array(Type.String()));
const properties = Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Any JSON object.' }));

/** Members every element has, in export order, around the kind's own ones. */
function element(own: TProperties, tail: TProperties = {}) {
  return Type.Object(
    { id, name: optionalText(), ...own, actions: texts, requirements: texts, properties, ...tail },
    open,
  );
}

const vertex = element({ sharedState: optionalText('Links vertices of different models.') });

const edge = element(
  {
    sourceVertexId: optionalText('Absent on a start edge.'),
    targetVertexId: optionalText('Required.'),
    guard: optionalText('JavaScript expression; the edge is open while it is true.'),
  },
  {
    weight: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'For weighted_random.' })),
    dependency: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'For dependency_edge_coverage.' })),
  },
);

const model = Type.Object(
  {
    id: optionalText('Required.'),
    name: optionalText(),
    generator: optionalText("Generator and stop condition, e.g. 'random(edge_coverage(100))'."),
    startElementId: optionalText('The vertex or edge the walk starts on.'),
    actions: texts,
    requirements: texts,
    properties,
    vertices: Type.Optional(Type.Array(vertex, { description: 'Required.' })),
    edges: Type.Optional(Type.Array(edge, { description: 'Required.' })),
    predefinedPathEdgeIds: Type.Optional(Type.Array(Type.String(), { description: 'For predefined_path.' })),
  },
  open,
);

export const ModelFileSchema = Type.Unsafe<ModelFileJson>(
  Type.Object(
    {
      name: optionalText(),
      seed: Type.Optional(Type.Integer({ minimum: 0, description: 'Seed of the walk unless --seed fixes one.' })),
      models: Type.Optional(Type.Array(model, { description: 'Required: one or more models, linked by shared states.' })),
    },
    { ...open, description: 'A GraphWalker JSON model file.' },
  ),
);
