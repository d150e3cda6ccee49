import { centre, type Box, type Point } from '../geometry.js';
import { circle, defs, el, line, path, rect, SVG, text } from '../svg.js';
import type { Actions } from './actions.js';
import type { DraftState, EdgeData } from './draft-state.js';
import { refKey, type Editor, type ElementRef } from './editor.js';
import { edgePlace, pairRanks, placeDrafts, type Placing } from './placing.js';

/** How far the pointer must go before a press becomes a drag. */
const DRAG_START = 3;

type Gesture =
  | { kind: 'move'; from: Point; moved: boolean; vertices: ElementRef[] }
  | { kind: 'edge'; draftId: string; source: string | null; from: Point; line: SVGLineElement }
  | { kind: 'rectangle'; from: Point; box: SVGRectElement; add: boolean };

/**
 * The editor's drawing (docs/editor.md): the drafts side by side, each element a `<g data-element-id>` as in
 * the view, focusable, `data-selected` when selected and `data-issue` when an issue names it. Double-click adds
 * a vertex, a drag from a vertex's port (or any drag in edge mode) adds an edge, a drag from nothing in edge
 * mode a start edge; a drag moves the selected vertices, redrawing only their edges while it goes; a drag on
 * the background selects by rectangle, Shift adds.
 */
export class EditorCanvas {
  readonly element: HTMLElement;
  readonly svg: SVGSVGElement;
  /** In edge mode every drag draws an edge. */
  edgeMode = false;
  private placing: Placing = { width: 0, height: 0, frames: new Map(), boxes: new Map() };
  private readonly groups = new Map<string, SVGGElement>();
  private gesture: Gesture | undefined;
  private frame = 0;
  private offset: Point = { x: 0, y: 0 };

  constructor(
    private readonly editor: Editor,
    private readonly actions: Actions,
  ) {
    this.element = el('div', 'editor-canvas');
    this.svg = document.createElementNS(SVG, 'svg');
    this.svg.dataset.testid = 'model-graph';
    this.svg.setAttribute('role', 'application');
    this.svg.setAttribute('tabindex', '0');
    this.svg.setAttribute('aria-label', 'The drawing: double-click to add a vertex, drag between vertices to add an edge');
    this.element.append(this.svg);
    this.svg.addEventListener('pointerdown', (event) => this.press(event));
    this.svg.addEventListener('pointermove', (event) => this.drag(event));
    this.svg.addEventListener('pointerup', (event) => void this.release(event));
    this.svg.addEventListener('dblclick', (event) => void this.doubleClick(event));
    this.svg.addEventListener('keydown', (event) => this.key(event));
  }

  /** Draws everything anew from the editor's drafts. */
  render(): void {
    this.placing = placeDrafts(this.editor.drafts);
    // One unit a pixel, and at least as large as the pane: a double-click anywhere in it lands on the drawing.
    const { width, height } = this.placing;
    this.svg.setAttribute('width', String(Math.ceil(Math.max(width + 200, this.element.clientWidth))));
    this.svg.setAttribute('height', String(Math.ceil(Math.max(height + 200, this.element.clientHeight - 4))));
    this.svg.dataset.state = 'drawn';
    const focused = (document.activeElement as SVGGElement | null)?.dataset?.key;
    this.groups.clear();
    const content = document.createDocumentFragment();
    content.append(defs());
    this.editor.drafts.forEach((draft, index) => content.append(this.drawDraft(draft, index === this.editor.active)));
    content.append(...this.sharedLinks());
    this.svg.replaceChildren(content);
    if (focused !== undefined) this.groups.get(focused)?.focus();
  }

  /** Where a vertex stands in its draft's own coordinates, as drawn (placed by its file or by the editor). */
  placeOf(ref: ElementRef): Point | undefined {
    const box = this.placing.boxes.get(ref.draftId)?.get(ref.id);
    const frame = this.placing.frames.get(ref.draftId);
    return box === undefined || frame === undefined ? undefined : { x: box.x - frame.dx, y: box.y - frame.dy };
  }

  /** The point of the drawing under a pointer event. */
  private pointOf(event: MouseEvent): Point {
    const matrix = this.svg.getScreenCTM();
    if (matrix === null) return { x: event.offsetX, y: event.offsetY };
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    return { x: p.x, y: p.y };
  }

