import { heat } from './heat.js';

/** The colour of a cell the walk has not stepped on. */
const UNVISITED = '#e5e7eb';
/** The colour of the cell the walk stands on. */
const CURRENT = '#1d4ed8';

/**
 * A graph too large to draw element by element (docs/view.md): a canvas of one cell per element, vertices
 * first, then edges, in the order of the file, coloured by visits like the drawing.
 */
export class ElementGrid {
  readonly canvas: HTMLCanvasElement;

  constructor(size: number) {
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'strip';
    // About four times as wide as tall: the pane is wider than tall.
    const columns = Math.ceil(Math.sqrt(size * 4));
    this.canvas.width = columns;
    this.canvas.height = Math.ceil(size / columns);
  }

  paint(visits: ArrayLike<number>, most: number, current: number): void {
    const context = this.canvas.getContext('2d') as CanvasRenderingContext2D;
    const { width } = this.canvas;
    for (let e = 0; e < visits.length; e++) {
      context.fillStyle = e === current ? CURRENT : visits[e] > 0 ? heat(visits[e], most) : UNVISITED;
      context.fillRect(e % width, Math.floor(e / width), 1, 1);
    }
  }
}
