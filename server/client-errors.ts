import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ApiErrors, type ApiErrorCode } from './api-error.js';
import type { AppOptions } from './options.js';

/** A failure Node's HTTP parser reports before any request exists. */
interface ClientError extends Error {
  readonly code?: string;
}

/**
 * Answers what goes wrong before a request is read whole — headers or body too slow, headers too large, bytes
 * that are not HTTP — in place of Fastify's default `clientErrorHandler`, whose messages name no limit. At
 * that point no URL is known, so no route family can be told apart: the body carries both formats, the
 * execution routes' `result`/`error` and the draft routes' `code`/`message` (docs/api-execution.md).
 */
export function createClientErrorHandler(options: Pick<AppOptions, 'timeouts' | 'maxHeaderBytes'>) {
  const { headersMs, requestMs } = options.timeouts;
  return function handleClientError(error: ClientError, socket: Socket): void {
    // A reset connection has nobody left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [code, message]: [ApiErrorCode, string] =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['request_timeout', `The request did not arrive in time: the headers must arrive within ${headersMs} ms and the whole request within ${requestMs} ms.`]
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? ['headers_too_large', `The request line and headers are larger than ${options.maxHeaderBytes} bytes, the limit of this service: send a shorter setData script or fail reason, or fewer headers.`]
          : ['bad_request', `The request is not valid HTTP/1.1 (${error.code ?? error.message}).`];
    const { status } = ApiErrors[code];
    const body = JSON.stringify({ result: 'nok', error: message, code, message });
    if (!socket.writable) return void socket.destroy();
    const head = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n`;
    // Destroyed once the answer is flushed, not before: destroying at once could drop it unsent.
    socket.end(`${head}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`, () => socket.destroy());
  };
}
