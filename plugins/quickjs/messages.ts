import { ScriptError, type ScriptOrigin } from '../../core/errors.js';
import type { ScriptLimits } from '../../core/scripting.js';
import { shorten } from '../../core/text.js';
import type { LimitKind } from './runtime.js';

/** Guest error texts are cut to this many characters before they reach a response or a log. */
export const MAX_MESSAGE_LENGTH = 500;

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

/**
 * A verdict of the sandbox on a script — a limit it passed, a guard that is not boolean or not synchronous —
 * rather than an error the script threw. Its message names where the script is (model, element, field), as
 * `describe()` does, so that every way of reporting it (the service's `nok`, the command line, a draft's
 * validation) says which script to fix; `scriptMessage` is the verdict alone.
 */
export class ScriptVerdictError extends ScriptError {
  constructor(verdict: string, origin: ScriptOrigin, limit?: LimitKind) {
    super(verdict, origin, limit);
    this.message = super.describe();
  }

  override describe(): string {
    return this.message;
  }
}

/** Turns guest failures into ScriptErrors with the messages of docs/behaviour.md. */
export class FailureMessages {
  constructor(
    private readonly limits: ScriptLimits,
    /** The host's yield of the request under way (`SandboxOptions.yieldAfterMs`). */
    private readonly yieldMs: () => number | undefined = () => undefined,
  ) {}

  limit(kind: LimitKind): string {
    if (kind === 'time') return `Script exceeded the time limit of ${this.limits.timeoutMs} ms`;
    if (kind === 'budget') return `Scripts of one request exceeded the time budget of ${this.limits.budgetMs} ms`;
    if (kind === 'yield') return `Scripts of one request ran past ${this.yieldMs() ?? 0} ms, when their host asked them to yield`;
    return `Script exceeded the memory limit of ${formatBytes(this.limits.memoryBytes)}`;
  }

  /**
   * @param text the guest's text of the failure, or undefined when it could not be read
   * @param limit the limit that stopped the script, if one did: it wins over any text, which the script could forge
   * @param verdict true when the text is the sandbox's own (a guard's value), not something the script threw
   */
  error(text: string | undefined, limit: LimitKind | undefined, origin: ScriptOrigin, verdict = false): ScriptError {
    if (limit !== undefined) return new ScriptVerdictError(this.limit(limit), origin, limit);
    if (text === undefined || text === '') return new ScriptError('Script failed without an error message', origin);
    const message = cut(unquoteReference(text));
    return verdict ? new ScriptVerdictError(message, origin) : new ScriptError(message, origin);
  }
}
