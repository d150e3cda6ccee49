import type { ExecutionSession } from '../../../core/session.js';
import type { StepReportOptions } from '../../../core/machine/step-report.js';
import type { EndpointName, EndpointResults } from './endpoints.js';

/** What an encoder may read beside the endpoint's result. */
export interface EncodeContext {
  readonly session: ExecutionSession;
  /** What getNext reports beside the element, for the server's life (`--verbose`, `--unvisited`). */
  readonly report: StepReportOptions;
}

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
  readonly precondition?: (session: ExecutionSession) => void;
  encode(result: EndpointResults[N], context: EncodeContext): object;
}

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
  readonly encodings: { readonly [N in EndpointName]: Encoding<N> };
}

/** The Content-Type of JSON answers. */
export const JSON_TYPE = 'application/json; charset=utf-8';
