/**
 * The colour of an element visited `count` times when the most visited element has `most` visits: from a
 * pale yellow for one visit to a deep red for the most, on a logarithmic scale so that a few hot loops do
 * not wash out the rest.
 */
export function heat(count: number, most: number): string {
  const share = most <= 1 ? 0 : Math.log(count) / Math.log(most);
  const hue = Math.round(55 - 55 * share);
  const lightness = Math.round(78 - 36 * share);
  return `hsl(${hue} 95% ${lightness}%)`;
}