  /** The draft whose frame holds a point, else the active one. */
  private draftAt(point: Point): DraftState | undefined {
    for (const draft of this.editor.drafts) {
      const f = this.placing.frames.get(draft.id);
      if (f !== undefined && point.x >= f.x && point.x <= f.x + f.width && point.y >= f.y && point.y <= f.y + f.height) return draft;
    }
    return this.editor.activeDraft;
  }

  private drawDraft(draft: DraftState, active: boolean): SVGGElement {
    const g = document.createElementNS(SVG, 'g');
    g.setAttribute('class', active ? 'model active' : 'model');
    g.dataset.draftId = draft.id;
    const frame = this.placing.frames.get(draft.id);
    if (frame !== undefined) g.append(rect(frame.x, frame.y, frame.width, frame.height, 'frame'), text(frame.title, frame.x + 10, frame.y + 20, 'title'));
    const boxes = this.placing.boxes.get(draft.id) ?? new Map<string, Box>();
    const ranks = pairRanks(draft.edges.values());
    for (const edge of draft.edges.values()) {
      const group = this.element_(draft, edge.id, 'edge', `edge ${edge.name}${edge.source_vertex_id === null ? ', a start edge' : ''}`);
      this.drawEdge(group, edge, boxes, ranks.get(edge.id) ?? 0);
      g.append(group);
    }
    for (const vertex of draft.vertices.values()) {
      const box = boxes.get(vertex.id) as Box;
      const group = this.element_(draft, vertex.id, 'vertex', `vertex ${vertex.name}${vertex.shared_state === null ? '' : `, shared state ${vertex.shared_state}`}`);
      group.append(rect(box.x, box.y, box.width, box.height, 'box'), text(vertex.name, box.x + box.width / 2, box.y + box.height / 2 + 4, 'name'));
      const port = circle(box.x + box.width, box.y + box.height / 2, 5, 'port');
      port.dataset.port = 'true';
      group.append(port);
      g.append(group);
    }
    return g;
  }

  private element_(draft: DraftState, id: string, kind: 'vertex' | 'edge', label: string): SVGGElement {
    const g = document.createElementNS(SVG, 'g');
    g.setAttribute('class', kind);
    const ref = { draftId: draft.id, id };
    const key = refKey(ref);
    g.dataset.elementId = id;
    g.dataset.modelId = draft.modelId;
    g.dataset.draftId = draft.id;
    g.dataset.key = key;
    g.setAttribute('tabindex', '0');
    g.setAttribute('role', 'button');
    g.setAttribute('aria-label', label);
    if (this.editor.selection.has(key)) {
      g.dataset.selected = 'true';
      g.setAttribute('aria-pressed', 'true');
    }
    const severity = this.severityOf(draft.id, id);
    if (severity !== undefined) g.dataset.issue = severity;
    this.groups.set(key, g);
    return g;
  }

  private severityOf(draftId: string, id: string): 'error' | 'warning' | undefined {
    let found: 'error' | 'warning' | undefined;
    for (const issue of this.editor.issues.get(draftId) ?? []) {
      if (issue.element_id === id && found !== 'error') found = issue.severity;
    }
    return found;
  }

  private drawEdge(group: SVGGElement, edge: EdgeData, boxes: ReadonlyMap<string, Box>, nth: number): void {
    const place = edgePlace(edge, boxes, nth);
    group.replaceChildren();
    if (place === undefined) return;
    const stroke = path(place.path);
    stroke.setAttribute('marker-end', 'url(#arrow)');
    // A wide invisible stroke under the line: an edge is easy to hit.
    group.append(path(place.path, 'hit'), stroke);
    if (place.start !== undefined) group.append(circle(place.start.x, place.start.y, 5, 'start'));
    const label = text(edge.name + (edge.guard === null ? '' : ` [${edge.guard}]`), place.label.x, place.label.y + 4, 'label');
    if (place.anchor !== undefined) label.style.textAnchor = place.anchor;
    group.append(label);
  }

  /** Vertices of one shared state in different drafts, linked by a dotted line. */
  private sharedLinks(): SVGLineElement[] {
    const byState = new Map<string, Array<{ draft: string; at: Point }>>();
    for (const draft of this.editor.drafts) {
      for (const vertex of draft.vertices.values()) {
        if (vertex.shared_state === null) continue;
        const box = this.placing.boxes.get(draft.id)?.get(vertex.id);
        if (box === undefined) continue;
        const list = byState.get(vertex.shared_state) ?? [];
        list.push({ draft: draft.id, at: centre(box) });
        byState.set(vertex.shared_state, list);
      }
    }
    const links: SVGLineElement[] = [];
    for (const [state, list] of byState) {
      for (let i = 1; i < list.length; i++) {
        if (list[i].draft === list[i - 1].draft) continue;
        const link = line(list[i - 1].at.x, list[i - 1].at.y, list[i].at.x, list[i].at.y, 'shared-link');
        link.dataset.sharedState = state;
        links.push(link);
      }
    }
    return links;
  }

