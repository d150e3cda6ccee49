import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call, load, nok, testApp, walkToEnd } from './helpers.js';

/** What POST /walker/load accepts of GraphWalker's start conventions, and the scripts it refuses to load. */

const peer = (name: string) => readFileSync(new URL(`../fixtures/models/graphwalker/peer/${name}`, import.meta.url), 'utf8');

describe("POST /walker/load of GraphWalker's Java test models", () => {
  it("loads Login, whose start edge names the vertex 'Start' that does not exist, and walks it to full edge coverage", async () => {
    const app = await testApp();
    expect((await load(app, peer('java-Login.json'))).body).toMatchObject({ result: 'ok' });
    const ids = await walkToEnd(app);
    // e0 has no source: it starts the walk and never comes again.
    expect(ids[0]).toBe('e0');
    expect(ids.filter((id) => id === 'e0')).toHaveLength(1);
    const stats = (await call(app, 'GET', '/walker/getStatistics')).body;
    expect(stats).toMatchObject({ edgeCoverage: 100, totalNumberOfEdges: 9, totalNumberOfVertices: 3 });
  });

  it('loads SimpleModel and walks it from its start vertex', async () => {
    const app = await testApp();
    expect((await load(app, peer('java-SimpleModel.json'))).body).toMatchObject({ result: 'ok' });
    expect(await walkToEnd(app)).toEqual(['v1', 'e1', 'v2']);
  });
});

describe('POST /walker/load of a model that names no start element', () => {
  it("starts on the out-edge of its 'Start' vertex, which it leaves out of the walk and of the statistics", async () => {
    const app = await testApp();
    const model = {
      models: [
        {
          id: 'M',
          generator: 'random(vertex_coverage(100))',
          vertices: [{ id: 's', name: 'Start' }, { id: 'a', name: 'v_A' }],
          edges: [
            { id: 'go', name: 'e_Go', sourceVertexId: 's', targetVertexId: 'a' },
            { id: 'stay', name: 'e_Stay', sourceVertexId: 'a', targetVertexId: 'a' },
          ],
        },
      ],
    };
    expect((await load(app, model)).body).toMatchObject({ result: 'ok' });
    // 100 % vertex coverage is v_A alone, reached by the second step.
    expect(await walkToEnd(app)).toEqual(['go', 'a']);
    expect((await call(app, 'GET', '/walker/getStatistics')).body).toMatchObject({ totalNumberOfVertices: 1, vertexCoverage: 100 });
  });
});

describe('POST /walker/load of scripts that do not parse', () => {
  /** A model whose scripts are valid but for the one given. */
  function login(change: { model?: string; guard?: string; action?: string }) {
    return {
      models: [
        {
          id: 'login',
          generator: 'random(edge_coverage(100))',
          startElementId: 'e0',
          actions: [change.model ?? 'tries = 0;'],
          vertices: [{ id: 'n1', name: 'v_Prompt' }, { id: 'n2', name: 'v_Browse' }],
          edges: [
            { id: 'e0', name: 'e_Start', targetVertexId: 'n1' },
            { id: 'e1', name: 'e_Login', sourceVertexId: 'n1', targetVertexId: 'n2', guard: change.guard ?? 'tries < 3', actions: [change.action ?? 'tries++;'] },
            { id: 'e2', name: 'e_Logout', sourceVertexId: 'n2', targetVertexId: 'n1' },
          ],
        },
      ],
    };
  }

  it('refuses each, naming model, element, field, line and column, and keeps the walk it had', async () => {
    const app = await testApp();
    expect((await load(app, login({}))).body).toMatchObject({ result: 'ok' });
    expect((await call(app, 'GET', '/walker/getNext')).body).toMatchObject({ currentElementID: 'e0' });
    const refusals: Array<[Parameters<typeof login>[0], string]> = [
      [{ model: 'tries = ;' }, "model 'login', field 'actions[0]': the model action does not parse, at line 1, column 9: SyntaxError: unexpected token in expression: ';'"],
      [{ guard: 'tries <' }, "model 'login', edge 'e1', field 'guard': the guard does not parse, at line 1, column 8: SyntaxError: unexpected token in expression: ''"],
      [{ action: 'global.tries + ;' }, "model 'login', edge 'e1', field 'actions[0]': the action does not parse, at line 1, column 16: SyntaxError: unexpected token in expression: ';'"],
    ];
    for (const [change, message] of refusals) expect((await load(app, login(change))).body).toEqual(nok(message));
    // The first walk goes on where it was.
    expect((await call(app, 'GET', '/walker/getNext')).body).toMatchObject({ currentElementID: 'n1' });
  });
});
