import type { Awaitable, SessionWalk } from '../../../core/session.js';
import type { EndpointName, EndpointResults } from './endpoints.js';

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

/** Endpoints of walker's own that a dialect may leave out: GraphWalker's REST service has no getModel. */
export type OptionalEndpoint = 'getModel';

/**
 * One wire dialect of the execution endpoints: `/walker` (ours) or `/graphwalker` (GraphWalker 4.3's, for
 * AltWalker and other clients of it). A dialect is an encoding of the one endpoint table, never a copy of the
 * routes: both serve the same session.
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
  /** An endpoint the dialect has no encoding for is not among its routes (its path answers 404). */
  readonly encodings: { readonly [N in Exclude<EndpointName, OptionalEndpoint>]: Encoding<N> } & { readonly [N in OptionalEndpoint]?: Encoding<N> };
}

/** The Content-Type of JSON answers. */
export const JSON_TYPE = 'application/json; charset=utf-8';
