import type { SessionLoadResult } from '../../core/session.js';
import { exportModelFile } from '../drafts/export.js';
import type { DraftStore } from '../drafts/store.js';
import { apiError } from '../api-error.js';
import type { HostedSession } from './hosted-session.js';
import { LARGE_LOAD_CHARS } from './load-placement.js';

/** What the body of `POST /walker/sessions` asks for. */
export type SessionStart =
  | { readonly kind: 'empty' }
  | { readonly kind: 'model'; readonly text: string }
  | { readonly kind: 'draft'; readonly draft: string; readonly revision?: number };

/**
 * Reads the body of `POST /walker/sessions` (docs/api-sessions.md): nothing or `{}` for an empty session,
 * `{"draft": id, "revision": n}` for a draft's revision, anything else a model file as `load` takes it. A
 * body of {@link LARGE_LOAD_CHARS} or more is a model file without a look: parsed here, it would hold the
 * event loop that its load is kept off (server/sessions/load-placement.ts), and a draft's body is tiny.
 */
export function sessionStartOf(body: string): SessionStart {
  const text = body.trim();
  if (text === '') return { kind: 'empty' };
  if (text.length >= LARGE_LOAD_CHARS) return { kind: 'model', text: body };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON: a model file in another format (GraphML), or broken JSON the loader describes.
    return { kind: 'model', text: body };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'model', text: body };
  const members = Object.keys(value);
  if (members.length === 0) return { kind: 'empty' };
  if (!members.includes('draft')) return { kind: 'model', text: body };
  const { draft, revision } = value as { draft?: unknown; revision?: unknown };
  const others = members.filter((m) => m !== 'draft' && m !== 'revision');
  if (others.length > 0) {
    throw apiError('invalid_session', `A session of a draft takes "draft" and "revision" only; remove ${others.map((m) => `"${m}"`).join(', ')}.`);
  }
  if (typeof draft !== 'string' || draft === '') {
    throw apiError('invalid_session', '"draft" must be the id of a draft, as POST /walker/drafts answered it.');
  }
  if (revision !== undefined && (!Number.isSafeInteger(revision) || (revision as number) < 0)) {
    throw apiError('invalid_session', `"revision" must be a whole number, 0 or more, got ${JSON.stringify(revision)}.`);
  }
  return revision === undefined ? { kind: 'draft', draft } : { kind: 'draft', draft, revision: revision as number };
}

/**
 * Opens the walk a new session starts with. The walk of a draft is made from the draft's model as it is now,
 * so later edits of the draft do not touch it; a draft keeps only its current revision, so an older one is a
 * conflict. A model that does not load throws the loader's WalkerError, which the routes answer 422
 * invalid_model (server/api-error.ts).
 */
export async function startSession(
  session: HostedSession,
  start: SessionStart,
  drafts: DraftStore,
  generator: string | undefined,
): Promise<SessionLoadResult | undefined> {
  if (start.kind === 'empty') return undefined;
  if (start.kind === 'model') return await session.run((walk) => walk.load(start.text, { generator }));
  const draft = drafts.read(start.draft);
  if (start.revision !== undefined && start.revision !== draft.revision) {
    throw apiError(
      'revision_conflict',
      `Draft '${start.draft}' is at revision ${draft.revision}, not ${start.revision}: a draft keeps only its ` +
        'current revision, so walk that one (or leave "revision" out).',
    );
  }
  return await session.loadModel(exportModelFile(draft.model), { generator, source: `draft '${start.draft}' revision ${draft.revision}` });
}
