import type { GraphShape } from '../server/view/messages.js';
import { ElkRunner, LayoutSuperseded, type WorkerSource } from './elk-layout.js';
import { centre, type Point } from './geometry.js';
import { ElementGrid } from './grid.js';
import { heat, heatStroke } from './heat.js';
import { layOut, type EdgePlace, type Layout } from './layout.js';
import { Legend } from './legend.js';
import { ElementNames } from './names.js';
import { PanZoom, ZOOM_STEP } from './pan-zoom.js';
import { circle, defs, el, group, line, path, rect, SVG, text } from './svg.js';
import { Tooltip } from './tooltip.js';

/** Models up to this many elements are drawn element by element; larger ones as a grid of cells. */
export const MAX_DRAWN_ELEMENTS = 2000;

/**
 * Above this many elements, an edge not walked yet is drawn thin and pale rather than dashed: the browser
 * rasterises dashes one by one, which made each frame of a pan of a large drawing many times slower (Chromium
 * without a GPU; docs/benchmarks.md, "Measurements behind the code").
 */
const PLAIN_STROKES_ABOVE = 300;

/** What the graph pane shows (`data-state` of `[data-testid=model-graph]`). */
export type GraphState = 'empty' | 'laying-out' | 'drawn' | 'grid' | 'failed';

/**
 * The models drawn in SVG (`data-testid="model-graph"`), one `<g data-element-id>` per vertex and edge, which
 * the page and the report colour by visit count. Drag to pan, the wheel and the buttons zoom. ELK lays a
 * model out in a worker: meanwhile the pane says so, and the visits and issues given are kept and shown once
 * drawn.
 */
export class GraphView {
  readonly element: HTMLElement;
  /** Where the drawing (or the grid) goes, under the toolbar. */
  private readonly canvas: HTMLElement;
  /** Holds the `<svg>`: what {@link PanZoom} moves. */
  private readonly layer: HTMLElement;
  private readonly svg: SVGSVGElement;
  private readonly status: HTMLElement;
  private readonly controls: HTMLElement;
  private readonly elk: ElkRunner;
  private readonly panZoom: PanZoom;
  private readonly legend = new Legend();
  private readonly tooltip: Tooltip;
  private names = new ElementNames(null);
  /** Per element index, its SVG group. */
  private drawn: SVGGElement[] = [];
  private grid: ElementGrid | undefined;
  private current = -1;
  /** The most visits of any element when the drawing was last coloured. */
  private most = 0;
  /** Counts the draws begun: a layout that ends after a newer draw began is dropped. */
  private generation = 0;
  /** The latest visits and issues given, shown again whenever a drawing is done. */
  private shown: { visits: ArrayLike<number>; current: number } = { visits: [], current: -1 };
  private issues: ReadonlyMap<string, 'error' | 'warning'> = new Map();

  /** `worker` makes the worker ELK runs in; a draft's graph is never walked, so it shows issues instead of visits. */
  constructor(
    worker: WorkerSource,
    private readonly draft = false,
  ) {
    this.elk = new ElkRunner(worker);
    this.element = el('div', 'graph-pane');
    this.svg = document.createElementNS(SVG, 'svg');
    this.svg.dataset.testid = 'model-graph';
    this.canvas = el('div', 'graph-canvas');
    this.layer = el('div', 'graph-layer');
    this.layer.append(this.svg);
    this.panZoom = new PanZoom(this.canvas, this.layer);
    this.status = el('p', 'graph-status');
    this.status.dataset.testid = 'graph-status';
    this.controls = zoomControls(this.panZoom);
    const toolbar = el('div', 'graph-toolbar');
    toolbar.append(this.controls, this.legend.element);
    this.canvas.append(this.layer, this.status);
    this.element.append(toolbar, this.canvas);
    this.element.classList.toggle('drafting', draft);
    this.tooltip = new Tooltip(this.canvas, (index) => this.describe(index));
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
    this.names = new ElementNames(graph);
    if (graph === null) {
      this.svg.append(text('No model is loaded.', 20, 36, 'empty'));
      return this.setState('empty', '');
    }
    if (graph.size > MAX_DRAWN_ELEMENTS) {
      this.drawGrid(graph);
      this.setState('grid', '');
      return this.showVisits(this.shown.visits, this.shown.current);
    }
    this.setState('laying-out', `Laying out ${graph.size.toLocaleString('en-US')} elements…`);
    let layout: Layout;
    try {
      layout = await layOut(graph, this.elk, this.aspect());
    } catch (error) {
      if (error instanceof LayoutSuperseded || generation !== this.generation) return;
      return this.setState('failed', (error as Error).message);
    }
    if (generation !== this.generation) return;
    this.drawLayout(graph, layout);
    this.setState('drawn', '');
  }

