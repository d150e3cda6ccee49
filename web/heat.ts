/**
 * Where `count` visits stand between one and `most` (the most visited element), from 0 to 1, on a
 * logarithmic scale so that a few hot loops do not wash out the rest.
 */
function share(count: number, most: number): number {
  return most <= 1 ? 0 : Math.log(count) / Math.log(most);
}

/**
 * The fill of an element visited `count` times when the most visited element has `most` visits: from a pale
 * yellow for one visit to a red for the most. Black names stay readable on all of them (at least 5:1).
 */
export function heat(count: number, most: number): string {
  const at = share(count, most);
  return `hsl(${Math.round(55 - 55 * at)} 95% ${Math.round(78 - 28 * at)}%)`;
}

/**
 * The stroke of an edge visited `count` times: from a dark amber for one visit to a dark red for the most.
 * A line on white needs more than a fill to be seen: even one visit stands at 3:1 against the page (WCAG's
 * floor for graphics), where the fill's pale yellow would all but vanish.
 */
export function heatStroke(count: number, most: number): string {
  const at = share(count, most);
  return `hsl(${Math.round(45 - 45 * at)} 90% ${Math.round(36 - 2 * at)}%)`;
}
