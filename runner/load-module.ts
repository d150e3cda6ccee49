import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RunnerError, RunnerErrorCodes } from './errors.js';

/** The extensions a test module may have, and the index files a folder of tests may hold, in that order. */
export const MODULE_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'] as const;
const TYPESCRIPT = new Set(['.ts', '.mts']);

/** A test module as loaded: its file and what it exports. */
export interface TestModule {
  /** The absolute path of the file loaded; stack frames in it are the test's own. */
  readonly file: string;
  readonly exports: Readonly<Record<string, unknown>>;
}

/**
 * Loads a test module: a `.ts`, `.mts`, `.js` or `.mjs` file, or a folder with an `index` of one of those.
 * TypeScript goes through tsx, which compiles with esbuild as the module is imported and maps stack traces
 * back to the TypeScript lines; no build step and no tsconfig are needed. A file that is missing, does not
 * parse or throws while loading is a RUNNER_MODULE error with the loader's message and the file's line.
 */
export async function loadTestModule(path: string, cwd = process.cwd()): Promise<TestModule> {
  const file = await moduleFile(resolve(cwd, path), path);
  // Stack traces of the tests are read by people: at the TypeScript line, not the compiled one.
  process.setSourceMapsEnabled(true);
  let exports: Record<string, unknown>;
  try {
    if (extname(file) === '.ts' && !(await inModulePackage(file))) {
      // A .ts file of a CommonJS package: tsx's ESM path would load it from a data: URL without a source map.
      const { require: tsRequire } = await import('tsx/cjs/api');
      exports = tsRequire(file, import.meta.url) as Record<string, unknown>;
    } else if (TYPESCRIPT.has(extname(file))) {
      const { tsImport } = await import('tsx/esm/api');
      exports = (await tsImport(pathToFileURL(file).href, import.meta.url)) as Record<string, unknown>;
    } else {
      exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    }
  } catch (error) {
    throw new RunnerError(RunnerErrorCodes.MODULE, `Could not load the test module '${path}': ${loadFailure(error, file)}`, { cause: error });
  }
  return { file, exports };
}

/** Whether the nearest package.json above the file says `"type": "module"`, as Node decides for a .js file. */
async function inModulePackage(file: string): Promise<boolean> {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const text = await readFile(join(dir, 'package.json'), 'utf8').catch(() => undefined);
    if (text !== undefined) {
      try {
        return (JSON.parse(text) as { type?: unknown }).type === 'module';
      } catch {
        return false;
      }
    }
    if (dirname(dir) === dir) return false;
  }
}

/** The file to load: the path itself, or the folder's index. */
async function moduleFile(absolute: string, given: string): Promise<string> {
  const kind = await stat(absolute).then(
    (s) => (s.isDirectory() ? 'folder' : 'file'),
    () => 'missing',
  );
  if (kind === 'missing') {
    throw new RunnerError(RunnerErrorCodes.MODULE, `The test module '${given}' does not exist: give a .ts, .mts, .js or .mjs file, or a folder with an index.ts`);
  }
  if (kind === 'file') {
    if (!(MODULE_EXTENSIONS as readonly string[]).includes(extname(absolute))) {
      throw new RunnerError(RunnerErrorCodes.MODULE, `The test module '${given}' is not a .ts, .mts, .js or .mjs file`);
    }
    return absolute;
  }
  for (const ext of MODULE_EXTENSIONS) {
    const index = join(absolute, `index${ext}`);
    if (await stat(index).then((s) => s.isFile(), () => false)) return index;
  }
  throw new RunnerError(RunnerErrorCodes.MODULE, `The folder '${given}' has no index.ts, index.mts, index.js or index.mjs to load as the test module`);
}

/**
 * The loader's words on one line, with the file and line: esbuild says `file:line:col: ERROR: ...`; Node's
 * SyntaxError names the place only in the first line of its stack.
 */
function loadFailure(error: unknown, file: string): string {
  if (!(error instanceof Error)) return String(error);
  const esbuild = /([^\s]+:\d+:\d+): ERROR: (.*)/.exec(error.message);
  if (esbuild) return `${esbuild[1]}: ${esbuild[2]}`;
  const message = error.message.split('\n')[0];
  if (error instanceof SyntaxError) {
    const place = error.stack?.split('\n')[0];
    if (place !== undefined && place.includes(':') && !place.startsWith('SyntaxError')) return `${place.replace(/^file:\/\//, '')}: ${message}`;
    return `${file}: SyntaxError: ${message}`;
  }
  const at = testFrame(error, file);
  return `${error.name}: ${message}${at === undefined ? '' : ` (at ${at})`}`;
}

/**
 * The first frame of an error's stack in the test code, as `file:line:column`: in the test module's folder
 * (or below it), outside node_modules, so that a helper module the tests import counts as theirs.
 */
export function testFrame(error: unknown, file: string): string | undefined {
  const stack = error instanceof Error ? error.stack : undefined;
  if (stack === undefined) return undefined;
  const folder = pathToFileURL(dirname(file)).href + '/';
  for (const line of stack.split('\n').slice(1)) {
    const at = /\(?((?:file:\/\/)?[^\s()]+):(\d+):(\d+)\)?\s*$/.exec(line);
    if (at === null) continue;
    const where = at[1].startsWith('file://') ? at[1] : pathToFileURL(at[1]).href;
    const clean = where.split('?')[0];
    if (clean.startsWith(folder) && !clean.includes('/node_modules/')) return `${fileURLToPath(clean)}:${at[2]}:${at[3]}`;
  }
  return undefined;
}
