import type { Box, Point } from './geometry.js';

/**
 * The smallest scale a drawing starts at: the 12 px names read at 9 px. A drawing that would have to shrink
 * further to fit the pane starts at this scale instead, around its start, and the reader pans (or asks to fit).
 */
export const MIN_LEGIBLE_SCALE = 0.75;

/** The largest scale a drawing starts at: a model of three vertices is not blown up to fill the pane. */
export const MAX_START_SCALE = 1.25;

/** The most a reader can zoom in: a name at 48 px. */
const MAX_SCALE = 4;

/** What one notch of a mouse wheel (100 px of `deltaY`) and one press of a zoom button zoom by: a step the eye sees at once. */
export const ZOOM_STEP = 1.25;

/** Room left between the drawing and the pane's edges. */
const PAD = 16;

/** A view of the drawing: pane pixel = drawing point × k + (x, y). */
interface View {
  readonly x: number;
  readonly y: number;
  readonly k: number;
}

/**
 * Pans and zooms a drawing inside its pane: one CSS `transform` on the `<div>` that holds the drawing's
 * `<svg>`, which the browser moves as a layer of its own rather than painting the drawing's thousands of
 * elements again at every move (on the `<svg>` itself, Chromium repaints it: 0.5 s a frame at 2,000 elements).
 * Drag to pan, the wheel zooms about the pointer; {@link fit} shows the whole drawing however small,
 * {@link reset} the view it started at.
 */
export class PanZoom {
  /** The drawing shown; none while the pane shows something else (a layout under way, the grid). */
  private content: HTMLElement | undefined;
  private view: View = { x: 0, y: 0, k: 1 };
  private start: View = this.view;
  private size = { width: 0, height: 0 };
  private drag: { readonly pointer: number; x: number; y: number } | undefined;
  /** The reader moved the view away from where it started (dragged, zoomed, fitted). */
  private moved = false;
  /** Hears every change of the view: the scale shown beside the buttons. */
  onChange: (scale: number) => void = () => {};

  /** `pane` is the element the drawing is seen through: it takes the pointer and the wheel. */
  constructor(private readonly pane: HTMLElement) {
    pane.addEventListener('wheel', this.onWheel, { passive: false });
    pane.addEventListener('pointerdown', this.onPointerDown);
    pane.addEventListener('pointermove', this.onPointerMove);
    pane.addEventListener('pointerup', this.onPointerUp);
    pane.addEventListener('pointercancel', this.onPointerUp);
  }

  /**
   * Shows `content`, a drawing of `width` × `height`: whole and centred when it fits at a legible scale (never
   * blown up past {@link MAX_START_SCALE}); else at {@link MIN_LEGIBLE_SCALE}, from the first model's frame
   * `first` at the top left when that fits the pane, or else with the first model's `start` near the top
   * middle of the pane. With `keepView` (the same drawing again, changed: a draft after an edit), a view the
   * reader moved stays where the reader put it.
   */
  show(content: HTMLElement, width: number, height: number, first: Box, start: Point, keepView = false): void {
    this.content = content;
    this.size = { width, height };
    const pane = this.paneSize();
    const k = Math.min(MAX_START_SCALE, Math.max(MIN_LEGIBLE_SCALE, this.fitScale()));
    const whole = { x: width * k + 2 * PAD <= pane.width, y: height * k + 2 * PAD <= pane.height };
    const firstFits = first.width * k + 2 * PAD <= pane.width && first.height * k + 2 * PAD <= pane.height;
    const focus = firstFits ? { x: PAD - first.x * k, y: PAD - first.y * k } : { x: pane.width / 2 - start.x * k, y: pane.height / 4 - start.y * k };
    this.start = {
      x: whole.x ? (pane.width - width * k) / 2 : within(focus.x, pane.width - width * k - PAD, PAD),
      y: whole.y ? (pane.height - height * k) / 2 : within(focus.y, pane.height - height * k - PAD, PAD),
      k,
    };
    if (keepView && this.moved) return this.apply(this.view);
    this.moved = false;
    this.apply(this.start);
  }

