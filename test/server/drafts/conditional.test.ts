import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, draftApp, newDraft, smallDraft, snapshot, type DraftTestApp } from './helpers.js';

let t: DraftTestApp;
let id: string;
let base: string;
beforeEach(async () => {
  t = await draftApp();
  id = await smallDraft(t.app);
  base = `/walker/drafts/${id}`;
});
afterEach(async () => {
  await t.app.close();
});

describe('ETag', () => {
  it('is the revision, on every answer that shows one', async () => {
    const created = await call(t.app, 'POST', '/walker/drafts');
    expect(created.headers.etag).toBe('"0"');
    const answers = [
      await call(t.app, 'PATCH', base, { name: 'x' }),
      await call(t.app, 'POST', `${base}/vertices`, { id: 'v3' }),
      await call(t.app, 'PATCH', `${base}/vertices/v3`, { name: 'x' }),
      await call(t.app, 'POST', `${base}/edges`, { id: 'e3', target_vertex_id: 'v3' }),
      await call(t.app, 'PATCH', `${base}/edges/e3`, { name: 'x' }),
      await call(t.app, 'DELETE', `${base}/elements/e3`),
      await call(t.app, 'GET', base),
      await call(t.app, 'GET', `${base}/validation`),
      await call(t.app, 'HEAD', base),
    ];
    expect(answers.map((a) => a.headers.etag)).toEqual(['"7"', '"8"', '"9"', '"10"', '"11"', '"12"', '"12"', '"12"', '"12"']);
    for (const answer of answers.slice(0, -1)) expect(answer.headers.etag).toBe(`"${answer.body.revision}"`);
  });

  it('is absent from failures and from the answer to a discard, which shows no revision', async () => {
    expect((await call(t.app, 'PATCH', base, { name: 'x', expected_revision: 0 })).headers.etag).toBeUndefined();
    expect((await call(t.app, 'DELETE', base)).headers.etag).toBeUndefined();
  });
});

describe('If-Match', () => {
  it('lets a change through when it names the current revision, or is *', async () => {
    const values = [(r: number) => `"${r}"`, (r: number) => `"2", "${r}"`, (r: number) => ` W/"1" ,"${r}" `, () => '*'];
    for (const [i, value] of values.entries()) {
      const patch = await call(t.app, 'PATCH', base, { name: `n${i}` }, { 'if-match': value(6 + i) });
      expect(patch.status, value(6 + i)).toBe(200);
    }
  });

  it('answers 412 precondition_failed with {code, message} otherwise, and changes nothing', async () => {
    const before = await snapshot(t.app, id);
    const cases: Array<[string, string, object | undefined, string, string]> = [
      ['PATCH', base, { name: 'x' }, '"5"', `If-Match '"5"' does not name`],
      ['POST', `${base}/vertices`, {}, 'W/"6"', 'weak ETags never match If-Match'],
      ['PATCH', `${base}/vertices/v1`, { name: 'x' }, '6', 'not a list of quoted ETags such as "8"'],
      ['POST', `${base}/edges`, { target_vertex_id: 'v1' }, '"6" "7"', 'not a list of quoted ETags'],
      ['PATCH', `${base}/edges/e1`, { name: 'x' }, '', 'not a list of quoted ETags'],
      ['DELETE', `${base}/elements/e2`, undefined, '"0"', 'retry with If-Match: "6"'],
      ['DELETE', base, undefined, '"7"', `GET /walker/drafts/${id}`],
    ];
    for (const [method, url, body, ifMatch, message] of cases) {
      const res = await call(t.app, method as 'POST', url, body, { 'if-match': ifMatch });
      expect(res.status, `${method} ${url} If-Match ${ifMatch}`).toBe(412);
      expect(Object.keys(res.body)).toEqual(['code', 'message']);
      expect(res.body.code).toBe('precondition_failed');
      expect(res.body.message).toContain(message);
    }
    expect(await snapshot(t.app, id)).toEqual(before);
  });

  it('and expected_revision are one rule: both must hold, If-Match is checked first', async () => {
    const stale = await call(t.app, 'PATCH', base, { name: 'x', expected_revision: 6 }, { 'if-match': '"5"' });
    expect(stale.status).toBe(412);
    const conflict = await call(t.app, 'PATCH', base, { name: 'x', expected_revision: 5 }, { 'if-match': '"6"' });
    expect(conflict).toMatchObject({ status: 409, body: { code: 'revision_conflict' } });
    const query = await call(t.app, 'DELETE', `${base}/elements/e2?expected_revision=6`, undefined, { 'if-match': '"6"' });
    expect(query.status).toBe(200);
  });

  it('guards discarding a draft', async () => {
    expect((await call(t.app, 'DELETE', base, undefined, { 'if-match': '"6"' })).body).toEqual({ discarded: true });
    expect((await call(t.app, 'GET', base)).status).toBe(404);
  });

  it('lets exactly one of many concurrent changes with the same ETag through', async () => {
    const draft = await newDraft(t.app);
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        call(t.app, 'POST', `/walker/drafts/${draft}/vertices`, { id: `v${i}` }, { 'if-match': '"0"' }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 412)).toHaveLength(24);
  });
});

