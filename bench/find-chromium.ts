import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

/** What {@link findChromium} looks at: the machine, or a made-up one in its tests. */
export interface Lookout {
  readonly env: NodeJS.ProcessEnv;
  readonly platform: NodeJS.Platform;
  readonly home: string;
  exists(path: string): boolean;
  /** The folders directly in `dir`, or none when it does not exist. */
  folders(dir: string): string[];
  /** The executable a command name runs, when it is on the PATH. */
  onPath(name: string): string | undefined;
  /** Where playwright-core's own Chromium build would be, installed or not. */
  playwrightChromium(): string | undefined;
}

const COMMANDS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];

const INSTALLED: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium', '/usr/bin/google-chrome', '/opt/google/chrome/chrome'],
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
  ],
};

/** The executable inside a build folder of Playwright's cache, by the layouts its versions used. */
const IN_BUILD: Partial<Record<NodeJS.Platform, string[][]>> = {
  linux: [['chrome-linux64', 'chrome'], ['chrome-linux', 'chrome'], ['chrome-headless-shell-linux64', 'chrome-headless-shell'], ['chrome-linux', 'headless_shell']],
  darwin: [
    ['chrome-mac-arm64', 'Google Chrome for Testing.app', 'Contents', 'MacOS', 'Google Chrome for Testing'],
    ['chrome-mac-x64', 'Google Chrome for Testing.app', 'Contents', 'MacOS', 'Google Chrome for Testing'],
    ['chrome-mac', 'Chromium.app', 'Contents', 'MacOS', 'Chromium'],
    ['chrome-headless-shell-mac-arm64', 'chrome-headless-shell'],
    ['chrome-headless-shell-mac-x64', 'chrome-headless-shell'],
  ],
};

/**
 * A Chromium the browser tests can drive, wherever a newcomer already has one: the one `WALKER_CHROMIUM`
 * names; a Chromium or Google Chrome on the PATH or where its installer puts it (Linux, macOS); playwright-core's
 * own build; any Chromium build in Playwright's cache (`PLAYWRIGHT_BROWSERS_PATH`, else the user's cache).
 * Undefined when there is none. A `WALKER_CHROMIUM` that names nothing is an error: it was meant.
 */
export function findChromium(look: Lookout): string | undefined {
  const named = look.env.WALKER_CHROMIUM;
  if (named !== undefined && named !== '') {
    if (!look.exists(named)) throw new Error(`WALKER_CHROMIUM names '${named}', which does not exist.`);
    return named;
  }
  for (const command of COMMANDS) {
    const found = look.onPath(command);
    if (found !== undefined) return found;
  }
  const installed = (INSTALLED[look.platform] ?? []).find((path) => look.exists(path));
  if (installed !== undefined) return installed;
  const own = look.playwrightChromium();
  if (own !== undefined && look.exists(own)) return own;
  return fromPlaywrightCache(look);
}

function fromPlaywrightCache(look: Lookout): string | undefined {
  const cache = playwrightCache(look);
  // Newest build first: the folders are named by build number.
  const builds = look
    .folders(cache)
    .filter((name) => /^chromium(_headless_shell)?-\d+$/.test(name))
    .sort((a, b) => buildNumber(b) - buildNumber(a) || (a.includes('headless') ? 1 : -1));
  for (const build of builds) {
    for (const inside of IN_BUILD[look.platform] ?? []) {
      const path = join(cache, build, ...inside);
      if (look.exists(path)) return path;
    }
  }
  return undefined;
}

function buildNumber(folder: string): number {
  return Number(/-(\d+)$/.exec(folder)?.[1] ?? 0);
}

/** Playwright's browser cache, as playwright-core places it. */
function playwrightCache(look: Lookout): string {
  const set = look.env.PLAYWRIGHT_BROWSERS_PATH;
  if (set !== undefined && set !== '' && set !== '0') return set;
  if (look.platform === 'darwin') return join(look.home, 'Library', 'Caches', 'ms-playwright');
  if (look.platform === 'win32') return join(look.env.LOCALAPPDATA ?? join(look.home, 'AppData', 'Local'), 'ms-playwright');
  return join(look.env.XDG_CACHE_HOME ?? join(look.home, '.cache'), 'ms-playwright');
}

/** This machine. */
export function thisMachine(): Lookout {
  return {
    env: process.env,
    platform: process.platform,
    home: homedir(),
    exists: existsSync,
    folders: (dir) => {
      try {
        return readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
      } catch {
        return [];
      }
    },
    onPath: (name) => {
      try {
        return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
      } catch {
        return undefined;
      }
    },
    playwrightChromium: () => {
      try {
        return chromium.executablePath();
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * A Chromium to drive, for the browser tests and the bench's editor section ({@link findChromium}). Without
 * one it throws, saying how to get one: the browser tests never skip.
 */
export function chromiumPath(): string {
  const found = findChromium(thisMachine());
  if (found !== undefined) return found;
  throw new Error(
    'The browser tests and the editor bench need Chromium or Google Chrome, and found neither on the PATH, where ' +
      "their installers put them, nor in Playwright's cache: install one (Debian: apt-get install chromium; .ci/run " +
      'does) or set WALKER_CHROMIUM to its executable.',
  );
}
