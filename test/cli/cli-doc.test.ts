import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { createCli } from '../../cli/index.js';

const doc = readFileSync('docs/cli.md', 'utf8');
const readme = readFileSync('README.md', 'utf8');

it('docs/cli.md has a section for every command and names every option as the help writes it', () => {
  const definitions = createCli().definitions();
  expect(definitions.map((d) => d.path).sort()).toEqual([
    'walker check',
    'walker convert',
    'walker executor',
    'walker generate',
    'walker methods',
    'walker offline',
    'walker online',
    'walker requirements',
    'walker run',
    'walker source',
    'walker verify',
  ]);
  for (const definition of definitions) {
    expect(doc).toContain(`\n## ${definition.path}\n`);
    for (const option of definition.options) expect(doc, definition.path).toContain(`\`${option.definition}\``);
  }
});

it('docs/cli.md names the options that stand before the command', () => {
  expect(doc).toContain('\n## Options before the command\n');
  for (const option of ['-d,--debug <level>', '-v,--version']) expect(doc).toContain(`\`${option}\``);
});

it('docs/cli.md lists every exit code, and the README links it', () => {
  for (const code of [0, 1, 2, 3]) expect(doc).toMatch(new RegExp(`\\n\\| ${code} \\| `));
  expect(readme).toContain('(docs/cli.md)');
});
