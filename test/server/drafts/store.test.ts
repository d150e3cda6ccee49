import { afterEach, describe, expect, it } from 'vitest';
import { Draft } from '../../../server/drafts/draft.js';
import { DraftModel } from '../../../server/drafts/draft-model.js';
import { DraftError } from '../../../server/drafts/errors.js';
import { DraftStore } from '../../../server/drafts/store.js';
import { addVertex } from '../../../server/drafts/vertices.js';
import { call, draftApp, newDraft, type DraftTestApp } from './helpers.js';

const limits = { ttlSeconds: 10, maxDrafts: 10, maxElements: 10 };

describe('Draft.mutate', () => {
  it('moves to the next revision only when the change applied', () => {
    const draft = new Draft('d', new DraftModel('m'), 0);
    draft.mutate(undefined, addVertex({ id: 'a' }, 10));
    expect(() => draft.mutate(undefined, addVertex({ id: 'a' }, 10))).toThrow(DraftError);
    expect(draft.revision).toBe(1);
    expect(draft.model.size).toBe(1);
  });

  it('marks the draft broken when an apply step fails, and the store then answers 500 draft_unavailable', () => {
    const store = new DraftStore({ limits, now: () => 0 });
    const draft = store.create(undefined);
    expect(() =>
      draft.mutate(undefined, () => () => {
        throw new TypeError('bug');
      }),
    ).toThrow('bug');
    expect(draft.revision).toBe(0);
    expect(() => store.get(draft.id)).toThrow(expect.objectContaining({ code: 'draft_unavailable', status: 500 }));
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

  it('moves a used draft to the back, so expiry looks only at the front', () => {
    let now = 0;
    const store = new DraftStore({ limits, now: () => now });
    const a = store.create(undefined);
    const b = store.create(undefined);
    now = 9_000;
    store.get(a.id);
    now = 12_000;
    expect(store.sweep()).toBe(1);
    expect(() => store.get(b.id)).toThrow(expect.objectContaining({ code: 'draft_expired' }));
    expect(store.get(a.id)).toBe(a);
  });
});
