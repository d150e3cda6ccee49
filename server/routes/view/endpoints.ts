import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../api-error.js';
import type { HostedSession } from '../../sessions/hosted-session.js';
import { Coalescer } from '../../view/coalescer.js';
import { draftMessage } from '../../view/draft-view.js';
import type { EventStream } from '../../view/event-stream.js';
import type { ViewMessage } from '../../view/messages.js';
import { walkMessage, type SentWalk } from '../../view/walk-message.js';
import { WalkWatch } from '../../view/walk-watch.js';

/**
 * One thing the view shows, and the two ways to get it: `GET <url>`, the message as it stands, and
 * `GET <url>/events`, a stream of messages from that one on. The page, its streams and the report read the
 * same messages (server/view/messages.ts).
 */
export interface ViewEndpoint {
  readonly name: string;
  /** Relative to the family's prefix. */
  readonly url: string;
  readonly summary: string;
  /** What `url`'s parameters are, as a JSON Schema. */
  readonly params?: object;
  /** The message as it stands now, whole. Throws an {@link ApiError} for a session or draft that is not there. */
  read(scope: FastifyInstance, request: FastifyRequest): Promise<ViewMessage>;
  /**
   * Finds what the request names — throwing like {@link read} for a session or draft that is not there — and
   * answers what sends messages to a stream until it closes, the first as things stand then.
   */
  follow(scope: FastifyInstance, request: FastifyRequest): (stream: EventStream) => void;
}

const SESSION_PARAMS = { type: 'object', required: ['session_id'], properties: { session_id: { type: 'string' } } };
const DRAFT_PARAMS = { type: 'object', required: ['draft_id'], properties: { draft_id: { type: 'string' } } };

const defaultSession: ViewEndpoint = {
  name: 'Session',
  url: '/session',
  summary: 'The walk of the default session (/walker, /graphwalker)',
  read: (scope) => readWalk(scope, scope.services.session),
  follow: (scope) => followWalk(scope, scope.services.session),
};

const namedSession: ViewEndpoint = {
  name: 'SessionById',
  url: '/sessions/:session_id',
  summary: 'The walk of a session of /walker/sessions; reading it renews nothing',
  params: SESSION_PARAMS,
  read: (scope, request) => readWalk(scope, scope.services.sessions.read(sessionId(request))),
  follow: (scope, request) => followWalk(scope, scope.services.sessions.read(sessionId(request))),
};

const draft: ViewEndpoint = {
  name: 'Draft',
  url: '/drafts/:draft_id',
  summary: "A draft's graph and its validation; reading it renews nothing",
  params: DRAFT_PARAMS,
  read: async (scope, request) => draftNow(scope, draftId(request)),
  follow: followDraft,
};

/** Every endpoint of the view (docs/view.md), in the order the document lists them. */
export const VIEW_ENDPOINTS: readonly ViewEndpoint[] = [defaultSession, namedSession, draft];

function sessionId(request: FastifyRequest): string {
  return (request.params as { session_id: string }).session_id;
}

function draftId(request: FastifyRequest): string {
  return (request.params as { draft_id: string }).draft_id;
}

function watchOf(scope: FastifyInstance, session: HostedSession): WalkWatch {
  return WalkWatch.of(session, session.id, logError(scope));
}

/** What a push that failed for no reason of the reader's goes to: the log. */
function logError(scope: FastifyInstance): (error: unknown) => void {
  return (error) => scope.log.error({ err: error }, 'the view could not read what it shows');
}

async function readWalk(scope: FastifyInstance, session: HostedSession): Promise<ViewMessage> {
  return walkMessage(await watchOf(scope, session).snapshot());
}

/**
 * Follows a walk: each snapshot the session's watch reads becomes a message with what changed since the
 * stream's last one. A stream whose reader lags is skipped until it drains, then caught up.
 */
function followWalk(scope: FastifyInstance, session: HostedSession): (stream: EventStream) => void {
  return (stream) => followWalkOn(watchOf(scope, session), stream);
}

function followWalkOn(watch: WalkWatch, stream: EventStream): void {
  let sent: SentWalk | undefined;
  let waiting = false;
  const stop = watch.listen((update) => {
    if ('kind' in update) {
      stream.send(update);
      stream.end();
      return;
    }
    if (!stream.ready) {
      if (!waiting && stream.open) stream.onDrain(() => ((waiting = false), watch.changed()));
      waiting = true;
      return;
    }
    stream.send(walkMessage(update, sent));
    sent = { load: update.load, visits: update.progress?.visits ?? new Uint32Array(0) };
  });
  stream.onClose(stop);
}

async function draftNow(scope: FastifyInstance, id: string): Promise<ViewMessage> {
  const { drafts, walker, options } = scope.services;
  // Validated as GET /walker/drafts/{id}/validation validates it, the draft read once reserved.
  return walker.reserved((reservation) => draftMessage(drafts.read(id), walker, { scriptLimits: options.scriptLimits }, reservation));
}

/** Follows a draft: after changes, at most twenty times a second, its graph and validation as they are then. */
function followDraft(scope: FastifyInstance, request: FastifyRequest): (stream: EventStream) => void {
  const id = draftId(request);
  scope.services.drafts.read(id);
  return (stream) => followDraftOn(scope, id, stream);
}

function followDraftOn(scope: FastifyInstance, id: string, stream: EventStream): void {
  const coalescer = new Coalescer(async () => {
    if (!stream.ready) {
      if (stream.open) stream.onDrain(() => coalescer.changed());
      return;
    }
    let message: ViewMessage;
    try {
      message = await draftNow(scope, id);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      stream.send({ kind: 'gone', code: error.code, message: error.message });
      stream.end();
      return;
    }
    stream.send(message);
  }, logError(scope));
  const stop = scope.services.drafts.watch(id, () => coalescer.changed());
  stream.onClose(() => {
    stop();
    coalescer.stop();
  });
  coalescer.changed();
}
