import { describe, expect, it } from 'vitest';
import { call, testApp } from './helpers.js';

/** What the editor's page needs of the service beside the draft API (docs/editor.md). */
describe('the login cookie', () => {
  const token = 's3cr3t-token';

  it('is given for the right token only, HttpOnly and SameSite=Strict, and then stands for the bearer header', async () => {
    const app = await testApp({ token });
    expect((await call(app, 'GET', '/walker/login')).body).toEqual({ required: true, authorized: false });
    const wrong = await call(app, 'POST', '/walker/login', { token: 'guess' });
    expect(wrong).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    expect(wrong.raw.headers['set-cookie']).toBeUndefined();
    const right = await call(app, 'POST', '/walker/login', { token });
    expect(right.status).toBe(204);
    const setCookie = String(right.raw.headers['set-cookie']);
    expect(setCookie).toMatch(/^walker_login=[\w-]+; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(setCookie).not.toContain(token);
    const cookie = setCookie.split(';', 1)[0];
    expect((await call(app, 'GET', '/walker/login', undefined, { cookie })).body).toEqual({ required: true, authorized: true });
    expect((await call(app, 'POST', '/walker/drafts', undefined, { cookie })).status).toBe(201);
    expect((await call(app, 'GET', '/walker/view/session', undefined, { cookie })).status).toBe(200);
    // A forged or stale cookie is no login, and a wrong bearer header is not excused by a right cookie.
    expect((await call(app, 'POST', '/walker/drafts', undefined, { cookie: 'walker_login=forged' })).status).toBe(401);
    expect((await call(app, 'POST', '/walker/drafts', undefined, { cookie, authorization: 'Bearer nope' })).status).toBe(401);
    expect(app.services.drafts.size).toBe(1);
    const out = await call(app, 'DELETE', '/walker/login', undefined, { cookie });
    expect(String(out.raw.headers['set-cookie'])).toMatch(/^walker_login=; Max-Age=0; Path=\/; HttpOnly; SameSite=Strict$/);
  });

  it('leaves the page open to ask for the token, and nothing else', async () => {
    const app = await testApp({ token });
    expect((await app.inject({ method: 'GET', url: '/?edit' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/assets/app.js' })).statusCode).toBe(200);
    for (const url of ['/walker/view/session', '/walker/drafts/x', '/assets/other.js', '/walker/login/x', '/walker/sessions']) {
      expect((await call(app, 'GET', url)).status, url).toBe(401);
    }
  });

  it('keeps the Origin check in front of the login', async () => {
    const app = await testApp({ token });
    const res = await call(app, 'POST', '/walker/login', { token }, { origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    expect(res.raw.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a body that is not {"token": "..."} with 400 invalid_login, and one that is not JSON with 415', async () => {
    const app = await testApp({ token });
    expect(await call(app, 'POST', '/walker/login', { password: token })).toMatchObject({ status: 400, body: { code: 'invalid_login' } });
    const xml = await call(app, 'POST', '/walker/login', '<token/>', { 'content-type': 'application/xml' });
    expect(xml).toMatchObject({ status: 415, body: { code: 'unsupported_media_type', message: expect.stringContaining('{"token": "<the token>"}') } });
  });

  it('answers that no login is needed without a token', async () => {
    const app = await testApp();
    expect((await call(app, 'GET', '/walker/login')).body).toEqual({ required: false, authorized: true });
  });
});

describe('POST /walker/drafts/script-check', () => {
  it('parses guards, actions and generators as load does, with the position of an error', async () => {
    const app = await testApp();
    const check = async (kind: string, source: unknown) => (await call(app, 'POST', '/walker/drafts/script-check', { kind, source })).body;
    expect(await check('guard', 'x > 1 && !y')).toEqual({ valid: true });
    expect(await check('guard', 'x >')).toMatchObject({ valid: false, line: 1, column: expect.any(Number), message: expect.stringContaining('SyntaxError') });
    expect(await check('actions', ['x = 1;', 'y = (;'])).toMatchObject({ valid: false, index: 1, line: 1 });
    expect(await check('actions', ['x = 1;', 'y = 2;'])).toEqual({ valid: true });
    expect(await check('generator', 'random(edge_coverage(100))')).toEqual({ valid: true });
    expect(await check('generator', 'random(edge_coverage(100)')).toMatchObject({ valid: false, line: 1, column: 26 });
    expect(await check('generator', 'randm(edge_coverage(100))')).toMatchObject({ valid: false, column: 1, message: expect.stringContaining("no generator 'randm'") });
    expect(await check('generator', 'random(edge_coverage(100) and nevr)')).toMatchObject({ valid: false, message: expect.stringContaining("no stop condition 'nevr'") });
  });

  it('refuses what is not a check, naming the member', async () => {
    const app = await testApp();
    const res = await call(app, 'POST', '/walker/drafts/script-check', { kind: 'weight', source: '2' });
    expect(res).toMatchObject({ status: 422, body: { code: 'invalid_model' } });
    expect((res.body as { message: string }).message).toContain('kind');
  });
});

describe('POST /walker/drafts/convert', () => {
  const file = {
    models: [
      { id: 'a', name: 'A', generator: 'random(edge_coverage(100))', vertices: [{ id: 'v1', name: 'v_One', sharedState: 'S' }], edges: [{ id: 'e1', name: 'e_In', targetVertexId: 'v1' }] },
      { id: 'b', name: 'B', vertices: [{ id: 'w1', name: 'v_Two', sharedState: 'S' }], edges: [] },
    ],
  };

  it('writes several models as one GraphML file, and reads it back as the same models', async () => {
    const app = await testApp();
    const written = await call(app, 'POST', '/walker/drafts/convert', { text: JSON.stringify(file), format: 'graphml' });
    expect(written.status).toBe(200);
    const text = (written.body as { text: string }).text;
    expect(text).toContain('<graphml');
    const read = await call(app, 'POST', '/walker/drafts/convert', { text, file_name: 'two.graphml' });
    const models = (read.body as { model: { models: Array<{ vertices: Array<{ name: string; sharedState?: string }> }> } }).model.models;
    expect(models.map((m) => m.vertices.map((v) => [v.name, v.sharedState]))).toEqual([[['v_One', 'S']], [['v_Two', 'S']]]);
  });

  it("answers a yEd Start vertex as a load starts it: left out, its one edge the start, without a source", async () => {
    const app = await testApp();
    const node = (id: string, label: string) => `<node id="${id}"><data key="d0"><y:ShapeNode><y:NodeLabel>${label}</y:NodeLabel></y:ShapeNode></data></node>`;
    const text =
      '<?xml version="1.0"?><graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:y="http://www.yworks.com/xml/graphml"><graph id="G" edgedefault="directed">' +
      `${node('n0', 'Start')}${node('n1', 'v_A')}` +
      '<edge id="e0" source="n0" target="n1"><data key="d1"><y:PolyLineEdge><y:EdgeLabel>e_Go</y:EdgeLabel></y:PolyLineEdge></data></edge></graph></graphml>';
    const read = await call(app, 'POST', '/walker/drafts/convert', { text, file_name: 'start.graphml' });
    expect(read.status).toBe(200);
    expect((read.body as { model: unknown }).model).toEqual({
      models: [{ name: 'start', startElementId: 'e0', vertices: [{ id: 'n1', name: 'v_A' }], edges: [{ id: 'e0', name: 'e_Go', targetVertexId: 'n1' }] }],
    });
  });

  it('says what is wrong with a file it cannot read or a format it cannot write', async () => {
    const app = await testApp();
    const broken = await call(app, 'POST', '/walker/drafts/convert', { text: '<graphml', file_name: 'x.graphml' });
    expect(broken).toMatchObject({ status: 422, body: { code: 'invalid_model', message: expect.stringMatching(/^The model file does not read: /) } });
    const format = await call(app, 'POST', '/walker/drafts/convert', { text: JSON.stringify(file), format: 'png' });
    expect(format).toMatchObject({ status: 422, body: { message: expect.stringMatching(/^Member 'format' must be one of /) } });
  });
});

describe('POST /walker/drafts/joint-validation', () => {
  it('judges drafts together, as load judges one file: a model entered through a shared state needs no start', async () => {
    const app = await testApp();
    const make = async (fields: object) => ((await call(app, 'POST', '/walker/drafts', { generator: 'random(edge_coverage(100))', ...fields })).body as { draft_id: string }).draft_id;
    const first = await make({ model_id: 'first' });
    const second = await make({ model_id: 'second' });
    await call(app, 'POST', `/walker/drafts/${first}/vertices`, { id: 'a', shared_state: 'S' });
    await call(app, 'POST', `/walker/drafts/${first}/edges`, { id: 'start', target_vertex_id: 'a' });
    await call(app, 'POST', `/walker/drafts/${second}/vertices`, { id: 'a', shared_state: 'S' });
    await call(app, 'POST', `/walker/drafts/${second}/vertices`, { id: 'b' });
    await call(app, 'POST', `/walker/drafts/${second}/edges`, { id: 'ab', source_vertex_id: 'a', target_vertex_id: 'b' });
    await call(app, 'POST', `/walker/drafts/${second}/edges`, { id: 'ba', source_vertex_id: 'b', target_vertex_id: 'a' });
    const alone = await call(app, 'GET', `/walker/drafts/${second}/validation`);
    expect((alone.body as { issues: Array<{ code: string }> }).issues.map((i) => i.code)).toContain('no_start_element');
    const together = await call(app, 'POST', '/walker/drafts/joint-validation', { draft_ids: [first, second] });
    expect(together.body).toEqual({ valid: true, issues: [], revisions: [2, 4] });
    await call(app, 'PATCH', `/walker/drafts/${second}/edges/ab`, { guard: 'x >' });
    const broken = (await call(app, 'POST', '/walker/drafts/joint-validation', { draft_ids: [first, second] })).body as { valid: boolean; issues: Array<Record<string, unknown>> };
    expect(broken.valid).toBe(false);
    expect(broken.issues[0]).toMatchObject({ code: 'script_syntax', element_id: 'ab', model_id: 'second', severity: 'error' });
    expect((await call(app, 'POST', '/walker/drafts/joint-validation', { draft_ids: [first, 'nope'] })).status).toBe(404);
  });
});
