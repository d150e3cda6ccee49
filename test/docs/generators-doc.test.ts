import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGenerators, printGenerators } from '../../core/language/parser.js';
import { builtinGenerators } from '../../plugins/generators/index.js';
import { builtInStopConditions } from '../../plugins/conditions/index.js';

/** docs/generators.md is the language's reference: it must name everything registered and say what parses. */
const doc = readFileSync('docs/generators.md', 'utf8');

/** The generator strings in the first column of the table under a heading. */
function tableStrings(heading: string): string[] {
  const section = doc.split(`\n## ${heading}\n`)[1].split('\n## ')[0];
  return [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]);
}

describe('docs/generators.md', () => {
  it('names every built-in generator and stop condition with all their aliases', () => {
    for (const factory of [...builtinGenerators, ...builtInStopConditions]) {
      for (const name of [factory.name, ...(factory.aliases ?? [])]) expect(doc).toContain(`\`${name}`);
    }
  });

  it('shows only generator strings that parse', () => {
    const examples = tableStrings('Examples');
    expect(examples.length).toBeGreaterThan(5);
    for (const text of examples) expect(() => parseGenerators(text), text).not.toThrow();
  });

  it('groups the combining examples as it says: and binds tighter than or', () => {
    const written = tableStrings('Combining conditions');
    expect(written[0]).toBe('length(50) or length(3) and never');
    const print = (condition: string) => printGenerators(parseGenerators(`random(${condition})`));
    expect(print(written[0])).toBe(print('length(50) or (length(3) and never)'));
    expect(print(written[1])).not.toBe(print(written[0]));
    for (const text of written) expect(() => parseGenerators(`random(${text})`), text).not.toThrow();
  });
});
