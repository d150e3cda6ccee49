import { ScriptError, type ScriptOrigin } from '../../core/errors.js';
import type { ScriptLimits } from '../../core/scripting.js';
import { shorten } from '../../core/text.js';

/** Guest error texts are cut to this many characters before they reach a response or a log. */
export const MAX_MESSAGE_LENGTH = 500;

/** What QuickJS throws when the runtime's memory limit stops an allocation. */
const OUT_OF_MEMORY = 'InternalError: out of memory';

/** `64 MiB`, `512 KiB` or `1000 bytes`: the unit that shows the configured value exactly. */
export function formatBytes(bytes: number): string {
  const MiB = 1024 * 1024;
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * QuickJS quotes the name in `ReferenceError: 'y' is not defined`; GraalJS, which GraphWalker users know,
 * and docs/api-execution.md do not.
 */
function unquoteReference(text: string): string {
  return text.replace(/^ReferenceError: '([^']*)' is not defined$/, 'ReferenceError: $1 is not defined');
}

/** Cuts a guest text to {@link MAX_MESSAGE_LENGTH} characters, marking the cut. */
export function cut(text: string): string {
  return shorten(text, MAX_MESSAGE_LENGTH);
}

/** Turns guest failures into ScriptErrors with the limit messages of docs/behaviour.md. */
export class FailureMessages {
  constructor(private readonly limits: ScriptLimits) {}

  timeLimit(): string {
    return `Script exceeded the time limit of ${this.limits.timeoutMs} ms`;
  }

  memoryLimit(): string {
    return `Script exceeded the memory limit of ${formatBytes(this.limits.memoryBytes)}`;
  }

  /**
   * @param text the guest's text of the failure, or undefined when it could not be read (which, short of
   *   a timeout, means the runtime could not even allocate the text)
   * @param timedOut whether the interrupt handler stopped the evaluation
   */
  error(text: string | undefined, timedOut: boolean, origin: ScriptOrigin): ScriptError {
    if (timedOut) return new ScriptError(this.timeLimit(), origin);
    if (text === undefined || text === OUT_OF_MEMORY) return new ScriptError(this.memoryLimit(), origin);
    return new ScriptError(text === '' ? 'Script failed without an error message' : cut(unquoteReference(text)), origin);
  }
}
