import Panzoom, { type PanzoomEventDetail, type PanzoomObject } from '@panzoom/panzoom';
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
 * Pans and zooms a drawing inside its pane with `@panzoom/panzoom`, which drags, zooms about a point, keeps the
 * scale within bounds and sets one CSS `transform` on the layer, the `<div>` that holds the drawing's `<svg>`:
 * the browser moves that as a layer of its own rather than painting the drawing's thousands of elements again
 * at every move (on the `<svg>` itself, Chromium repaints it at every frame, several times slower without a GPU:
 * docs/benchmarks.md, "Measurements behind the code"). What is ours: where a drawing starts, what fits, how far out a
 * reader may zoom, and the step of the wheel and the buttons. The library writes each change at the next
 * animation frame.
 */
export class PanZoom {
  /** The library's hold on the drawing shown; none while the pane shows something else (a layout, the grid). */
  private panzoom: PanzoomObject | undefined;
  private size = { width: 0, height: 0 };
  private start: View = { x: 0, y: 0, k: 1 };
  /** The view when the last drawing was taken away: a draft drawn again after an edit keeps it. */
  private last: View | undefined;
  /** The reader moved the view away from where it started (dragged, zoomed, fitted). */
  private moved = false;
  /** Hears every change of the view: the scale shown beside the buttons. */
  onChange: (scale: number) => void = () => {};

  /** `pane` is what the drawing is seen through, and takes the pointer and the wheel; `layer` is what moves. */
  constructor(
    private readonly pane: HTMLElement,
    private readonly layer: HTMLElement,
  ) {
    pane.addEventListener('wheel', this.onWheel, { passive: false });
    // Bound here rather than by the library, which would also drag with the right button (and go on dragging
    // once its context menu closes) and follow the pointer on the whole document instead of capturing it.
    pane.addEventListener('pointerdown', this.onPointerDown);
    pane.addEventListener('pointermove', (event) => this.panzoom?.handleMove(event));
    for (const type of ['pointerup', 'pointercancel'] as const) pane.addEventListener(type, (event) => this.panzoom?.handleUp(event));
    layer.addEventListener('panzoomstart', () => pane.classList.add('dragging'));
    layer.addEventListener('panzoomend', () => pane.classList.remove('dragging'));
    layer.addEventListener('panzoomchange', (event) => {
      const { scale, originalEvent } = (event as CustomEvent<PanzoomEventDetail>).detail;
      // A change the reader made with the pointer or the wheel (ours carry no event).
      if (originalEvent !== undefined) this.moved = true;
      this.onChange(scale);
    });
  }

  /**
   * Shows the drawing in the layer, `width` × `height`: whole and centred when it fits at a legible scale (never
   * blown up past {@link MAX_START_SCALE}); else at {@link MIN_LEGIBLE_SCALE}, from the first model's frame
   * `first` at the top left when that fits the pane, or else with the first model's `start` near the top
   * middle of the pane. With `keepView` (the same drawing again, changed: a draft after an edit), a view the
   * reader moved stays where the reader put it.
   */
  show(width: number, height: number, first: Box, start: Point, keepView = false): void {
    this.size = { width, height };
    this.start = this.startView(first, start);
    const view = keepView && this.moved && this.last !== undefined ? this.last : this.start;
    this.moved = view !== this.start;
    const at = this.toLibrary(view);
    // The cursor is the stylesheet's, the pointer ours to bind (see the constructor).
    const options = { noBind: true, cursor: '', maxScale: MAX_SCALE, minScale: this.minScale() };
    this.panzoom = Panzoom(this.layer, { ...options, startScale: at.scale, startX: at.x, startY: at.y });
    // Now rather than after the timeout the library waits for its own start: no frame shows the drawing elsewhere.
    this.panzoom.pan(at.x, at.y, { force: true });
  }

  /** Nothing to pan or zoom any more. */
  clear(): void {
    if (this.panzoom === undefined) return;
    this.last = this.toView(this.panzoom.getPan(), this.panzoom.getScale());
    this.panzoom.resetStyle();
    this.panzoom = undefined;
    this.pane.classList.remove('dragging');
    this.layer.style.removeProperty('transform');
    // A change the library has yet to write, at the next frame, would put the transform back: take it away after.
    requestAnimationFrame(() => {
      if (this.panzoom === undefined) this.layer.style.removeProperty('transform');
    });
  }

