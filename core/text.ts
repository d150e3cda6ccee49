/**
 * How walker cuts long texts and lists for messages, in one place so that every message marks a cut the same
 * way: a model or a script can hold megabytes, and a message must stay one readable line.
 */

/** The text whole when it has at most `max` characters, else its first `max - 1` and `…`. */
export function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * The first `max` items joined by `, `, and how many more there are: `a, b, c and 4 more`. `total` is the
 * length of the whole list when only a prefix of it is passed.
 */
export function abbreviate(items: readonly string[], max: number, total = items.length): string {
  const shown = items.slice(0, max).join(', ');
  return total > max ? `${shown} and ${total - max} more` : shown;
}
