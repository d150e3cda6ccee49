import type { OptionSpec } from './option.js';

/**
 * Puts an option's placeholders where clipanion 3 prints `#0 #1`: `[-m,--model #0 #1]` becomes
 * `-m,--model <file> <generator>` (a required option loses its brackets, since walker declares every option
 * optional to clipanion) and `--seed #0` becomes `--seed <n>`. The names must stand after a space, a bracket
 * or the start, so that `--timeout #0` never rewrites the tail of `--request-timeout #0`.
 */
export function withPlaceholders(text: string, specs: readonly OptionSpec[]): string {
  let result = text;
  for (const spec of specs) {
    const numbered = escape(`${spec.names}${spec.placeholders.map((_, i) => ` #${i}`).join('')}`);
    const named = `${spec.names} ${spec.placeholders.join(' ')}`;
    result = result
      .replace(new RegExp(`(?<=^|[\\s[<])\\[${numbered}\\]`, 'g'), () => (spec.required ? named : `[${named}]`))
      .replace(new RegExp(`(?<=^|[\\s[<])${numbered}(?![\\w-])`, 'g'), () => named);
  }
  return result;
}

/** How an option is written in a message: its names and placeholders, e.g. `-m,--model <file> <generator>`. */
export function describeOption(spec: OptionSpec): string {
  return `${spec.names} ${spec.placeholders.join(' ')}`;
}

/** `a`, `a and b`, `a, b and c`. */
export function listed(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** A message that follows `walker offline: ` starts in lower case, unless it starts with an acronym. */
export function lowerFirst(message: string): string {
  return /^[A-Z][a-z]/.test(message) ? message[0].toLowerCase() + message.slice(1) : message;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
