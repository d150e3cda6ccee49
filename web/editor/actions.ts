import type { Point } from '../geometry.js';
import type { DraftState } from './draft-state.js';
import type { Editor, ElementRef } from './editor.js';
import { addEdgeChange, addVertexChange, deleteChange, patchChange } from './steps.js';

/**
 * The edits the drawing, the panel and the keyboard make, each one request of the draft API (several for
 * several elements, joined into one undo step).
 */
export class Actions {
  constructor(private readonly editor: Editor) {}

  /** A vertex at a point of the draft's own coordinates; resolves to its id once made. */
  async addVertex(draft: DraftState, at: Point, members: { id?: string; name?: string } = {}): Promise<string | undefined> {
    const before = new Set(draft.vertices.keys());
    const body = { ...members, properties: { x: Math.round(at.x), y: Math.round(at.y) } };
    if (!(await this.editor.edit(draft.id, addVertexChange(body), 'add a vertex'))) return undefined;
    const made = [...(this.editor.draft(draft.id)?.vertices.keys() ?? [])].find((id) => !before.has(id));
    if (made !== undefined) this.editor.select([{ draftId: draft.id, id: made }]);
    return made;
  }

  /** An edge; without a source, a start edge. */
  async addEdge(draft: DraftState, source: string | null, target: string, members: { id?: string; name?: string } = {}): Promise<string | undefined> {
    const before = new Set(draft.edges.keys());
    const body = { ...members, source_vertex_id: source, target_vertex_id: target };
    if (!(await this.editor.edit(draft.id, addEdgeChange(body), source === null ? 'add a start edge' : 'add an edge'))) return undefined;
    const made = [...(this.editor.draft(draft.id)?.edges.keys() ?? [])].find((id) => !before.has(id));
    if (made !== undefined) this.editor.select([{ draftId: draft.id, id: made }]);
    return made;
  }

  /** Moves vertices to new places (their own coordinates), keeping their other properties. */
  async move(places: ReadonlyArray<{ ref: ElementRef; at: Point }>): Promise<void> {
    let first = true;
    for (const { ref, at } of places) {
      const vertex = this.editor.draft(ref.draftId)?.vertices.get(ref.id);
      if (vertex === undefined) continue;
      const properties = { ...vertex.properties, x: Math.round(at.x), y: Math.round(at.y) };
      await this.editor.edit(ref.draftId, patchChange('vertex', ref.id, { properties }), `move ${vertex.name}`, !first);
      first = false;
    }
  }

  /** Deletes the selected elements: a vertex with its edges, references to them cleared. One undo step. */
  async deleteSelection(): Promise<void> {
    const refs = [...this.editor.selection.values()];
    // Edges first: deleting a vertex first would take them along and leave nothing to delete.
    refs.sort((a, b) => Number(this.isVertex(a)) - Number(this.isVertex(b)));
    let first = true;
    for (const ref of refs) {
      const draft = this.editor.draft(ref.draftId);
      if (draft === undefined || (!draft.vertices.has(ref.id) && !draft.edges.has(ref.id))) continue;
      await this.editor.edit(ref.draftId, deleteChange(ref.id), `delete ${ref.id}`, !first);
      first = false;
    }
  }

  private isVertex(ref: ElementRef): boolean {
    return this.editor.draft(ref.draftId)?.vertices.has(ref.id) ?? false;
  }
}