describe('If-None-Match', () => {
  it('answers 304 with the ETag and no body while the draft is at that revision', async () => {
    for (const url of [base, `${base}/validation`]) {
      for (const value of ['"6"', 'W/"6"', '"1", "6"', '*']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': value } });
        expect(res.statusCode, `${url} ${value}`).toBe(304);
        expect(res.headers.etag).toBe('"6"');
        expect(res.body).toBe('');
      }
    }
  });

  it('answers in full once the draft has changed, or for a value that does not parse', async () => {
    await call(t.app, 'PATCH', base, { name: 'x' });
    for (const value of ['"6"', '6', '']) {
      const res = await call(t.app, 'GET', base, undefined, { 'if-none-match': value });
      expect(res).toMatchObject({ status: 200, body: { revision: 7 }, headers: { etag: '"7"' } });
    }
  });
});

describe('the OpenAPI document', () => {
  it('describes the ETag, If-Match, If-None-Match, 304 and 412', async () => {
    const doc = (await call(t.app, 'GET', '/openapi.json')).body;
    const drafts = doc.paths['/walker/drafts/{draft_id}'];
    const headerNames = (op: { parameters: Array<{ in: string; name: string }> }) =>
      op.parameters.filter((p) => p.in === 'header').map((p) => p.name);
    expect(headerNames(drafts.patch)).toEqual(['if-match']);
    expect(headerNames(drafts.delete)).toEqual(['if-match']);
    expect(headerNames(drafts.get)).toEqual(['if-none-match']);
    expect(drafts.get.responses['304']).toMatchObject({ headers: { ETag: { schema: { type: 'string' } } } });
    expect(drafts.get.responses['304'].content).toBeUndefined();
    expect(drafts.patch.responses['200'].headers.ETag).toBeDefined();
    expect(drafts.patch.responses['412'].content['application/json'].schema.properties.code.enum).toEqual([
      'precondition_failed',
    ]);
    const changes = Object.entries(doc.paths as Record<string, Record<string, { operationId: string; responses: object }>>)
      .filter(([path]) => path.startsWith('/walker/drafts/'))
      .flatMap(([, ops]) => Object.entries(ops).filter(([method]) => method !== 'get'))
      // The editor's POSTs read and change nothing (docs/editor.md): no revision to match.
      .filter(([, op]) => !['checkScript', 'convertModel', 'validateDrafts'].includes(op.operationId));
    expect(changes).toHaveLength(7);
    for (const [, op] of changes) expect(Object.keys(op.responses), op.operationId).toContain('412');
  });
});
