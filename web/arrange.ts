import type { Point } from './geometry.js';

/** Between two models, across and down. */
export const MODEL_GAP = 120;
/** Around the whole drawing. */
export const MARGIN = 20;

/** A width and a height. */
export interface Size {
  readonly width: number;
  readonly height: number;
}

/**
 * Top-left corners for frames of these sizes in rows, left to right, and the size of it all. Each way to
 * break the rows (after the first frame, the second, …) is tried, and the one a pane of `aspect` shows
 * largest is kept: five models side by side in a wide pane, in two rows in a narrow one.
 */
export function arrange(frames: readonly Size[], aspect: number): { corners: Point[]; width: number; height: number } {
  let best = rows(frames, Infinity);
  let widthSoFar = 0;
  for (const frame of frames) {
    widthSoFar += frame.width;
    const candidate = rows(frames, widthSoFar);
    // The scale at which a pane of this aspect (and height 1) shows the whole arrangement.
    if (Math.min(aspect / candidate.width, 1 / candidate.height) > Math.min(aspect / best.width, 1 / best.height)) best = candidate;
    widthSoFar += MODEL_GAP;
  }
  return best;
}

/** Frames in rows no wider than `rowWidth` (but one frame a row at least). */
function rows(frames: readonly Size[], rowWidth: number): { corners: Point[]; width: number; height: number } {
  const corners: Point[] = [];
  let left = MARGIN;
  let top = MARGIN;
  let rowHeight = 0;
  let width = 0;
  for (const frame of frames) {
    if (left > MARGIN && left + frame.width > rowWidth + MARGIN) {
      left = MARGIN;
      top += rowHeight + MODEL_GAP / 2;
      rowHeight = 0;
    }
    corners.push({ x: left, y: top });
    rowHeight = Math.max(rowHeight, frame.height);
    width = Math.max(width, left + frame.width + MARGIN);
    left += frame.width + MODEL_GAP;
  }
  return { corners, width: Math.max(width, 2 * MARGIN), height: top + rowHeight + MARGIN };
}
