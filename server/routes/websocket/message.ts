import { MAX_JSON_NESTING } from '../../../core/model/json-syntax.js';

/**
 * Largest message read leniently when strict JSON refuses it. JSON5 reads a character at a time, twenty
 * to fifty times slower than JSON.parse, on the event loop (docs/benchmarks.md): a message of this size holds
 * it some tens of milliseconds. A command a person writes by hand is far smaller, and a client that sends a
 * model sends it as the JSON its library writes; beyond this the strict error stands, and says so.
 */
export const MAX_LENIENT_CHARS = 64 * 1024;

/** A command message: a JSON object whose `command` names what to do. */
export interface CommandMessage {
  /** As the client wrote it; matched without regard to case. */
  readonly command: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

/** Why a message is no command; GraphWalker answers every such message with `Unknown command`. */
export class NotACommand extends Error {
  override readonly name = 'NotACommand';
}

/**
 * Reads one message. GraphWalker reads messages with org.json, which takes unquoted member names and single
 * quotes (its own Java client sends `{ command: "getNext"}`), so what strict JSON refuses is read again as JSON5.
 */
export async function readCommand(text: string): Promise<CommandMessage> {
  const value = await parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new NotACommand(`the message is ${Array.isArray(value) ? 'an array' : 'not an object'}; send an object such as {"command":"hasNext"}`);
  }
  const { command } = value as { command?: unknown };
  if (command === undefined) throw new NotACommand('the message has no "command" member; send an object such as {"command":"hasNext"}');
  if (typeof command !== 'string') throw new NotACommand(`"command" must be a string, got ${JSON.stringify(command)}`);
  return { command, fields: value as Record<string, unknown> };
}

async function parse(text: string): Promise<unknown> {
  // A value nested thousands deep would overflow the stack of whatever reads it later (a load copies a model).
  const deep = nestingPast(text, MAX_JSON_NESTING);
  if (deep !== undefined) {
    throw new NotACommand(`arrays and objects nest more than ${MAX_JSON_NESTING} deep at character ${deep}; a command needs a few levels`);
  }
  try {
    return JSON.parse(text);
  } catch (strict) {
    if (text.length > MAX_LENIENT_CHARS) {
      throw new NotACommand(
        `the message is not JSON (${(strict as Error).message}); only a message of up to ${MAX_LENIENT_CHARS} characters is read as JSON5 too, ` +
          `and this one has ${text.length}`,
      );
    }
    // Imported when first needed: most clients send JSON, and `walker online` starts without it.
    const { default: JSON5 } = await import('json5');
    try {
      return JSON5.parse(text);
    } catch (lenient) {
      throw new NotACommand(`the message is not JSON (${(lenient as Error).message.replace(/^JSON5: /, '')})`);
    }
  }
}

/**
 * The position (from 0) of the first bracket that opens an array or object more than `max` deep, or undefined.
 * Brackets inside strings, in either of JSON5's quotes, do not count; in a JSON5 comment they do, which can only
 * refuse a message that no client sends.
 */
export function nestingPast(text: string, max: number): number | undefined {
  let depth = 0;
  let quote = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote !== 0) {
      if (c === BACKSLASH) i++;
      else if (c === quote) quote = 0;
    } else if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) quote = c;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return i;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return undefined;
}

const [BACKSLASH, DOUBLE_QUOTE, SINGLE_QUOTE] = [0x5c, 0x22, 0x27];
const [OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET] = [0x7b, 0x7d, 0x5b, 0x5d];
