import { setImmediate } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { andThen } from '../../../core/awaitable.js';
import { ErrorCodes, WalkerError } from '../../../core/errors.js';
import type { Conversions } from '../../conversion/conversions.js';
import { SerialQueue } from '../../serial-queue.js';
import { shorten } from '../../../core/text.js';
import type { HostedSession } from '../../sessions/hosted-session.js';
import { isApiError } from '../../api-error.js';
import { toError } from '../../thrown.js';
import { COMMAND_NAMES, commandNamed, endpointOf, type Answers, type Command, type CommandScope, type Fields } from './commands.js';
import { NotACommand, readCommand } from './message.js';

/** GraphWalker's words for a command before `start`, and walker's after them. */
export const NOT_STARTED_MESSAGE =
  'The GraphWalker state machine is not initiated. Is a model loaded, and started? ' +
  'Send {"command":"start","gw":<model file>} first.';

/**
 * Messages read but not yet answered before the connection stops reading: a client that sends without reading
 * the answers waits for them, instead of queueing work without end.
 */
const MAX_WAITING = 32;

/**
 * Characters of answers not yet handed to the system past which the connection stops reading and answering: a
 * client that sends without reading what comes back (getModel of a large model, over and over) holds this much
 * of the service's memory and one answer more, rather than every answer it never read.
 */
const MAX_UNSENT_CHARS = 4 * 1024 * 1024;

/** Longest text of an unexpected error that goes into an answer; the whole error goes to the log. */
const MAX_UNEXPECTED_MESSAGE = 200;

/** What one connection works with. */
export interface ConnectionContext {
  /** The connection's own walk: a session of the session store, made for it and deleted when it closes. */
  readonly session: HostedSession;
  /** The app's conversions of model files (convertGraphml). */
  readonly conversions: Conversions;
  readonly log: FastifyBaseLogger;
  /** Renews the session's lease, as every request of a session does; throws once it expired. */
  renew(): void;
}

/**
 * Serves GraphWalker's WebSocket protocol on one connection: every message is a command, answered in the
 * order the messages came, on the connection's walk.
 */
export function serveConnection(socket: WebSocket, context: ConnectionContext): void {
  const queue = new SerialQueue();
  const scope: CommandScope = { conversions: context.conversions };
  let unsent = 0;
  /** Wakes the message that waits for the answers before it to be handed to the system. */
  let room: (() => void) | undefined;
  const roomToSend = (): Promise<void> | undefined =>
    unsent <= MAX_UNSENT_CHARS || socket.readyState !== socket.OPEN ? undefined : new Promise((resolve) => (room = resolve));
  const sent = (chars: number): void => {
    unsent -= chars;
    if (room !== undefined && (unsent <= MAX_UNSENT_CHARS || socket.readyState !== socket.OPEN)) {
      const wake = room;
      room = undefined;
      wake();
    }
    if (socket.isPaused && queue.pending <= 1 && unsent <= MAX_UNSENT_CHARS) socket.resume();
  };
  const send = (answer: object): void => {
    if (socket.readyState !== socket.OPEN) return;
    const text = JSON.stringify(answer);
    unsent += text.length;
    if (unsent > MAX_UNSENT_CHARS) socket.pause();
    socket.send(text, () => sent(text.length));
  };
  socket.once('close', () => sent(0));
  socket.on('message', (data) => {
    const text = textOf(data);
    if (queue.pending >= MAX_WAITING) socket.pause();
    // The messages of one read all arrive at once: each is answered once the answers before it are on their way
    // and the event loop has turned, since back to back (a getModel is serialised outside any session's timing)
    // they would hold the loop together, and a client that reads nothing would hold every answer in memory.
    void queue
      .run(async () => {
        await roomToSend();
        await setImmediate();
        return answer(text, context, scope, send, socket);
      })
      .catch((error: unknown) => context.log.error({ err: error }, 'a WebSocket message could not be answered'))
      .finally(() => sent(0));
  });
}

function textOf(data: RawData): string {
  // A binary message is read as UTF-8 text too: GraphWalker's commands are JSON whichever frame carries them.
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

async function answer(text: string, context: ConnectionContext, scope: CommandScope, send: (answer: object) => void, socket: WebSocket): Promise<void> {
  let fields: Fields;
  let command: Command | undefined;
  try {
    const message = await readCommand(text);
    fields = message.fields;
    command = commandNamed(message.command);
    if (command === undefined) {
      send({ success: false, message: `Unknown command: '${shorten(message.command, 60)}'. The commands are ${COMMAND_NAMES}, in any letter case.` });
      return;
    }
  } catch (error) {
    if (!(error instanceof NotACommand)) throw error;
    send({ success: false, message: `Unknown command: ${error.message}.` });
    return;
  }
  try {
    context.renew();
    for (const message of await run(command, fields, context, scope)) send(message);
  } catch (error) {
    for (const message of failure(command.answersAs, error, context.log)) send(message);
    // The connection's walk is gone (it expired): a new connection gets a new one.
    if (isApiError(error) && (error.code === 'session_expired' || error.code === 'session_not_found')) socket.close(1000, 'The walk of this connection expired (--session-ttl): connect again.');
  }
}

function run(command: Command, fields: Fields, context: ConnectionContext, scope: CommandScope): Promise<Answers> | Answers {
  if (command.kind === 'table') {
    // Read before the queue, as the REST dialects read a request: a message that lacks it never reaches the walk.
    const input = command.input(fields);
    const endpoint = endpointOf(command.endpoint);
    return context.session.run((walk) => andThen(endpoint.run(walk, input as never), (result) => command.encode(result as never)));
  }
  if (!command.needsWalk) return command.run(undefined, fields, scope);
  return context.session.run((walk) => command.run(walk, fields, scope));
}

/**
 * GraphWalker's answer to a command that failed: before `start`, `success` false with its message; a refusal
 * of the service (it is closing, the connection's walk expired) the same with its own; any other failure is an
 * exception in GraphWalker, pushed first as `issues`, then the answer, which walker words too.
 */
function failure(answersAs: string, thrown: unknown, log: FastifyBaseLogger): Answers {
  const error = toError(thrown);
  if (error instanceof WalkerError && error.code === ErrorCodes.NOT_LOADED) return [{ command: answersAs, success: false, message: NOT_STARTED_MESSAGE }];
  if (isApiError(error) || (error instanceof WalkerError && error.code === ErrorCodes.SESSION)) {
    return [{ command: answersAs, success: false, message: error.message }];
  }
  let message = error.message;
  if (!(error instanceof WalkerError)) {
    log.error({ err: error }, 'unexpected error in a WebSocket command');
    message = `Unexpected error: ${shorten(error.message.split('\n', 1)[0], MAX_UNEXPECTED_MESSAGE) || `${error.name} without a message`}`;
  }
  return [{ command: 'issues', issues: [message] }, { command: answersAs, success: false, message }];
}
