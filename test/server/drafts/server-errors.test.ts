import { afterEach, describe, expect, it } from 'vitest';
import type { PathGeneratorFactory } from '../../../core/generator.js';
import type { WalkerPlugin } from '../../../core/plugin.js';
import { call, draftApp, smallDraft, type DraftTestApp } from './helpers.js';

/** A generator with a bug: making it throws a TypeError, not a WalkerError. */
const broken: WalkerPlugin = {
  meta: { name: 'broken-generator', version: '0' },
  setup(registries) {
    const factory: PathGeneratorFactory = {
      name: 'explode' as PathGeneratorFactory['name'],
      create: () => {
        throw new TypeError('cannot read properties of undefined');
      },
    };
    registries.generators.register(factory);
  },
};

let t: DraftTestApp;
afterEach(async () => {
  await t.app.close();
});

describe('server failures', () => {
  it('answer 500 internal with {code, message}, without the internals', async () => {
    t = await draftApp({ plugins: [broken] });
    const id = await smallDraft(t.app);
    await call(t.app, 'PATCH', `/walker/drafts/${id}`, { generator: 'explode(edge_coverage(100))' });
    const res = await call(t.app, 'GET', `/walker/drafts/${id}/validation`);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ code: 'internal', message: 'The server failed to handle the request; it is logged.' });
  });

  it('answer 500 draft_unavailable for a draft an internal error left half changed', async () => {
    t = await draftApp();
    const id = await smallDraft(t.app);
    t.store.read(id).broken = true;
    for (const [method, url] of [
      ['GET', `/walker/drafts/${id}`],
      ['POST', `/walker/drafts/${id}/vertices`],
    ] as const) {
      const res = await call(t.app, method, url);
      expect(res.status).toBe(500);
      expect(res.body.code).toBe('draft_unavailable');
      expect(res.body.message).toContain('Create a new draft');
    }
  });
});
