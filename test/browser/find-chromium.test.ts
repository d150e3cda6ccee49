import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findChromium, type Lookout } from '../../bench/find-chromium.js';

/** A machine with these files and commands, and nothing else. */
function machine(options: { platform?: NodeJS.Platform; files?: string[]; commands?: Record<string, string>; env?: NodeJS.ProcessEnv; playwright?: string }): Lookout {
  const files = new Set(options.files ?? []);
  return {
    env: options.env ?? {},
    platform: options.platform ?? 'linux',
    home: '/home/ada',
    exists: (path) => files.has(path),
    folders: (dir) => [...new Set([...files].filter((f) => f.startsWith(`${dir}/`)).map((f) => f.slice(dir.length + 1).split('/')[0]))],
    onPath: (name) => options.commands?.[name],
    playwrightChromium: () => options.playwright,
  };
}

describe('finding a Chromium for the browser tests', () => {
  it("takes WALKER_CHROMIUM first, and says so when it names nothing", () => {
    const look = machine({ env: { WALKER_CHROMIUM: '/opt/my/chrome' }, files: ['/opt/my/chrome'], commands: { chromium: '/usr/bin/chromium' } });
    expect(findChromium(look)).toBe('/opt/my/chrome');
    expect(() => findChromium(machine({ env: { WALKER_CHROMIUM: '/nowhere' } }))).toThrow("WALKER_CHROMIUM names '/nowhere', which does not exist.");
  });

  it("takes Debian's chromium, then Google Chrome, from the PATH", () => {
    expect(findChromium(machine({ commands: { chromium: '/usr/bin/chromium', 'google-chrome': '/usr/bin/google-chrome' } }))).toBe('/usr/bin/chromium');
    expect(findChromium(machine({ commands: { 'google-chrome-stable': '/usr/bin/google-chrome-stable' } }))).toBe('/usr/bin/google-chrome-stable');
  });

  it('finds Google Chrome where its installers put it, on Linux and macOS', () => {
    expect(findChromium(machine({ files: ['/opt/google/chrome/chrome'] }))).toBe('/opt/google/chrome/chrome');
    const mac = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(findChromium(machine({ platform: 'darwin', files: [mac] }))).toBe(mac);
  });

  it("takes playwright-core's own build when it is installed", () => {
    const own = '/home/ada/.cache/ms-playwright/chromium-1300/chrome-linux64/chrome';
    expect(findChromium(machine({ playwright: own, files: [own] }))).toBe(own);
    expect(findChromium(machine({ playwright: own }))).toBeUndefined();
  });

  it("finds the newest Chromium build in Playwright's cache, wherever the cache is", () => {
    const cache = '/home/ada/.cache/ms-playwright';
    const older = join(cache, 'chromium-1100', 'chrome-linux', 'chrome');
    const newer = join(cache, 'chromium-1200', 'chrome-linux64', 'chrome');
    expect(findChromium(machine({ files: [older, newer, join(cache, 'firefox-900', 'firefox', 'firefox')] }))).toBe(newer);
    const shell = '/ci/browsers/chromium_headless_shell-1200/chrome-headless-shell-linux64/chrome-headless-shell';
    expect(findChromium(machine({ env: { PLAYWRIGHT_BROWSERS_PATH: '/ci/browsers' }, files: [shell] }))).toBe(shell);
    const mac = '/home/ada/Library/Caches/ms-playwright/chromium-1200/chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing';
    expect(findChromium(machine({ platform: 'darwin', files: [mac] }))).toBe(mac);
  });

  it('finds nothing on a machine without any', () => {
    expect(findChromium(machine({ files: ['/home/ada/.cache/ms-playwright/firefox-900/firefox/firefox'] }))).toBeUndefined();
  });
});
