import { randomUUID } from 'node:crypto';

/** Letters, digits, `_` and `-`: safe in a URL path and in a load balancer's prefix rule, and never a dot. */
const NODE_ID = /^[A-Za-z0-9_-]{1,40}$/;

/** Throws a RangeError naming `--node-id` unless the id follows {@link NODE_ID}. */
export function checkNodeId(nodeId: string): void {
  if (!NODE_ID.test(nodeId)) {
    throw new RangeError(`nodeId (--node-id) must be 1 to 40 letters, digits, '_' or '-', got '${nodeId}'`);
  }
}

/**
 * Makes the ids of sessions and drafts: a random UUID, so that one client cannot guess another's, after the
 * node id and a dot when the process has one, so that a load balancer routes every request of a session or
 * draft to the process that holds it by a plain prefix rule (docs/scaling.md).
 */
export function idMaker(nodeId: string | undefined): () => string {
  return nodeId === undefined ? randomUUID : () => `${nodeId}.${randomUUID()}`;
}
