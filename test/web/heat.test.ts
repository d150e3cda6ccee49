import { describe, expect, it } from 'vitest';
import { heat, heatStroke } from '../../web/heat.js';

/** sRGB of an `hsl(h s% l%)` colour, each channel from 0 to 1 (CSS Color 4's conversion). */
function rgb(colour: string): [number, number, number] {
  const [h, s, l] = (/^hsl\((\d+) (\d+)% (\d+)%\)$/.exec(colour) as RegExpExecArray).slice(1).map(Number);
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const f = (n: number): number => {
    const k = (n + h / 30) % 12;
    return l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [f(0), f(8), f(4)];
}

/** WCAG 2's relative luminance. */
function luminance(colour: string): number {
  const [r, g, b] = rgb(colour).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2's contrast ratio of two luminances. */
function contrast(a: number, b: number): number {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

const WHITE = 1;
const BLACK = 0;
const MOSTS = [1, 2, 3, 10, 57, 1000, 1_000_000];

describe('the colours of visits', () => {
  it('draws an edge walked once at 3:1 against the white page at least, WCAG 2.1\'s floor for graphics', () => {
    for (const most of MOSTS) {
      for (const count of [1, Math.ceil(most / 2), most]) {
        expect(contrast(luminance(heatStroke(count, most)), WHITE), `${count} of ${most}`).toBeGreaterThanOrEqual(3);
      }
    }
  });

  it('keeps black names readable on every fill, at 4.5:1 (WCAG AA for text) or more', () => {
    for (const most of MOSTS) {
      for (const count of [1, Math.ceil(most / 2), most]) {
        expect(contrast(luminance(heat(count, most)), BLACK), `${count} of ${most}`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('darkens as the visits grow, fills and strokes alike', () => {
    const most = 500;
    for (const colour of [heat, heatStroke]) {
      const shades = [1, 2, 5, 20, 100, 500].map((count) => luminance(colour(count, most)));
      for (let i = 1; i < shades.length; i++) expect(shades[i]).toBeLessThan(shades[i - 1]);
    }
  });
});
