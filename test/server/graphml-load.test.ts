import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, startService, type Service } from '../cli/online-helpers.js';
import { call, nok, testApp, walkToEnd } from './helpers.js';

const UC01 = readFileSync('test/fixtures/models/graphml/io/UC01.graphml', 'utf8');
const BROKEN = readFileSync('test/fixtures/models/graphml/ours/BrokenGuard.graphml', 'utf8');
const SMALL = readFileSync('test/fixtures/models/graphwalker/SmallModel.json', 'utf8');
const q = (generator: string) => `?generator=${encodeURIComponent(generator)}`;

describe('POST /walker/load with a GraphML body', () => {
  it('recognises GraphML by its content, whatever the Content-Type, and walks it with the generator of the URL', async () => {
    for (const type of [undefined, 'text/plain', 'application/json', 'application/graphml+xml']) {
      const app = await testApp({ seed: 5 });
      const headers: Record<string, string> = type === undefined ? {} : { 'content-type': type };
      const res = await call(app, 'POST', `/walker/load${q('random(edge_coverage(100))')}`, UC01, headers);
      expect(res.body).toEqual({ result: 'ok', seed: 5 });
      const walked = await walkToEnd(app);
      // The first step is the edge leaving the Start vertex; edge coverage needs all 12 edges.
      expect(walked[0]).toBe('e0');
      expect(new Set(walked.filter((id) => id.startsWith('e'))).size).toBe(12);
    }
  });

  it('answers nok when a GraphML body comes without a generator, saying where to give one', async () => {
    const app = await testApp();
    const res = await call(app, 'POST', '/walker/load', UC01);
    expect(res.body).toEqual(
      nok(
        "Model has no generator specified: a graphml model file carries none, so give one with the load (the load's " +
          'generator parameter, e.g. ?generator=random(edge_coverage(100)))',
      ),
    );
    expect((await call(app, 'GET', '/walker/hasNext')).body).toEqual(nok('No model(s) are loaded.'));
  });

  it("lets the generator parameter replace a JSON model's own generator", async () => {
    const app = await testApp({ seed: 1 });
    expect((await call(app, 'POST', `/walker/load${q('random(length(3))')}`, SMALL)).body).toEqual({ result: 'ok', seed: 1 });
    // length(3) ends on the first vertex after three steps: start edge, vertex, edge, vertex.
    expect(await walkToEnd(app)).toHaveLength(4);
  });

  it('refuses a label that does not parse with the element, label and place, and keeps the model it had', async () => {
    const app = await testApp();
    await call(app, 'POST', `/walker/load${q('random(edge_coverage(100))')}`, UC01);
    const res = await call(app, 'POST', `/walker/load${q('random(edge_coverage(100))')}`, BROKEN);
    expect(res.body).toEqual(
      nok(
        "element 'e2', field 'label': the edge label 'e_Back [ready == true' does not parse at column 8: the '[' that " +
          "opens a guard is never closed by ']' (line 104 of the document)",
      ),
    );
    expect((await call(app, 'GET', '/walker/getNext')).body.currentElementName).toBe('e_init');
  });
});

describe('walker online serving a GraphML model over real HTTP', () => {
  let service: Service;
  beforeAll(async () => {
    ensureBuilt();
    service = await startService(['-s', 'RESTFUL', '-p', '0', '--seed', '2', '-m', 'test/fixtures/models/graphml/cli/CorrectModels/simplestModel.graphml', 'random(vertex_coverage(100))']);
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
  });

  it('preloads a -m GraphML file, and loads another one posted with ?generator=', async () => {
    const next = async () => ((await (await fetch(`${service.url}/walker/getNext`)).json()) as { currentElementName: string }).currentElementName;
    expect([await next(), await next()]).toEqual(['e1', 'v1']);
    const loaded = await fetch(`${service.url}/walker/load${q('random(edge_coverage(100))')}`, { method: 'POST', body: UC01 });
    expect(await loaded.json()).toEqual({ result: 'ok', seed: 2 });
    expect(await next()).toBe('e_init');
  });
});
