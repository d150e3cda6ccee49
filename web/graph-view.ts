import Panzoom, { type PanzoomObject } from '@panzoom/panzoom';
import type { GraphShape } from '../server/view/messages.js';
import { ElkRunner, LayoutSuperseded, type WorkerSource } from './elk-layout.js';
import { heat } from './heat.js';
import { layOut, type Layout } from './layout.js';

const SVG = 'http://www.w3.org/2000/svg';

/** Models up to this many elements are drawn element by element; larger ones as a heat strip. */
export const MAX_DRAWN_ELEMENTS = 2000;

/** What the graph pane shows (`data-state` of `[data-testid=model-graph]`). */
export type GraphState = 'empty' | 'laying-out' | 'drawn' | 'grid' | 'failed';

/**
 * The models drawn in SVG (`data-testid="model-graph"`), one `<g data-element-id>` per vertex and edge, which
 * the page and the report colour by visit count. Pan by dragging, zoom with the wheel. ELK lays a model out
 * in a worker: meanwhile the pane says so, and the visits and issues given are kept and shown once drawn.
 */
export class GraphView {
  readonly element: HTMLElement;
  private readonly svg: SVGSVGElement;
  private readonly status: HTMLElement;
  private readonly elk: ElkRunner;
  private panzoom: PanzoomObject | undefined;
  /** Per element index, its SVG group. */
  private drawn: SVGGElement[] = [];
  private strip: HTMLCanvasElement | undefined;
  private current = -1;
  /** Counts the draws begun: a layout that ends after a newer draw began is dropped. */
  private generation = 0;
  /** The latest visits and issues given, shown again whenever a drawing is done. */
  private shown: { visits: ArrayLike<number>; current: number } = { visits: [], current: -1 };
  private issues: ReadonlyMap<string, 'error' | 'warning'> = new Map();

  /** `worker` makes the worker ELK runs in. */
  constructor(worker: WorkerSource) {
    this.elk = new ElkRunner(worker);
    this.element = el('div', 'graph-pane');
    this.svg = document.createElementNS(SVG, 'svg');
    this.svg.dataset.testid = 'model-graph';
    this.status = el('p', 'graph-status');
    this.status.dataset.testid = 'graph-status';
    this.element.append(this.svg, this.status);
    this.setState('empty', '');
  }

  /**
   * Draws the graph anew, and resolves once it is drawn (or a newer draw took its place). Until then the pane
   * says it is laying out, and the page goes on answering: the layout runs in ELK's worker.
   */
  async draw(graph: GraphShape | null): Promise<void> {
    const generation = ++this.generation;
    this.elk.cancel();
    this.clear();
    if (graph === null) {
      this.svg.setAttribute('viewBox', '0 0 400 60');
      this.svg.append(text('No model is loaded.', 20, 36, 'empty'));
      return this.setState('empty', '');
    }
    if (graph.size > MAX_DRAWN_ELEMENTS) {
      this.drawStrip(graph);
      this.setState('grid', '');
      return this.showVisits(this.shown.visits, this.shown.current);
    }
    this.setState('laying-out', `Laying out ${graph.size.toLocaleString('en-US')} elements…`);
    let layout: Layout;
    try {
      layout = await layOut(graph, this.elk);
    } catch (error) {
      if (error instanceof LayoutSuperseded || generation !== this.generation) return;
      return this.setState('failed', (error as Error).message);
    }
    if (generation !== this.generation) return;
    this.drawLayout(graph, layout);
    this.setState('drawn', '');
    this.showVisits(this.shown.visits, this.shown.current);
    this.markIssues(this.issues);
  }

  private clear(): void {
    this.svg.replaceChildren();
    this.svg.removeAttribute('viewBox');
    this.svg.removeAttribute('preserveAspectRatio');
    this.svg.classList.remove('caption-only');
    this.strip?.remove();
    this.strip = undefined;
    this.drawn = [];
    this.current = -1;
    this.panzoom?.destroy();
    this.panzoom = undefined;
    this.element.removeEventListener('wheel', this.onWheel);
  }

  private setState(state: GraphState, message: string): void {
    this.svg.dataset.state = state;
    this.status.textContent = message;
    this.status.hidden = message === '';
  }

  private drawLayout(graph: GraphShape, layout: Layout): void {
    this.svg.setAttribute('viewBox', `0 0 ${Math.ceil(layout.width)} ${Math.ceil(layout.height)}`);
    this.svg.append(defs());
    for (const frame of layout.models) {
      const g = group('model');
      g.append(rect(frame.x - 10, frame.y - 10, frame.width + 20, frame.height + 20, 'frame'), text(frame.title, frame.x, frame.y + 12, 'title'));
      this.svg.append(g);
    }
    for (const [a, b] of layout.shared) this.svg.append(line(a.x, a.y, b.x, b.y, 'shared-link'));
    graph.models.forEach((model) => {
      for (const e of model.edges) {
        const place = layout.edges.get(e.index);
        if (place === undefined) continue;
        const g = group('edge', e.id, model.id, e.index);
        const path = document.createElementNS(SVG, 'path');
        path.setAttribute('d', place.path);
        path.setAttribute('marker-end', 'url(#arrow)');
        g.append(path);
        if (place.start !== undefined) g.append(circle(place.start.x, place.start.y, 5, 'start'));
        if (e.name !== '') g.append(text(e.name, place.label.x, place.label.y + 4, 'label'));
        g.append(tooltip(e.guard === undefined ? `${e.name} (${e.id})` : `${e.name} (${e.id}) [${e.guard}]`));
        this.svg.append(g);
        this.drawn[e.index] = g;
      }
      for (const v of model.vertices) {
        const box = layout.vertices.get(v.index);
        if (box === undefined) continue;
        const g = group('vertex', v.id, model.id, v.index);
        g.append(rect(box.x, box.y, box.width, box.height, 'box'), text(v.name, box.x + box.width / 2, box.y + box.height / 2 + 4, 'name'));
        g.append(tooltip(v.sharedState === undefined ? `${v.name} (${v.id})` : `${v.name} (${v.id}), shared state ${v.sharedState}`));
        this.svg.append(g);
        this.drawn[v.index] = g;
      }
    });
    this.panzoom = Panzoom(this.svg as unknown as HTMLElement, { maxScale: 20, minScale: 0.2, canvas: true });
    this.element.addEventListener('wheel', this.onWheel);
  }

