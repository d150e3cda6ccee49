import type { Awaitable, SessionWalk } from '../../../core/session.js';
import type { Endpoint, EndpointName, EndpointResults } from './endpoints.js';

/** How one dialect answers one endpoint. */
export interface Encoding<N extends EndpointName> {
  /** For the OpenAPI document: what this dialect's answer says. */
  readonly description: string;
  /** The success body's schema (HTTP 200), which Fastify compiles into the route's serialiser. */
  readonly response: object;
  /**
   * Refuses a request before the endpoint runs, by throwing a WalkerError, where this dialect's clients expect
   * a refusal that the other dialect does not make (GraphWalker's `fail` before the first step).
   */
  readonly precondition?: (walk: SessionWalk) => Awaitable<void>;
  /** The answer's body; what getNext reports beside the element the session put in its result already. */
  encode(result: EndpointResults[N]): object;
}

/**
 * One wire dialect of the execution endpoints: `/walker` (ours) or `/graphwalker` (GraphWalker 4.3's, for
 * AltWalker and other clients of it). A dialect is an encoding of the one endpoint table, never a copy of the
 * routes: both serve the same session. It encodes what it answers its own way; the rest answer as their
 * endpoint's `answer` says.
 */
export interface Dialect {
  /** The route family's name. */
  readonly name: string;
  readonly prefix: string;
  /** The OpenAPI tag of its routes, and what the document says of them. */
  readonly tag: string;
  readonly tagDescription: string;
  /** Prefixed to the endpoint names to make operation ids unique across dialects ('' for none). */
  readonly operationPrefix: string;
  /** The Content-Type of every answer, success or failure. */
  readonly contentType: string;
  /** The endpoints it answers its own way. */
  readonly encodings: { readonly [N in EndpointName]?: Encoding<N> };
  /** Endpoints it does not serve: their paths answer 404 (GraphWalker's REST service has no getModel). */
  readonly leavesOut?: readonly EndpointName[];
}

/**
 * How `dialect` answers `endpoint`: its own encoding, else the endpoint's shared answer; undefined for an
 * endpoint it leaves out. Throws for one it has no answer for at all, a mistake in the code that no request
 * should meet, so the family refuses to start.
 */
export function encodingOf<N extends EndpointName>(dialect: Dialect, endpoint: Endpoint<N>): Encoding<N> | undefined {
  if (dialect.leavesOut?.includes(endpoint.name) === true) return undefined;
  const encoding = (dialect.encodings[endpoint.name] as Encoding<N> | undefined) ?? endpoint.answer;
  if (encoding === undefined) {
    throw new Error(
      `The ${dialect.name} dialect has no answer for the endpoint ${endpoint.name}: encode it in the dialect, give ` +
        'the endpoint an answer every dialect shares (server/routes/execution/endpoints.ts), or list it in leavesOut.',
    );
  }
  return encoding;
}

/** The Content-Type of JSON answers. */
export const JSON_TYPE = 'application/json; charset=utf-8';