  private refOf(target: EventTarget | null): (ElementRef & { kind: 'vertex' | 'edge'; port: boolean }) | undefined {
    const node = target instanceof Element ? target.closest<SVGGElement>('[data-element-id]') : null;
    if (node === null) return undefined;
    const kind = node.classList.contains('vertex') ? 'vertex' : 'edge';
    return { draftId: node.dataset.draftId as string, id: node.dataset.elementId as string, kind, port: (target as Element).getAttribute('data-port') === 'true' };
  }

  private press(event: PointerEvent): void {
    if (event.button !== 0) return;
    const at = this.pointOf(event);
    const ref = this.refOf(event.target);
    if (ref !== undefined && ref.kind === 'vertex' && (ref.port || this.edgeMode)) {
      const box = this.placing.boxes.get(ref.draftId)?.get(ref.id) as Box;
      this.startEdge(event, ref.draftId, ref.id, { x: box.x + box.width, y: box.y + box.height / 2 });
      return;
    }
    if (ref === undefined && this.edgeMode) {
      const draft = this.draftAt(at);
      if (draft !== undefined) this.startEdge(event, draft.id, null, at);
      return;
    }
    if (ref !== undefined) {
      if (event.shiftKey) return this.editor.toggle(ref);
      if (!this.editor.selection.has(refKey(ref))) this.editor.select([ref]);
      const vertices = [...this.editor.selection.values()].filter((r) => this.editor.draft(r.draftId)?.vertices.has(r.id));
      if (ref.kind === 'vertex') {
        this.gesture = { kind: 'move', from: at, moved: false, vertices };
        this.svg.setPointerCapture(event.pointerId);
      }
      return;
    }
    const box = rect(at.x, at.y, 0, 0, 'selecting');
    box.setAttribute('rx', '0');
    this.svg.append(box);
    this.gesture = { kind: 'rectangle', from: at, box, add: event.shiftKey };
    this.svg.setPointerCapture(event.pointerId);
  }

  private startEdge(event: PointerEvent, draftId: string, source: string | null, from: Point): void {
    const drawn = line(from.x, from.y, from.x, from.y, 'drawing-edge');
    this.svg.append(drawn);
    this.gesture = { kind: 'edge', draftId, source, from, line: drawn };
    this.svg.setPointerCapture(event.pointerId);
    event.preventDefault();
  }

  private drag(event: PointerEvent): void {
    const gesture = this.gesture;
    if (gesture === undefined) return;
    const at = this.pointOf(event);
    if (gesture.kind === 'edge') {
      gesture.line.setAttribute('x2', String(at.x));
      gesture.line.setAttribute('y2', String(at.y));
      return;
    }
    if (gesture.kind === 'rectangle') {
      const box = boxOf(gesture.from, at);
      for (const [name, value] of Object.entries(box)) gesture.box.setAttribute(name, String(value));
      return;
    }
    if (!gesture.moved && Math.hypot(at.x - gesture.from.x, at.y - gesture.from.y) < DRAG_START) return;
    gesture.moved = true;
    this.offset = { x: at.x - gesture.from.x, y: at.y - gesture.from.y };
    // One redraw a frame, however many pointer events come: only the moved vertices and their edges.
    if (this.frame === 0) this.frame = requestAnimationFrame(() => this.showMove());
  }

