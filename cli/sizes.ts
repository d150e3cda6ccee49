import * as t from 'typanion';

const UNITS: ReadonlyMap<string, number> = new Map([
  ['', 1],
  ['b', 1],
  ['kib', 1024],
  ['mib', 1024 ** 2],
  ['gib', 1024 ** 3],
]);

/**
 * A size in bytes as an option takes it: a whole number of bytes, or a whole number followed by `KiB`, `MiB`
 * or `GiB` (any case, a space allowed): `67108864`, `64MiB`, `64 mib`. Undefined for anything else; decimal
 * units (`MB`) are refused rather than guessed.
 */
export function parseSize(text: string): number | undefined {
  const match = /^(\d+)\s*([a-z]*)$/i.exec(text.trim());
  const unit = match === null ? undefined : UNITS.get(match[2].toLowerCase());
  if (match === null || unit === undefined) return undefined;
  const bytes = Number(match[1]) * unit;
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

/**
 * A typanion validator for an option that takes a size (see {@link parseSize}); `check` may refuse a size
 * that parses, answering why.
 */
export function isSize(check: (bytes: number) => string | undefined = () => undefined) {
  return t.makeValidator<unknown, number>({
    test: (value, state): value is number => {
      const bytes = typeof value === 'string' ? parseSize(value) : undefined;
      const problem = bytes === undefined
        ? `expected a number of bytes, or of KiB, MiB or GiB (e.g. 64MiB), got '${String(value)}'`
        : bytes === 0 ? 'expected more than 0 bytes' : check(bytes);
      if (problem !== undefined || bytes === undefined) {
        state?.errors?.push(`${state.p ?? '.'}: ${problem}`);
        return false;
      }
      if (state?.coercions !== undefined && state.coercion !== undefined) {
        state.coercions.push([state.p ?? '.', state.coercion.bind(null, bytes)]);
      }
      return true;
    },
  });
}
