import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { isApiError } from '../../api-error.js';
import type { HostedSession } from '../../sessions/hosted-session.js';
import { DraftWatch } from '../../view/draft-watch.js';
import { draftMessage } from '../../view/draft-view.js';
import type { EventStream } from '../../view/event-stream.js';
import { eventFrame, jsonOf, type JsonParts } from '../../view/frame.js';
import type { DraftMessage } from '../../view/messages.js';
import { WalkWatch } from '../../view/walk-watch.js';

/** What a stream follows, once found: what the caps count it under, and what starts sending to it. */
export interface Followed {
  /** As a message names it: `default session`, `session '<id>'`, `draft '<id>'`. */
  readonly source: string;
  /** Sends messages to `stream` until it closes, the first as things stand then. */
  start(stream: EventStream): void;
}

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
  readonly params?: TSchema;
  /**
   * The message as it stands now, whole, as JSON (a large graph in it is the one its streams share). Throws an
   * API error (server/api-error.ts) for a session or draft that is not there.
   */
  read(scope: FastifyInstance, request: FastifyRequest): Promise<JsonParts>;
  /** Finds what the request names, throwing like {@link read} for a session or draft that is not there. */
  follow(scope: FastifyInstance, request: FastifyRequest): Followed;
}

const SESSION_PARAMS = Type.Object({ session_id: Type.String() });
const DRAFT_PARAMS = Type.Object({ draft_id: Type.String() });

const defaultSession: ViewEndpoint = {
  name: 'Session',
  url: '/session',
  summary: 'The walk of the default session (/walker, /graphwalker)',
  read: (scope) => readWalk(scope, scope.services.session),
  follow: (scope) => followWalk(scope, scope.services.session, 'default session'),
};

const namedSession: ViewEndpoint = {
  name: 'SessionById',
  url: '/sessions/:session_id',
  summary: 'The walk of a session of /walker/sessions; reading it renews nothing',
  params: SESSION_PARAMS,
  read: (scope, request) => readWalk(scope, scope.services.sessions.read(sessionId(request))),
  follow: (scope, request) => {
    const session = scope.services.sessions.read(sessionId(request));
    return followWalk(scope, session, `session '${session.id}'`);
  },
};

const draft: ViewEndpoint = {
  name: 'Draft',
  url: '/drafts/:draft_id',
  summary: "A draft's graph and its validation; reading it renews nothing",
  params: DRAFT_PARAMS,
  read: async (scope, request) => jsonOf(await draftNow(scope, draftId(request))),
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

function readWalk(scope: FastifyInstance, session: HostedSession): Promise<JsonParts> {
  return watchOf(scope, session).message();
}

/** Follows a walk: every stream of a session reads the publications of its one watch. */
function followWalk(scope: FastifyInstance, session: HostedSession, source: string): Followed {
  return {
    source,
    start: (stream) => stream.onClose(watchOf(scope, session).listen(stream)),
  };
}

async function draftNow(scope: FastifyInstance, id: string): Promise<DraftMessage> {
  const { drafts, walker, options } = scope.services;
  // Validated as GET /walker/drafts/{id}/validation validates it, the draft read once reserved.
  return walker.reserved((reservation) => draftMessage(drafts.read(id), walker, options.walk, reservation));
}

/** Follows a draft: every stream of a draft reads the publications of its one watch. */
function followDraft(scope: FastifyInstance, request: FastifyRequest): Followed {
  const id = draftId(request);
  scope.services.drafts.read(id);
  return {
    source: `draft '${id}'`,
    start: (stream) => {
      let watch: DraftWatch;
      try {
        watch = DraftWatch.of(scope.services.drafts, id, () => draftNow(scope, id), logError(scope));
      } catch (error) {
        // Gone between the check and the stream's opening.
        if (!isApiError(error)) throw error;
        stream.send(eventFrame(jsonOf({ kind: 'gone', code: error.code, message: error.message })));
        stream.end();
        return;
      }
      stream.onClose(watch.listen(stream));
    },
  };
}