  /** Colours every element by its visit count and marks the one the walk stands on (once drawn, if laying out). */
  showVisits(visits: ArrayLike<number>, current: number): void {
    this.shown = { visits, current };
    let most = 1;
    for (let e = 0; e < visits.length; e++) most = Math.max(most, visits[e]);
    if (this.grid !== undefined) return this.grid.paint(visits, most, current);
    this.legend.setMost(most);
    this.tooltip.refresh();
    // The colours are relative to the most visited element: when that count moves, every colour does.
    const recolour = most !== this.most;
    this.most = most;
    for (let e = 0; e < this.drawn.length; e++) {
      const g = this.drawn[e];
      if (g === undefined) continue;
      const count = visits[e] ?? 0;
      const visited = count > 0 ? 'true' : 'false';
      if (g.dataset.visited !== visited) g.dataset.visited = visited;
      if (recolour || g.dataset.visits !== String(count)) {
        g.dataset.visits = String(count);
        g.style.setProperty('--heat', count > 0 ? heat(count, most) : '');
        g.style.setProperty('--heat-stroke', count > 0 ? heatStroke(count, most) : '');
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

  private clear(): void {
    this.svg.replaceChildren();
    for (const attribute of ['viewBox', 'preserveAspectRatio', 'width', 'height']) this.svg.removeAttribute(attribute);
    this.svg.classList.remove('caption-only', 'many');
    this.layer.classList.remove('drawing');
    this.grid?.canvas.remove();
    this.grid = undefined;
    this.drawn = [];
    this.current = -1;
    this.panZoom.clear();
    this.controls.hidden = true;
    this.legend.show(undefined);
    this.tooltip.hide();
  }

  private setState(state: GraphState, message: string): void {
    this.svg.dataset.state = state;
    this.status.classList.toggle('failed', state === 'failed');
    this.status.textContent = message;
    this.status.hidden = message === '';
  }

  /** The pane's width over its height, that the models are arranged to fill. */
  private aspect(): number {
    const { width, height } = this.canvas.getBoundingClientRect();
    return width > 0 && height > 0 ? width / height : 4 / 3;
  }

  /** The layout drawn into the `<svg>` at its own size, one unit a pixel; {@link PanZoom} scales and moves it. */
  private drawLayout(graph: GraphShape, layout: Layout): void {
    const width = Math.ceil(layout.width);
    const height = Math.ceil(layout.height);
    this.svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    this.svg.setAttribute('width', String(width));
    this.svg.setAttribute('height', String(height));
    this.layer.classList.add('drawing');
    const many = !this.draft && graph.size > PLAIN_STROKES_ABOVE;
    this.svg.classList.toggle('many', many);
    // Built apart and coloured before it joins the page: Chromium leaves out the text of an SVG element whose
    // style changes between its insertion and its first layout (seen with a walk's visits applied at once).
    const content = document.createDocumentFragment();
    content.append(defs());
    for (const frame of layout.models) {
      const g = group('model');
      g.append(rect(frame.x - 10, frame.y - 10, frame.width + 20, frame.height + 20, 'frame'), text(frame.title, frame.x, frame.y + 12, 'title'));
      content.append(g);
    }
    for (const [a, b] of layout.shared) content.append(line(a.x, a.y, b.x, b.y, 'shared-link'));
    graph.models.forEach((model) => {
      for (const e of model.edges) {
        const place = layout.edges.get(e.index);
        if (place === undefined) continue;
        const g = group('edge', e.id, model.id, e.index);
        const stroke = path(place.path);
        stroke.setAttribute('marker-end', 'url(#arrow)');
        g.append(stroke);
        if (place.start !== undefined) g.append(circle(place.start.x, place.start.y, 5, 'start'));
        if (e.name !== '') {
          const label = text(e.name, place.label.x, place.label.y + 4, 'label');
          if (place.anchor !== undefined) label.style.textAnchor = place.anchor;
          g.append(label);
        }
        content.append(g);
        this.drawn[e.index] = g;
      }
      const start = layout.starts.get(model.startElement);
      if (start !== undefined) content.append(startMark(start, model.vertices.find((v) => v.index === model.startElement)?.id ?? ''));
      for (const v of model.vertices) {
        const box = layout.vertices.get(v.index);
        if (box === undefined) continue;
        const g = group('vertex', v.id, model.id, v.index);
        g.append(rect(box.x, box.y, box.width, box.height, 'box'), text(v.name, box.x + box.width / 2, box.y + box.height / 2 + 4, 'name'));
        content.append(g);
        this.drawn[v.index] = g;
      }
    });
    // No element of the new drawing is marked or coloured yet.
    this.current = -1;
    this.most = 0;
    this.showVisits(this.shown.visits, this.shown.current);
    this.markIssues(this.issues);
    this.svg.append(content);
    const first = layout.models[0] ?? { x: 0, y: 0, width, height };
    const frame = { x: first.x - 10, y: first.y - 10, width: first.width + 20, height: first.height + 20 };
    // A draft is drawn again at every edit: the reader's view of it stays.
    this.panZoom.show(width, height, frame, startOf(graph, layout), this.draft);
    this.controls.hidden = false;
    this.legend.show({ walked: !this.draft, many, shared: layout.shared.length > 0 });
  }

  /** What the tooltip says of an element: its name, kind and id, its guard or shared state, and its visits. */
  private describe(index: number): string[] {
    const element = this.names.at(index);
    if (element === undefined) return [];
    const lines = [this.names.label(index), `${element.kind} ${element.id}`];
    if (element.guard !== undefined) lines.push(`guard: ${element.guard}`);
    if (element.sharedState !== undefined) lines.push(`shared state: ${element.sharedState}`);
    if (this.draft) return lines;
    const visits = this.shown.visits[index] ?? 0;
    lines.push(visits === 0 ? 'not visited yet' : `visited ${visits.toLocaleString('en-US')} ${visits === 1 ? 'time' : 'times'}`);
    return lines;
  }

  private drawGrid(graph: GraphShape): void {
    this.svg.classList.add('caption-only');
    this.svg.setAttribute('viewBox', '0 0 900 40');
    this.svg.setAttribute('preserveAspectRatio', 'xMinYMid meet');
    this.svg.append(text(`${graph.size} elements: drawn one by one up to ${MAX_DRAWN_ELEMENTS}; here each cell is one element, vertices first.`, 10, 24, 'empty'));
    this.grid = new ElementGrid(graph.size);
    this.canvas.append(this.grid.canvas);
  }
}

/** The dot and arrow into a start vertex: the start of its model, not one of its elements. */
function startMark(place: EdgePlace, vertex: string): SVGGElement {
  const g = group('start-mark');
  g.dataset.startOf = vertex;
  const stroke = path(place.path);
  stroke.setAttribute('marker-end', 'url(#arrow)');
  g.append(stroke);
  if (place.start !== undefined) g.append(circle(place.start.x, place.start.y, 5, 'start'));
  return g;
}

/** Where the walk of the first model starts: the dot of its start edge, or its start vertex; else its first vertex. */
function startOf(graph: GraphShape, layout: Layout): Point {
  const first = graph.models[0];
  const start = first?.startElement ?? -1;
  const edge = layout.edges.get(start) ?? layout.starts.get(start);
  if (edge !== undefined) return edge.start ?? edge.label;
  const box = layout.vertices.get(start) ?? layout.vertices.get(first?.vertices[0]?.index ?? -1);
  return box === undefined ? { x: 0, y: 0 } : centre(box);
}

/** The buttons over the drawing: zoom out and in, fit the whole drawing, back to the view it started at. */
function zoomControls(panZoom: PanZoom): HTMLElement {
  const bar = el('div', 'zoom-controls');
  const level = el('span', 'zoom-level');
  level.dataset.testid = 'zoom-level';
  panZoom.onChange = (scale) => {
    level.textContent = `${Math.round(scale * 100)} %`;
  };
  const button = (label: string, testid: string, title: string, act: () => void): HTMLButtonElement => {
    const node = el('button', '');
    node.type = 'button';
    node.textContent = label;
    node.title = title;
    node.dataset.testid = testid;
    node.addEventListener('click', act);
    return node;
  };
  bar.append(
    button('−', 'zoom-out', 'Zoom out', () => panZoom.zoom(1 / ZOOM_STEP)),
    level,
    button('+', 'zoom-in', 'Zoom in', () => panZoom.zoom(ZOOM_STEP)),
    button('Fit', 'zoom-fit', 'Show the whole graph, however small', () => panZoom.fit()),
    button('Reset', 'zoom-reset', 'Back to the view the page opened with', () => panZoom.reset()),
  );
  bar.hidden = true;
  return bar;
}
