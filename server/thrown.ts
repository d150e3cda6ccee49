import type { FastifyInstance, RouteOptions } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { shorten } from '../core/text.js';

/** Longest excerpt of a thrown value that goes into a message. */
const MAX_EXCERPT = 120;

/**
 * A value that was thrown although it is not an Error (a string, `null`, `undefined`, a plain object),
 * typically by a plugin's generator, stop condition or script engine. It carries the value and a message
 * that says what was thrown, so that error handlers, which read `message`, `code` and `statusCode`, never
 * trip over a value that has none of them.
 */
export class ThrownValueError extends Error {
  override readonly name = 'ThrownValueError';
  constructor(readonly value: unknown) {
    super(`${kindOf(value)} was thrown instead of an Error${excerptOf(value)}`);
  }
}

/** The value itself when it is an Error, else a {@link ThrownValueError} around it. */
export function toError(value: unknown): Error {
  return value instanceof Error ? value : new ThrownValueError(value);
}

/**
 * Makes every route handler of the app reject with Errors only: a handler that throws (or whose promise
 * rejects with) anything else has the value wrapped by {@link toError}. Each route family's error handler
 * then answers it in the family's own format, and no handler reads a property of `null`. Wrapped with
 * fastify-plugin so that its `onRoute` hook sees the routes of every family registered after it.
 */
export const thrownValuesPlugin = fastifyPlugin(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route: RouteOptions) => {
      route.handler = guarded(route.handler);
    });
  },
  { name: 'walker-thrown-values', fastify: '5.x' },
);

function guarded(handler: RouteOptions['handler']): RouteOptions['handler'] {
  return function guardedHandler(this: FastifyInstance, request, reply) {
    let result: unknown;
    try {
      result = handler.call(this, request, reply);
    } catch (error) {
      throw toError(error);
    }
    if (result instanceof Promise) return result.catch(rethrowAsError);
    return result as ReturnType<RouteOptions['handler']>;
  };
}

function rethrowAsError(error: unknown): never {
  throw toError(error);
}

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** `: 'text'` for a string, `: {"a":1}` for an object; nothing for null and undefined. Never throws. */
function excerptOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text: string;
  try {
    text = typeof value === 'string' ? `'${value}'` : typeof value === 'object' ? (JSON.stringify(value) ?? '') : String(value);
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text === '' ? '' : `: ${shorten(text.split('\n', 1)[0], MAX_EXCERPT)}`;
}