  /** The whole drawing in the pane, centred, however small that makes it (but no larger than the most zoomed in). */
  fit(): void {
    const pane = this.paneSize();
    const k = Math.min(MAX_SCALE, this.fitScale());
    this.moveTo({ x: (pane.width - this.size.width * k) / 2, y: (pane.height - this.size.height * k) / 2, k });
  }

  /** Back to the view the drawing started at. */
  reset(): void {
    if (this.panzoom === undefined) return;
    this.moved = false;
    const at = this.toLibrary(this.start);
    this.panzoom.reset({ startScale: at.scale, startX: at.x, startY: at.y, animate: false });
  }

  /** Zooms by `factor` about a point of the screen (the middle of the pane when none is given): that point stays where it is. */
  zoom(factor: number, at?: { clientX: number; clientY: number }): void {
    if (this.panzoom === undefined) return;
    this.moved = true;
    this.panzoom.setOptions({ minScale: this.minScale() });
    const bounds = this.pane.getBoundingClientRect();
    const { minScale = 0, maxScale = MAX_SCALE } = this.panzoom.getOptions();
    // The library keeps the point still at the scale it is asked for, and clamps after: ask for one in bounds.
    const scale = Math.min(maxScale, Math.max(minScale, this.panzoom.getScale() * factor));
    this.panzoom.zoomToPoint(scale, at ?? { clientX: bounds.left + bounds.width / 2, clientY: bounds.top + bounds.height / 2 });
  }

  /** Where the drawing starts: see {@link show}. */
  private startView(first: Box, start: Point): View {
    const { width, height } = this.size;
    const pane = this.paneSize();
    const k = Math.min(MAX_START_SCALE, Math.max(MIN_LEGIBLE_SCALE, this.fitScale()));
    const whole = { x: width * k + 2 * PAD <= pane.width, y: height * k + 2 * PAD <= pane.height };
    const firstFits = first.width * k + 2 * PAD <= pane.width && first.height * k + 2 * PAD <= pane.height;
    const focus = firstFits ? { x: PAD - first.x * k, y: PAD - first.y * k } : { x: pane.width / 2 - start.x * k, y: pane.height / 4 - start.y * k };
    return {
      x: whole.x ? (pane.width - width * k) / 2 : within(focus.x, pane.width - width * k - PAD, PAD),
      y: whole.y ? (pane.height - height * k) / 2 : within(focus.y, pane.height - height * k - PAD, PAD),
      k,
    };
  }

  /** A view the reader asked for. */
  private moveTo(view: View): void {
    if (this.panzoom === undefined) return;
    this.moved = true;
    this.panzoom.setOptions({ minScale: this.minScale() });
    const at = this.toLibrary(view);
    this.panzoom.zoom(at.scale, { animate: false });
    this.panzoom.pan(at.x, at.y, { animate: false });
  }

  /**
   * A view in the library's terms. It transforms the layer by `scale(k) translate(x, y)` about the layer's
   * middle c (an HTML element's `transform-origin`): pane pixel = c + k × (point − c + (x, y)).
   */
  private toLibrary(view: View): { x: number; y: number; scale: number } {
    const c = { x: this.size.width / 2, y: this.size.height / 2 };
    return { x: (view.x - c.x * (1 - view.k)) / view.k, y: (view.y - c.y * (1 - view.k)) / view.k, scale: view.k };
  }

  /** The library's pan and scale as a view: the inverse of {@link toLibrary}. */
  private toView(pan: Point, scale: number): View {
    const c = { x: this.size.width / 2, y: this.size.height / 2 };
    return { x: c.x * (1 - scale) + pan.x * scale, y: c.y * (1 - scale) + pan.y * scale, k: scale };
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

  private readonly onWheel = (event: WheelEvent): void => {
    if (this.panzoom === undefined) return;
    event.preventDefault();
    // deltaMode 1 counts lines (Firefox with a mouse), 2 pages: both as pixels, roughly. A touchpad's small
    // deltas zoom a little each, where the library's own wheel handler would zoom a whole step per event.
    const pixels = event.deltaY * (event.deltaMode === 1 ? 33 : event.deltaMode === 2 ? 800 : 1);
    this.zoom(ZOOM_STEP ** (-pixels / 100), event);
  };

  private readonly onPointerDown = (event: PointerEvent): void => {
    if (event.button !== 0 || this.panzoom === undefined) return;
    this.pane.setPointerCapture(event.pointerId);
    this.panzoom.handleDown(event);
  };
}

/** `value` kept between `low` and `high`; `high` when they cross (a drawing narrower than the pane's padding). */
function within(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
