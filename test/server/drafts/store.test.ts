import { afterEach, describe, expect, it } from 'vitest';
import { Draft } from '../../../server/drafts/draft.js';
import { DraftModel } from '../../../server/drafts/draft-model.js';
import { DraftStore } from '../../../server/drafts/store.js';
import { addVertex } from '../../../server/drafts/vertices.js';
import { call, draftApp, newDraft, type DraftTestApp } from './helpers.js';

const limits = { ttlSeconds: 10, maxDrafts: 10, maxElements: 10, maxMemoryBytes: 1024 * 1024 };

describe('Draft.mutate', () => {
  it('moves to the next revision only when the change applied', () => {
    const draft = new Draft('d', new DraftModel('m'), 0);
    draft.mutate(undefined, addVertex({ id: 'a' }, 10));
    expect(() => draft.mutate(undefined, addVertex({ id: 'a' }, 10))).toThrow(expect.objectContaining({ code: 'duplicate_element_id', status: 409 }));
    expect(draft.revision).toBe(1);
    expect(draft.model.size).toBe(1);
  });

  it('marks the draft broken when a commit fails, and the store then answers 500 draft_unavailable', () => {
    const store = new DraftStore({ limits, now: () => 0 });
    const draft = store.create();
    const bytes = store.usedBytes;
    const failing = () => ({
      growth: 100,
      commit: () => {
        throw new TypeError('bug');
      },
    });
    expect(() => draft.mutate(undefined, failing)).toThrow('bug');
    expect(draft.revision).toBe(0);
    expect(store.usedBytes).toBe(bytes);
    expect(() => store.read(draft.id)).toThrow(expect.objectContaining({ code: 'draft_unavailable', status: 500 }));
    store.discard(draft.id);
    expect(store.usedBytes).toBe(0);
  });

  it('leaves the draft as it was when planning fails, however far the plan got', () => {
    const draft = new Draft('d', new DraftModel('m'), 0);
    const planned = (model: DraftModel) => {
      addVertex({ properties: { x: 1 } }, 10)(model);
      throw new RangeError('failed after building the vertex');
    };
    expect(() => draft.mutate(undefined, planned)).toThrow(RangeError);
    expect(draft.revision).toBe(0);
    expect(draft.model.size).toBe(0);
    draft.mutate(undefined, addVertex({}, 10));
    expect([...draft.model.vertices.keys()]).toEqual(['v1']);
  });
});

describe('the draft store', () => {
  let apps: DraftTestApp[] = [];
  afterEach(async () => {
    await Promise.all(apps.map((a) => a.app.close()));
    apps = [];
  });

  it('belongs to one app: another app knows none of its drafts', async () => {
    apps = [await draftApp(), await draftApp()];
    const id = await newDraft(apps[0].app);
    expect((await call(apps[1].app, 'GET', `/walker/drafts/${id}`)).status).toBe(404);
    expect(apps[0].store).not.toBe(apps[1].store);
  });

  it('drops every draft when its app closes', async () => {
    const t = await draftApp();
    await newDraft(t.app);
    await t.app.close();
    expect(t.store.size).toBe(0);
  });

  it('moves a changed draft to the back, so expiry looks only at the front', () => {
    let now = 0;
    const store = new DraftStore({ limits, now: () => now });
    const a = store.create();
    const b = store.create();
    now = 9_000;
    store.change(a.id, {}, addVertex({}, 10));
    store.read(b.id);
    now = 12_000;
    expect(store.sweep()).toBe(1);
    expect(() => store.read(b.id)).toThrow(expect.objectContaining({ code: 'draft_expired' }));
    expect(store.read(a.id)).toBe(a);
  });
});