  /** Colours every element by its visit count and marks the one the walk stands on (once drawn, if laying out). */
  showVisits(visits: ArrayLike<number>, current: number): void {
    this.shown = { visits, current };
    let most = 1;
    for (let e = 0; e < visits.length; e++) most = Math.max(most, visits[e]);
    if (this.strip !== undefined) return this.paintStrip(visits, most, current);
    for (let e = 0; e < this.drawn.length; e++) {
      const g = this.drawn[e];
      if (g === undefined) continue;
      const count = visits[e] ?? 0;
      const visited = count > 0 ? 'true' : 'false';
      if (g.dataset.visited !== visited) g.dataset.visited = visited;
      if (g.dataset.visits !== String(count)) {
        g.dataset.visits = String(count);
        g.style.setProperty('--heat', count > 0 ? heat(count, most) : '');
      }
    }
    if (this.current !== current) {
      if (this.current >= 0) this.drawn[this.current]?.classList.remove('current');
      if (current >= 0) this.drawn[current]?.classList.add('current');
      this.current = current;
    }
  }

  /** Marks the elements an issue names (a draft's validation), by their ids; the rest unmarked. */
  markIssues(severities: ReadonlyMap<string, 'error' | 'warning'>): void {
    this.issues = severities;
    for (const g of this.drawn) {
      if (g === undefined) continue;
      const severity = severities.get(g.dataset.elementId ?? '');
      if (severity === undefined) delete g.dataset.issue;
      else g.dataset.issue = severity;
    }
  }

  private readonly onWheel = (event: WheelEvent): void => {
    this.panzoom?.zoomWithWheel(event);
  };

  /** A graph too large to draw element by element: one cell per element, vertices first, then edges. */
  private drawStrip(graph: GraphShape): void {
    this.svg.classList.add('caption-only');
    this.svg.setAttribute('viewBox', '0 0 900 40');
    this.svg.setAttribute('preserveAspectRatio', 'xMinYMid meet');
    this.svg.append(text(`${graph.size} elements: drawn one by one up to ${MAX_DRAWN_ELEMENTS}; here each cell is one element, vertices first.`, 10, 24, 'empty'));
    const canvas = document.createElement('canvas');
    canvas.className = 'strip';
    const columns = Math.ceil(Math.sqrt(graph.size * 4));
    canvas.width = columns;
    canvas.height = Math.ceil(graph.size / columns);
    this.strip = canvas;
    this.element.append(canvas);
  }

  private paintStrip(visits: ArrayLike<number>, most: number, current: number): void {
    const canvas = this.strip as HTMLCanvasElement;
    const context = canvas.getContext('2d') as CanvasRenderingContext2D;
    for (let e = 0; e < visits.length; e++) {
      context.fillStyle = e === current ? '#1d4ed8' : visits[e] > 0 ? heat(visits[e], most) : '#e5e7eb';
      context.fillRect(e % canvas.width, Math.floor(e / canvas.width), 1, 1);
    }
  }
}

function el(tag: string, className: string): HTMLElement {
  const node = document.createElement(tag);
  node.className = className;
  return node;
}

function group(kind: string, id?: string, model?: string, index?: number): SVGGElement {
  const g = document.createElementNS(SVG, 'g');
  g.setAttribute('class', kind);
  if (id !== undefined) {
    g.dataset.elementId = id;
    g.dataset.modelId = model;
    g.dataset.index = String(index);
    g.dataset.visited = 'false';
  }
  return g;
}

function rect(x: number, y: number, width: number, height: number, className: string): SVGRectElement {
  const node = document.createElementNS(SVG, 'rect');
  for (const [name, value] of Object.entries({ x, y, width, height, rx: 6 })) node.setAttribute(name, String(value));
  node.setAttribute('class', className);
  return node;
}

function text(content: string, x: number, y: number, className: string): SVGTextElement {
  const node = document.createElementNS(SVG, 'text');
  node.setAttribute('x', String(x));
  node.setAttribute('y', String(y));
  node.setAttribute('class', className);
  node.textContent = content;
  return node;
}

function line(x1: number, y1: number, x2: number, y2: number, className: string): SVGLineElement {
  const node = document.createElementNS(SVG, 'line');
  for (const [name, value] of Object.entries({ x1, y1, x2, y2 })) node.setAttribute(name, String(value));
  node.setAttribute('class', className);
  return node;
}

function circle(cx: number, cy: number, radius: number, className: string): SVGCircleElement {
  const node = document.createElementNS(SVG, 'circle');
  for (const [name, value] of Object.entries({ cx, cy, r: radius })) node.setAttribute(name, String(value));
  node.setAttribute('class', className);
  return node;
}

function tooltip(content: string): SVGTitleElement {
  const node = document.createElementNS(SVG, 'title');
  node.textContent = content;
  return node;
}

function defs(): SVGDefsElement {
  const node = document.createElementNS(SVG, 'defs');
  node.innerHTML = '<marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrow"/></marker>';
  return node;
}
