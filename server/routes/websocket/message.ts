/**
 * Largest message read leniently when strict JSON refuses it. JSON5 reads a character at a time, tens of times
 * slower than JSON.parse, and a model may be as large as --max-model-bytes: beyond this the strict error stands.
 */
const MAX_LENIENT_CHARS = 1024 * 1024;

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
  try {
    return JSON.parse(text);
  } catch (strict) {
    if (text.length > MAX_LENIENT_CHARS) throw new NotACommand(`the message is not JSON (${(strict as Error).message})`);
    // Imported when first needed: most clients send JSON, and `walker online` starts without it.
    const { default: JSON5 } = await import('json5');
    try {
      return JSON5.parse(text);
    } catch (lenient) {
      throw new NotACommand(`the message is not JSON (${(lenient as Error).message.replace(/^JSON5: /, '')})`);
    }
  }
}
