import type { IncomingMessage } from 'node:http';
import type { FastifyServerOptions } from 'fastify';

/** A constraint strategy of Fastify's router (find-my-way), as the app's options take it. */
type ConstraintStrategy = NonNullable<NonNullable<FastifyServerOptions['routerOptions']>['constraints']>[string];
type RouteStore = Parameters<ReturnType<ConstraintStrategy['storage']>['set']>[1];

/** The value of the {@link upgradeConstraint} for a request that asks to become a WebSocket. */
export const WEBSOCKET_UPGRADE = 'websocket';

/**
 * A route constraint on `Upgrade: websocket`, so that a WebSocket route and a page share a path (`/`: the
 * page for a browser, GraphWalker's WebSocket service for its clients). It must match when derived: an upgrade
 * to a path without a WebSocket route is not found, rather than answered by that path's HTTP handler (a
 * `getNext` over an upgrade request would step the walk). Requests without it derive nothing, so every other
 * route matches as before.
 */
export const upgradeConstraint: ConstraintStrategy = {
  name: 'upgrade',
  mustMatchWhenDerived: true,
  storage() {
    const routes = new Map<unknown, RouteStore>();
    return {
      get: (value) => routes.get(value) ?? null,
      set: (value, store) => void routes.set(value, store),
    };
  },
  validate: (value) => {
    if (value !== WEBSOCKET_UPGRADE) throw new TypeError(`The upgrade constraint takes '${WEBSOCKET_UPGRADE}' only, got ${String(value)}`);
  },
  // Typed as answering a string, though undefined is how a strategy derives nothing, which the router expects.
  deriveConstraint: derive as ConstraintStrategy['deriveConstraint'],
};

function derive(request: IncomingMessage): string | undefined {
  const upgrade = request.headers.upgrade;
  return upgrade !== undefined && upgrade.toLowerCase() === WEBSOCKET_UPGRADE ? WEBSOCKET_UPGRADE : undefined;
}
