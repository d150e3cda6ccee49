import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadModelFile } from '../../../core/model/load.js';
import { Walker } from '../../../core/walker.js';
import { call, draftApp, newDraft, smallDraft, snapshot, type DraftTestApp } from './helpers.js';

let t: DraftTestApp;
beforeEach(async () => {
  t = await draftApp();
});
afterEach(async () => {
  await t.app.close();
});

async function validate(id: string) {
  const res = await call(t.app, 'GET', `/walker/drafts/${id}/validation`);
  expect(res.status).toBe(200);
  return res.body as { valid: boolean; issues: Array<{ code: string; message: string; severity: string; element_id: string | null }>; revision: number };
}

describe('GET /walker/drafts/{id}/validation', () => {
  it('answers valid with no issues for a walkable draft', async () => {
    const id = await smallDraft(t.app);
    expect(await validate(id)).toEqual({ valid: true, issues: [], revision: 6 });
  });

  it('reports a missing generator and a missing start element of an empty draft', async () => {
    const id = await newDraft(t.app);
    const report = await validate(id);
    expect(report.valid).toBe(false);
    expect(report.issues.map((i) => i.code)).toEqual(['missing_generator', 'no_start_element']);
    for (const issue of report.issues) {
      expect(Object.keys(issue)).toEqual(['code', 'message', 'severity', 'element_id']);
      expect(issue).toMatchObject({ severity: 'error', element_id: null });
    }
    expect(report.issues[0].message).toContain("set 'generator'");
    expect(report.issues[1].message).toContain("set 'start_element_id'");
  });

  it('reports a generator that does not parse, with the column', async () => {
    const id = await smallDraft(t.app);
    await call(t.app, 'PATCH', `/walker/drafts/${id}`, { generator: 'random(edge_coverage(100)' });
    const report = await validate(id);
    expect(report.valid).toBe(false);
    expect(report.issues).toEqual([
      { code: 'invalid_generator', message: expect.stringContaining('column'), severity: 'error', element_id: null },
    ]);
  });

  it('reports unknown generator and condition names as load would', async () => {
    const id = await smallDraft(t.app);
    for (const generator of ['zigzag(edge_coverage(100))', 'random(edge_cover(100))']) {
      await call(t.app, 'PATCH', `/walker/drafts/${id}`, { generator });
      const report = await validate(id);
      expect(report.valid, generator).toBe(false);
      expect(report.issues.map((i) => i.code)).toEqual(['invalid_generator']);
    }
  });

  it('reports a goal that can never be reached', async () => {
    const id = await smallDraft(t.app);
    const base = `/walker/drafts/${id}`;
    await call(t.app, 'POST', `${base}/vertices`, { id: 'island' });
    await call(t.app, 'POST', `${base}/edges`, { id: 'loop', source_vertex_id: 'island', target_vertex_id: 'island' });
    const report = await validate(id);
    expect(report.valid).toBe(false);
    expect(report.issues.map((i) => [i.code, i.severity])).toEqual([
      ['unreachable_goal', 'error'],
      ['unreachable_element', 'warning'],
      ['unreachable_element', 'warning'],
    ]);
    expect(report.issues[0].message).toContain('edge_coverage(100)');
  });

  it('warns about elements unreachable from the start, which does not make the draft invalid', async () => {
    const id = await smallDraft(t.app);
    const base = `/walker/drafts/${id}`;
    await call(t.app, 'POST', `${base}/vertices`, { id: 'island' });
    await call(t.app, 'POST', `${base}/edges`, { id: 'toIsland', source_vertex_id: 'island', target_vertex_id: 'island' });
    await call(t.app, 'PATCH', base, { generator: 'random(length(10))' });
    const report = await validate(id);
    expect(report.valid).toBe(true);
    expect(report.issues.map((i) => [i.code, i.severity, i.element_id])).toEqual([
      ['unreachable_element', 'warning', 'island'],
      ['unreachable_element', 'warning', 'toIsland'],
    ]);
  });

  it('orders errors before warnings, and gives the same list every time', async () => {
    const id = await smallDraft(t.app);
    const base = `/walker/drafts/${id}`;
    await call(t.app, 'POST', `${base}/vertices`, { id: 'island' });
    await call(t.app, 'PATCH', base, { generator: null });
    const first = await validate(id);
    expect(first.issues.map((i) => [i.code, i.severity])).toEqual([
      ['missing_generator', 'error'],
      ['unreachable_element', 'warning'],
    ]);
    expect(await validate(id)).toEqual(first);
  });

  it('reports what the model checks of load report, with the element id', async () => {
    const id = await smallDraft(t.app);
    const base = `/walker/drafts/${id}`;
    await call(t.app, 'PATCH', `${base}/vertices/v1`, { properties: { blocked: true } });
    const report = await validate(id);
    expect(report.valid).toBe(false);
    expect(report.issues[0]).toMatchObject({ code: 'unknown_start_element', severity: 'error' });
  });

  it("judges blocked elements by the service's own --blocked, as its load does", async () => {
    const kept = await draftApp({ blocked: false });
    try {
      const id = await smallDraft(kept.app);
      const base = `/walker/drafts/${id}`;
      await call(kept.app, 'PATCH', `${base}/vertices/v1`, { properties: { blocked: true } });
      const res = await call(kept.app, 'GET', `${base}/validation`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ valid: true, issues: [] });
    } finally {
      await kept.app.close();
    }
  });

  it('reports a failing model action as load would', async () => {
    const id = await smallDraft(t.app);
    await call(t.app, 'PATCH', `/walker/drafts/${id}`, { actions: ['throw new Error("boom");'] });
    const report = await validate(id);
    expect(report.valid).toBe(false);
    expect(report.issues.map((i) => i.code)).toEqual(['script_error']);
    expect(report.issues[0].message).toContain('boom');
  });

  it('reports every guard, action and model action that does not parse, naming model, element, field and position', async () => {
    const id = await smallDraft(t.app);
    const base = `/walker/drafts/${id}`;
    await call(t.app, 'PATCH', base, { actions: ['n = ;'] });
    await call(t.app, 'PATCH', `${base}/vertices/v1`, { actions: ['if (n {}'] });
    await call(t.app, 'PATCH', `${base}/edges/e1`, { guard: 'n <', actions: ['global.n +'] });
    const report = await validate(id);
    expect(report.valid).toBe(false);
    // Columns: the `;` of `n = ;`, the `{` of `if (n {}`, the end of `n <`, the end of `global.n +`.
    const syntax = (where: string, what: string, column: number, message: string) =>
      `model 'small', ${where}: the ${what} does not parse, at line 1, column ${column}: SyntaxError: ${message}`;
    expect(report.issues).toEqual([
      { code: 'script_syntax', severity: 'error', element_id: null, message: syntax("field 'actions[0]'", 'model action', 5, "unexpected token in expression: ';'") },
      { code: 'script_syntax', severity: 'error', element_id: 'v1', message: syntax("vertex 'v1', field 'actions[0]'", 'action', 7, "expecting ')'") },
      { code: 'script_syntax', severity: 'error', element_id: 'e1', message: syntax("edge 'e1', field 'guard'", 'guard', 4, "unexpected token in expression: ''") },
      { code: 'script_syntax', severity: 'error', element_id: 'e1', message: syntax("edge 'e1', field 'actions[0]'", 'action', 11, "unexpected token in expression: ''") },
    ]);
  });

  it('warns of one dead end under a random generator to full coverage, which leaves the draft valid', async () => {
    const id = await smallDraft(t.app);
    const base = `/walker/drafts/${id}`;
    await call(t.app, 'POST', `${base}/vertices`, { id: 'v3', name: 'v_End' });
    await call(t.app, 'POST', `${base}/edges`, { id: 'e3', name: 'e_End', source_vertex_id: 'v2', target_vertex_id: 'v3' });
    const report = await validate(id);
    expect(report.valid).toBe(true);
    expect(report.issues.map((i) => [i.code, i.severity])).toEqual([['dead_end', 'warning']]);
    expect(report.issues[0].message).toContain('The model has one cul-de-sacs, and is requested to run using a random path generator and 100% edge coverage. That might not work. The walk cannot leave v_End (v3)');
  });

  it('never changes the draft', async () => {
    const id = await smallDraft(t.app);
    const before = await snapshot(t.app, id);
    await validate(id);
    await validate(id);
    expect(await snapshot(t.app, id)).toEqual(before);
  });

  it("judges who writes the variables as a session's load does: a goal only guards close is the load's warning, not an error", async () => {
    // AltWalker's data round trip (docs/planning.md, "Who writes the variables"): the model never opens
    // e_Guarded, a client's setData does.
    const id = await newDraft(t.app, { model_id: 'door', name: 'Door', generator: 'random(edge_coverage(100))', actions: ["unlocked = 'no';"] });
    const base = `/walker/drafts/${id}`;
    for (const vertex of ['v_Start', 'v_Door', 'v_Inside']) await call(t.app, 'POST', `${base}/vertices`, { id: vertex, name: vertex });
    await call(t.app, 'POST', `${base}/edges`, { id: 'e_ToDoor', name: 'e_ToDoor', source_vertex_id: 'v_Start', target_vertex_id: 'v_Door' });
    await call(t.app, 'POST', `${base}/edges`, { id: 'e_Guarded', name: 'e_Guarded', source_vertex_id: 'v_Door', target_vertex_id: 'v_Inside', guard: "unlocked == 'yes'" });
    await call(t.app, 'POST', `${base}/edges`, { id: 'e_Leave', name: 'e_Leave', source_vertex_id: 'v_Inside', target_vertex_id: 'v_Start', actions: ["unlocked = 'no';"] });
    expect((await call(t.app, 'PATCH', base, { start_element_id: 'v_Start' })).status).toBe(200);

    const report = await validate(id);
    const exported = (await call(t.app, 'GET', base)).body.model;
    const loaded = await call(t.app, 'POST', '/walker/load', exported);
    expect(loaded.body).toMatchObject({ result: 'ok' });
    const loadWarnings = (loaded.body.warnings as Array<{ code: string; message: string; elementId: string | null }>).map((w) => ({
      code: w.code,
      severity: 'warning',
      message: w.message,
      element_id: w.elementId,
    }));
    expect(loadWarnings.map((w) => w.code)).toContain('goal_needs_data');
    expect({ valid: report.valid, issues: report.issues }).toEqual({ valid: true, issues: loadWarnings });
    expect(report.issues.find((i) => i.code === 'goal_needs_data')?.message).toMatch(/e_Guarded .*a client may write unlocked/s);
  });

  it('agrees with load: a draft that validates loads and opens a walk, one that does not is refused', async () => {
    const walker = new Walker(t.registries);
    const good = await smallDraft(t.app);
    expect((await validate(good)).valid).toBe(true);
    const exported = (await call(t.app, 'GET', `/walker/drafts/${good}`)).body.model;
    walker.walk(loadModelFile(exported), { seed: 1 }).dispose();

    const bad = await smallDraft(t.app);
    await call(t.app, 'PATCH', `/walker/drafts/${bad}`, { generator: 'random(reached_vertex(nowhere))' });
    expect((await validate(bad)).valid).toBe(false);
    const refused = (await call(t.app, 'GET', `/walker/drafts/${bad}`)).body.model;
    expect(() => walker.walk(loadModelFile(refused), { seed: 1 })).toThrow();
  });
});
