/**
 * `npm run screenshot`: takes docs/images/view.png, the picture of the web view in the README and
 * docs/view.md, and docs/images/editor.png, the editor's in docs/editor.md, with the real service and the
 * system's Chromium (as the browser tests find it). It starts `walker online` with PetClinic.json's five
 * models, opens the page, walks 150 steps over REST and shoots; then builds two drafts over REST, linked by a
 * shared state, opens them in the editor, selects an edge and shoots. `-- editor` (or `view`) takes one only.
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
  const only = process.argv[2];
  if (only !== 'editor') await shootView(browser, url);
  if (only !== 'view') await shootEditor(browser, url);
  await browser.close();
} finally {
  service.kill();
}

async function shootView(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
  await page.goto(`${url}/`);
  await page.locator('[data-testid=model-graph] [data-element-id]').first().waitFor();
  for (let i = 0; i < 150; i++) await fetch(`${url}/walker/getNext`);
  await page.waitForFunction(() => document.querySelector('[data-testid=step-count]')?.textContent === '150');
  await save(page, 'view.png');
}

/** Two small drafts of a login, the second entered through the first's shared state, in the editor. */
async function shootEditor(browser, url) {
  const post = async (path, body, method = 'POST') =>
    (await fetch(`${url}/walker/drafts${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
  const login = (await post('', { model_id: 'login', name: 'Login', generator: 'random(edge_coverage(100))', actions: ['loggedIn = false;'] })).draft_id;
  const vertices = [['prompt', 'v_LoginPrompted', 40, 60], ['home', 'v_Home', 320, 60, 'HOME'], ['error', 'v_Error', 180, 220]];
  for (const [id, name, x, y, shared] of vertices) await post(`/${login}/vertices`, { id, name, properties: { x, y }, ...(shared ? { shared_state: shared } : {}) });
  await post(`/${login}/edges`, { id: 'start', name: 'e_Start', target_vertex_id: 'prompt' });
  await post(`/${login}/edges`, { id: 'valid', name: 'e_ValidLogin', source_vertex_id: 'prompt', target_vertex_id: 'home', guard: '!loggedIn', actions: ['loggedIn = true;'], weight: 0.8 });
  await post(`/${login}/edges`, { id: 'invalid', name: 'e_InvalidLogin', source_vertex_id: 'prompt', target_vertex_id: 'error' });
  await post(`/${login}/edges`, { id: 'retry', name: 'e_Retry', source_vertex_id: 'error', target_vertex_id: 'prompt' });
  await post(`/${login}/edges`, { id: 'logout', name: 'e_Logout', source_vertex_id: 'home', target_vertex_id: 'prompt', actions: ['loggedIn = false;'] });
  const shop = (await post('', { model_id: 'shop', name: 'Shop', generator: 'random(edge_coverage(100))' })).draft_id;
  await post(`/${shop}/vertices`, { id: 'home', name: 'v_Home', shared_state: 'HOME', properties: { x: 40, y: 60 } });
  await post(`/${shop}/vertices`, { id: 'cart', name: 'v_Cart', properties: { x: 40, y: 220 } });
  await post(`/${shop}/edges`, { id: 'add', name: 'e_AddToCart', source_vertex_id: 'home', target_vertex_id: 'cart' });
  await post(`/${shop}/edges`, { id: 'back', name: 'e_Back', source_vertex_id: 'cart', target_vertex_id: 'home' });
  const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
  await page.goto(`${url}/?draft=${login}&draft=${shop}&edit`);
  await page.locator('[data-testid=model-graph] [data-element-id="valid"]').waitFor();
  await page.locator('[data-testid=draft-valid][data-valid=true]').waitFor();
  await page.locator('[data-testid=model-graph] [data-element-id="valid"] path.hit').click({ force: true });
  await page.getByTestId('field-guard').waitFor();
  await save(page, 'editor.png');
}

async function save(page, name) {
  const file = join(root, 'docs', 'images', name);
  mkdirSync(dirname(file), { recursive: true });
  await page.screenshot({ path: file });
  await page.close();
  process.stdout.write(`${file}\n`);
}
