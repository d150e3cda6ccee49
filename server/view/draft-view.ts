import type { EdgeShape, GraphShape, VertexShape } from '../../core/machine/walk-view.js';
import { placement } from '../../core/machine/walk-view.js';
import type { Walker } from '../../core/walker.js';
import type { Draft } from '../drafts/draft.js';
import type { DraftModel } from '../drafts/draft-model.js';
import type { SandboxReservation } from '../../core/scripting.js';
import { validateDraft, type ValidationOptions } from '../drafts/validation.js';
import type { DraftMessage } from './messages.js';

/**
 * A draft as the view draws it: its graph, and its validation as `GET .../validation` answers it, the walk
 * opened with `reservation` as there.
 */
export function draftMessage(draft: Draft, walker: Walker, options: ValidationOptions, reservation?: SandboxReservation): DraftMessage {
  const { valid, issues } = validateDraft(draft.model, walker, options, reservation);
  return { kind: 'draft', draft: draft.id, revision: draft.revision, graph: draftShape(draft.model), valid, issues };
}

/**
 * The draft's one model as a graph shape, numbered as a load of its export would number it (vertices, then
 * edges, in the order they were added). Drawn from the draft itself rather than a load of it, so that a draft
 * that does not load yet is drawn all the same.
 */
export function draftShape(model: DraftModel): GraphShape {
  const indexOf = new Map<string, number>();
  const vertices: VertexShape[] = [];
  for (const v of model.vertices.values()) {
    indexOf.set(v.id, vertices.length);
    vertices.push({ index: vertices.length, id: v.id, name: v.name, ...placement(v.properties), ...(v.sharedState ? { sharedState: v.sharedState } : {}) });
  }
  const edges: EdgeShape[] = [];
  for (const e of model.edges.values()) {
    const index = vertices.length + edges.length;
    indexOf.set(e.id, index);
    const source = e.sourceVertexId === null ? -1 : (indexOf.get(e.sourceVertexId) ?? -1);
    const guard = e.guard !== null && e.guard.trim() !== '' ? { guard: e.guard } : {};
    edges.push({ index, id: e.id, name: e.name, source, target: indexOf.get(e.targetVertexId) ?? -1, ...guard });
  }
  const { name, startElementId } = model.fields;
  const start = startElementId === null ? -1 : (indexOf.get(startElementId) ?? -1);
  const shape = { id: model.modelId, ...(name === null ? {} : { name }), startElement: start, vertices, edges };
  return { size: vertices.length + edges.length, models: [shape] };
}
