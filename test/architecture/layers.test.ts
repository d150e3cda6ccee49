import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * JavaScript parsers: what scripts mean is the script engine's to say (docs/plugins.md), so core names none.
 */
const SCRIPT_PARSERS = /^(acorn|acorn-walk|espree|esprima|meriyah|@babel\/|@swc\/|typescript$|cherow|shift-parser|oxc-parser)/;

/**
 * What each layer may not import: `cli → runner → server → core ← plugins`, and core free of the heavy
 * libraries and of JavaScript parsers. The
 * web page (web/) runs in a browser: of the rest it reads only the view's message types, and nothing imports it.
 */
const FORBIDDEN: Record<string, readonly RegExp[]> = {
  core: [/^fastify/, /^@fastify\//, /^clipanion$/, /^quickjs-emscripten/, /^tsyringe$/, /^reflect-metadata$/, /^tsx/, /\/(server|runner|cli|plugins|web)\//, SCRIPT_PARSERS],
  plugins: [/^fastify/, /^@fastify\//, /^clipanion$/, /^tsyringe$/, /^tsx/, /\/(server|runner|cli|web)\//],
  server: [/^clipanion$/, /^tsx/, /\/(runner|cli|web)\//],
  runner: [/^clipanion$/, /\/(cli|web)\//],
  web: [/^node:/, /^fastify/, /^@fastify\//, /^clipanion$/, /^quickjs-emscripten/, /^\/(core|plugins|cli)\//, /^\/server\/(?!view\/messages\.js$)/],
};

function sources(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(root, folder, f));
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'/gm)].map((m) => m[1] ?? m[2]);
}

describe('the layers', () => {
  for (const [layer, forbidden] of Object.entries(FORBIDDEN)) {
    it(`keep ${layer}/ from importing what sits above it`, () => {
      const offences: string[] = [];
      for (const file of sources(layer)) {
        for (const specifier of importsOf(file)) {
          // Relative imports are checked by where they land, packages by their name.
          const target = specifier.startsWith('.') ? `/${relative(root, join(file, '..', specifier))}` : specifier;
          if (forbidden.some((pattern) => pattern.test(target))) offences.push(`${relative(root, file)} imports ${specifier}`);
        }
      }
      expect(offences).toEqual([]);
    });
  }

  it('leave the global Reflect alone for a library user of core', () => {
    const script = "await import('./dist/core/index.js'); process.stdout.write(String(typeof Reflect.getMetadata));";
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(out).toBe('undefined');
  });
});
