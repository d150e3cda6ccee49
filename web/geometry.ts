import type { VertexShape } from '../server/view/messages.js';

/** A point of the drawing. */
export interface Point {
  readonly x: number;
  readonly y: number;
}

/** A vertex's box: top-left corner and size. */
export interface Box extends Point {
  readonly width: number;
  readonly height: number;
}

export const VERTEX_HEIGHT = 32;
/** The dot a start edge without a source starts from. */
export const START_DOT = 10;

/** How wide a vertex is drawn: room for its name in the page's 12 px font. */
export function vertexWidth(vertex: VertexShape): number {
  return Math.max(60, Math.round(vertex.name.length * 7.2) + 24);
}

/** How wide an edge's name is in the page's 11 px font. */
export function edgeLabelWidth(name: string): number {
  return name.length * 6.5;
}

export function centre(box: Box): Point {
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** The middle of a polyline: of its middle segment when it has an odd number of points' segments. */
export function middle(points: readonly Point[]): Point {
  const a = points[Math.floor((points.length - 1) / 2)];
  const b = points[Math.ceil((points.length - 1) / 2)];
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}

/** A coordinate for an SVG path: a tenth of a pixel is finer than any screen shows. */
export function r(n: number): string {
  return String(Math.round(n * 10) / 10);
}