  /** Nothing to pan or zoom any more. */
  clear(): void {
    this.content?.style.removeProperty('transform');
    this.content = undefined;
    this.drag = undefined;
  }

  /** The whole drawing in the pane, centred, however small that makes it. */
  fit(): void {
    const pane = this.paneSize();
    const k = this.fitScale();
    this.move({ x: (pane.width - this.size.width * k) / 2, y: (pane.height - this.size.height * k) / 2, k });
  }

  /** Back to the view the drawing started at. */
  reset(): void {
    this.moved = false;
    this.apply(this.start);
  }

  /** Zooms by `factor` about a point of the pane (its middle when none is given): that point stays where it is. */
  zoom(factor: number, at?: Point): void {
    const pane = this.paneSize();
    const centre = at ?? { x: pane.width / 2, y: pane.height / 2 };
    const k = Math.min(MAX_SCALE, Math.max(this.minScale(), this.view.k * factor));
    const ratio = k / this.view.k;
    this.move({ x: centre.x - (centre.x - this.view.x) * ratio, y: centre.y - (centre.y - this.view.y) * ratio, k });
  }

  /** The scale at which the whole drawing fits the pane, padding included. */
  private fitScale(): number {
    const pane = this.paneSize();
    const k = Math.min((pane.width - 2 * PAD) / Math.max(1, this.size.width), (pane.height - 2 * PAD) / Math.max(1, this.size.height));
    return Math.max(k, 0.01);
  }

  /** A reader may always zoom out to see the whole drawing, and somewhat beyond. */
  private minScale(): number {
    return Math.min(this.fitScale(), MIN_LEGIBLE_SCALE) / 2;
  }

  private paneSize(): { width: number; height: number } {
    const { width, height } = this.pane.getBoundingClientRect();
    // Not laid out yet (a pane not in the page): a common screen's share, until the first real size.
    return width > 0 && height > 0 ? { width, height } : { width: 960, height: 700 };
  }

  /** A view the reader asked for. */
  private move(view: View): void {
    if (this.content === undefined) return;
    this.moved = true;
    this.apply(view);
  }

  private apply(view: View): void {
    if (this.content === undefined) return;
    this.view = view;
    this.content.style.transform = `translate(${round(view.x)}px, ${round(view.y)}px) scale(${round(view.k, 100_000)})`;
    this.onChange(view.k);
  }

  private readonly onWheel = (event: WheelEvent): void => {
    if (this.content === undefined) return;
    event.preventDefault();
    // deltaMode 1 counts lines (Firefox with a mouse), 2 pages: both as pixels, roughly.
    const pixels = event.deltaY * (event.deltaMode === 1 ? 33 : event.deltaMode === 2 ? 800 : 1);
    const bounds = this.pane.getBoundingClientRect();
    this.zoom(ZOOM_STEP ** (-pixels / 100), { x: event.clientX - bounds.left, y: event.clientY - bounds.top });
  };

  private readonly onPointerDown = (event: PointerEvent): void => {
    if (event.button !== 0 || this.drag !== undefined || this.content === undefined) return;
    this.drag = { pointer: event.pointerId, x: event.clientX, y: event.clientY };
    this.pane.setPointerCapture(event.pointerId);
    this.pane.classList.add('dragging');
  };

  private readonly onPointerMove = (event: PointerEvent): void => {
    if (this.drag?.pointer !== event.pointerId) return;
    const dx = event.clientX - this.drag.x;
    const dy = event.clientY - this.drag.y;
    this.drag.x = event.clientX;
    this.drag.y = event.clientY;
    this.move({ ...this.view, x: this.view.x + dx, y: this.view.y + dy });
  };

  private readonly onPointerUp = (event: PointerEvent): void => {
    if (this.drag?.pointer !== event.pointerId) return;
    this.drag = undefined;
    this.pane.classList.remove('dragging');
  };
}

/** `value` kept between `low` and `high`; `high` when they cross (a drawing narrower than the pane's padding). */
function within(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

function round(n: number, by = 10): number {
  return Math.round(n * by) / by;
}
