import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Whoever clones or installs walker has the repository and nothing beside it, so no file may send a reader, a
 * test or a benchmark to material outside it. The patterns are built from pieces so that this file does not
 * match itself.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const THIS_FILE = relative(ROOT, import.meta.filename).split(sep).join('/');
const OUTSIDE = [
  ['..', '/shared'],
  ['shared', '/spec'],
  ['shared', '/models'],
  ['service', '.md'],
  ['decisions', '.md'],
  ['graphwalker-notes', '.md'],
  ['altwalker', '.md'],
].map((pieces) => pieces.join(''));
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules', 'dist']);

/** The project's files: what git tracks plus new files it does not ignore, else every file of the tree. */
function projectFiles(): string[] {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return [...new Set(out.split('\0').filter((file) => file !== '' && existsSync(join(ROOT, file))))];
  } catch {
    return walk('');
  }
}

function walk(folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) files.push(...walk(path));
    } else if (entry.isFile()) files.push(path);
  }
  return files;
}

/** The text of a file, or undefined for a binary one (a NUL byte) or anything that is not a file. */
function text(file: string): string | undefined {
  const path = join(ROOT, file);
  if (!statSync(path).isFile()) return undefined;
  const content = readFileSync(path, 'utf8');
  return content.includes('\0') ? undefined : content;
}

/** `file:line: mentions 'x'` for every line of every project file that names something outside the project. */
function outsideReferences(): string[] {
  const found: string[] = [];
  for (const file of projectFiles()) {
    if (file === THIS_FILE) continue;
    const content = text(file);
    if (content === undefined) continue;
    content.split('\n').forEach((line, index) => {
      for (const pattern of OUTSIDE) if (line.includes(pattern)) found.push(`${file}:${index + 1}: mentions '${pattern}'`);
    });
  }
  return found;
}

const INLINE_LINK = /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const REFERENCE_LINK = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/;

/** `file:line: link` for every relative link of a Markdown file whose target is not a file or folder of the project. */
function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  let fenced = false;
  readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
      if (fenced) return;
      const prose = line.replace(/`[^`]*`/g, '');
      const targets = [...prose.matchAll(INLINE_LINK)].map((match) => match[1]);
      const reference = REFERENCE_LINK.exec(prose);
      if (reference) targets.push(reference[1]);
      for (const target of targets) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
        const path = decodeURIComponent(target.split('#')[0]);
        if (!existsSync(join(ROOT, dirname(file), path))) broken.push(`${file}:${index + 1}: ${target}`);
      }
    });
  return broken;
}

describe('the project stands on its own', () => {
  it('no file refers to material outside the repository', () => {
    expect(outsideReferences()).toEqual([]);
  });

  it('every relative link of a Markdown file (README.md, docs/*.md and the others) points into the project', () => {
    const markdown = projectFiles().filter((file) => file.endsWith('.md'));
    expect(markdown).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md']));
    expect(markdown.flatMap(brokenLinks)).toEqual([]);
  });

  it('finds what it looks for', () => {
    expect(projectFiles()).toContain(THIS_FILE);
    expect(walk('')).toEqual(expect.arrayContaining([THIS_FILE, 'docs/architecture.md']));
    expect(walk('').some((file) => file.startsWith('node_modules/'))).toBe(false);
  });
});
