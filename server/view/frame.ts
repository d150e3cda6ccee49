/**
 * A message's JSON in parts. A part that many messages share (the graph of a load, serialised once) is the
 * same Buffer in each, so that every reader's socket writes it by reference: a message of 14 MB to a
 * thousand readers holds 14 MB, not 14 GB.
 */
export type JsonParts = readonly Buffer[];

/** One Server-Sent Event as the bytes written to its readers: `data: <json>\n\n`, in parts. */
export type Frame = readonly Buffer[];

const DATA = Buffer.from('data: ');
const END = Buffer.from('\n\n');

/** The JSON of one message, in one part. */
export function jsonOf(message: object): JsonParts {
  return [Buffer.from(JSON.stringify(message))];
}

/**
 * The JSON of the message `{...before, [name]: <json>, ...after}`, where `json` is the serialised value of
 * `name`, shared and not copied. `before` must have a member.
 */
export function jsonWith(before: object, name: string, json: JsonParts, after: object): JsonParts {
  const head = JSON.stringify(before).slice(0, -1);
  const rest = JSON.stringify(after).slice(1);
  return [Buffer.from(`${head},${JSON.stringify(name)}:`), ...json, Buffer.from(`${rest === '}' ? '' : ','}${rest}`)];
}

/** Frames up to this size are one Buffer: a socket then writes the event in one call, not three. */
const JOINED_BYTES = 64 * 1024;

/** The event of a message. JSON never holds a raw line break, so the message is one `data:` line. */
export function eventFrame(json: JsonParts): Frame {
  const parts = [DATA, ...json, END];
  const bytes = parts.reduce((sum, part) => sum + part.length, 0);
  return bytes <= JOINED_BYTES ? [Buffer.concat(parts, bytes)] : parts;
}
