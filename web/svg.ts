/** Small makers of the page's SVG and HTML elements. */

export const SVG = 'http://www.w3.org/2000/svg';

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  return node;
}

/** A `<g>`; for a vertex or an edge, with the hooks of docs/view.md. */
export function group(kind: string, id?: string, model?: string, index?: number): SVGGElement {
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

export function rect(x: number, y: number, width: number, height: number, className: string): SVGRectElement {
  return shape('rect', { x, y, width, height, rx: 6 }, className);
}

export function text(content: string, x: number, y: number, className: string): SVGTextElement {
  const node = shape('text', { x, y }, className);
  node.textContent = content;
  return node;
}

export function line(x1: number, y1: number, x2: number, y2: number, className: string): SVGLineElement {
  return shape('line', { x1, y1, x2, y2 }, className);
}

export function circle(cx: number, cy: number, radius: number, className: string): SVGCircleElement {
  return shape('circle', { cx, cy, r: radius }, className);
}

export function path(d: string, className?: string): SVGPathElement {
  const node = document.createElementNS(SVG, 'path');
  node.setAttribute('d', d);
  if (className !== undefined) node.setAttribute('class', className);
  return node;
}

/** The arrow head every edge ends in. */
export function defs(): SVGDefsElement {
  const node = document.createElementNS(SVG, 'defs');
  node.innerHTML = '<marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrow"/></marker>';
  return node;
}

function shape<K extends 'rect' | 'text' | 'line' | 'circle'>(tag: K, attributes: Record<string, number>, className: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  node.setAttribute('class', className);
  return node;
}
