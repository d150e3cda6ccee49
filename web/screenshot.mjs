/**
 * `npm run screenshot`: takes docs/images/view.png, the picture of the web view in the README and
 * docs/view.md, with the real service and the system's Chromium (as the browser tests find it). It starts
 * `walker online` with PetClinic.json's five models, opens the page, walks 150 steps over REST and shoots.
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const executablePath = process.env.WALKER_CHROMIUM || execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
const model = join(root, 'test', 'fixtures', 'models', 'graphwalker', 'PetClinic.json');
const service = spawn(process.execPath, [join(root, 'bin', 'walker.js'), 'online', '-s', 'RESTFUL', '-p', '0', '-m', model, 'random(never)', '--seed', '2026'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const url = await new Promise((resolve, reject) => {
    let out = '';
    service.stdout.on('data', (chunk) => {
      out += chunk;
      const found = /Listening on (\S+)/.exec(out);
      if (found) resolve(found[1]);
    });
    service.once('exit', (code) => reject(new Error(`walker online exited with ${code}`)));
  });
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
  await page.goto(`${url}/`);
  await page.locator('[data-testid=model-graph] [data-element-id]').first().waitFor();
  for (let i = 0; i < 150; i++) await fetch(`${url}/walker/getNext`);
  await page.waitForFunction(() => document.querySelector('[data-testid=step-count]')?.textContent === '150');
  const file = join(root, 'docs', 'images', 'view.png');
  mkdirSync(dirname(file), { recursive: true });
  await page.screenshot({ path: file });
  await browser.close();
  process.stdout.write(`${file}\n`);
} finally {
  service.kill();
}