  /** Draws the moved vertices at their new places and their edges after them, nothing else. */
  private showMove(): void {
    this.frame = 0;
    const gesture = this.gesture;
    if (gesture?.kind !== 'move') return;
    const { x, y } = this.offset;
    const moved = new Map<string, Set<string>>();
    for (const ref of gesture.vertices) {
      this.groups.get(refKey(ref))?.setAttribute('transform', `translate(${x},${y})`);
      const set = moved.get(ref.draftId) ?? new Set<string>();
      set.add(ref.id);
      moved.set(ref.draftId, set);
    }
    for (const [draftId, ids] of moved) {
      const draft = this.editor.draft(draftId);
      const boxes = this.placing.boxes.get(draftId);
      if (draft === undefined || boxes === undefined) continue;
      const shifted = new Map(boxes);
      for (const id of ids) {
        const box = boxes.get(id) as Box;
        shifted.set(id, { ...box, x: box.x + x, y: box.y + y });
      }
      const ranks = pairRanks(draft.edges.values());
      for (const edge of draft.edges.values()) {
        if (!ids.has(edge.target_vertex_id) && !ids.has(edge.source_vertex_id ?? '')) continue;
        const group = this.groups.get(refKey({ draftId, id: edge.id }));
        if (group !== undefined) this.drawEdge(group, edge, shifted, ranks.get(edge.id) ?? 0);
      }
    }
  }

  private async release(event: PointerEvent): Promise<void> {
    const gesture = this.gesture;
    this.gesture = undefined;
    if (gesture === undefined) return;
    if (this.svg.hasPointerCapture(event.pointerId)) this.svg.releasePointerCapture(event.pointerId);
    const at = this.pointOf(event);
    if (gesture.kind === 'edge') {
      gesture.line.remove();
      const target = this.refOf(document.elementFromPoint(event.clientX, event.clientY));
      const draft = this.editor.draft(gesture.draftId);
      if (draft === undefined || target?.kind !== 'vertex' || target.draftId !== gesture.draftId) {
        if (target !== undefined && target.draftId !== gesture.draftId) {
          this.editor.say({ kind: 'error', message: 'An edge joins two vertices of one model: link models through a shared state instead.' });
        }
        return;
      }
      await this.actions.addEdge(draft, gesture.source, target.id);
      return;
    }
    if (gesture.kind === 'rectangle') {
      gesture.box.remove();
      const area = boxOf(gesture.from, at);
      if (area.width < DRAG_START && area.height < DRAG_START) {
        if (!gesture.add) this.editor.select([]);
        const draft = this.draftAt(at);
        if (draft !== undefined) this.editor.active = this.editor.drafts.indexOf(draft);
        this.editor.onChange();
        return;
      }
      this.editor.select(this.inside(area), gesture.add);
      return;
    }
    if (!gesture.moved) return;
    if (this.frame !== 0) cancelAnimationFrame(this.frame);
    this.frame = 0;
    const { x, y } = this.offset;
    const places = gesture.vertices.map((ref) => {
      const box = this.placing.boxes.get(ref.draftId)?.get(ref.id) as Box;
      const frame = this.placing.frames.get(ref.draftId);
      return { ref, at: { x: box.x + x - (frame?.dx ?? 0), y: box.y + y - (frame?.dy ?? 0) } };
    });
    await this.actions.move(places);
    this.render();
  }

  /** The elements a rectangle touches: vertices whose box meets it, edges whose label point is in it. */
  private inside(area: Box): ElementRef[] {
    const refs: ElementRef[] = [];
    for (const draft of this.editor.drafts) {
      const boxes = this.placing.boxes.get(draft.id);
      for (const [id, box] of boxes ?? []) if (meets(box, area)) refs.push({ draftId: draft.id, id });
      for (const edge of draft.edges.values()) {
        const ends = [edge.source_vertex_id, edge.target_vertex_id].filter((v): v is string => v !== null).map((v) => boxes?.get(v));
        if (ends.length > 0 && ends.every((b) => b !== undefined && meets(b, area))) refs.push({ draftId: draft.id, id: edge.id });
      }
    }
    return refs;
  }

  private async doubleClick(event: MouseEvent): Promise<void> {
    if (this.refOf(event.target) !== undefined) return;
    const at = this.pointOf(event);
    const draft = this.draftAt(at);
    const frame = draft === undefined ? undefined : this.placing.frames.get(draft.id);
    if (draft === undefined || frame === undefined) return;
    await this.actions.addVertex(draft, { x: at.x - frame.dx - 30, y: at.y - frame.dy - 16 });
  }

  /** Enter or Space on a focused element selects it (Shift: adds it). */
  private key(event: KeyboardEvent): void {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    const ref = this.refOf(event.target);
    if (ref === undefined) return;
    event.preventDefault();
    if (event.shiftKey) this.editor.toggle(ref);
    else this.editor.select([ref]);
  }
}

function boxOf(a: Point, b: Point): Box {
  return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y) };
}

function meets(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}
