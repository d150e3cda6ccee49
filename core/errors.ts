/**
 * Every error walker raises on purpose carries a stable code from this table, so that callers (the HTTP
 * routes, the CLI, library users) can react to the kind of failure without parsing messages. Codes are
 * never reused for another meaning; `docs/errors.md` lists them.
 */
export const ErrorCodes = {
  /** The model file is not JSON, or not a GraphWalker model file. */
  MODEL_SYNTAX: 'WALKER_MODEL_SYNTAX',
  /** The model file is JSON but a model, element or field in it is invalid. */
  MODEL_INVALID: 'WALKER_MODEL_INVALID',
  /** A model has no generator and none was given. */
  NO_GENERATOR: 'WALKER_NO_GENERATOR',
  /** The generator string does not follow the generator language. */
  GENERATOR_SYNTAX: 'WALKER_GENERATOR_SYNTAX',
  /** A generator or stop-condition name, or its argument, is not usable. */
  GENERATOR_INVALID: 'WALKER_GENERATOR_INVALID',
  /** A stop condition can never be fulfilled from the start element. */
  UNREACHABLE_GOAL: 'WALKER_UNREACHABLE_GOAL',
  /** No model has a start element. */
  NO_START: 'WALKER_NO_START',
  /** The walk stands on an element with no available way on. */
  NO_PATH: 'WALKER_NO_PATH',
  /** The stop condition is fulfilled; there is no next step. */
  NO_MORE_STEPS: 'WALKER_NO_MORE_STEPS',
  /** A guard or action script failed, exceeded a limit or returned the wrong type. */
  SCRIPT: 'WALKER_SCRIPT',
  /** A name was registered twice in a registry. */
  DUPLICATE_NAME: 'WALKER_DUPLICATE_NAME',
  /** A name was looked up that no plugin registered. */
  UNKNOWN_NAME: 'WALKER_UNKNOWN_NAME',
  /** A plugin package could not be loaded or is not a walker plugin. */
  PLUGIN: 'WALKER_PLUGIN',
  /** An operation needs a loaded model and there is none. */
  NOT_LOADED: 'WALKER_NOT_LOADED',
  /** An operation needs a step taken since the load or restart and there is none (GraphWalker's `fail`). */
  NOT_STARTED: 'WALKER_NOT_STARTED',
  /** The model file could not be read. */
  FILE: 'WALKER_FILE',
  /** The session's walk stopped under a request: the session was deleted or expired, or its thread failed. */
  SESSION: 'WALKER_SESSION',
  /** A Walker, or the script engine of its plugins, was used after its `dispose()`. */
  DISPOSED: 'WALKER_DISPOSED',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** The model and element an error concerns, as data beside its message. */
export interface ErrorSubject {
  /** The id of the model (as normalised: a generated id when the file gave none). */
  readonly modelId?: string;
  /** The id of the vertex or edge. */
  readonly elementId?: string;
}

/**
 * Base class of every deliberate walker error: a code from {@link ErrorCodes}, a message that says what to fix,
 * and the model and element it concerns, when it concerns one. Callers that need the model (`walker check`
 * naming the file of a refusal, draft validation naming the model) read these fields, never the message.
 */
export class WalkerError extends Error {
  override readonly name: string = 'WalkerError';
  // Private to the class, not an own property: errors compare and serialise by code and message, as before.
  #subject: ErrorSubject = {};

  constructor(
    readonly code: ErrorCode,
    message: string,
    subject: ErrorSubject = {},
  ) {
    super(message);
    this.concerning(subject);
  }

  /** The id of the model the error concerns, or undefined. */
  get modelId(): string | undefined {
    return this.#subject.modelId;
  }

  /** The id of the vertex or edge the error concerns, or undefined. */
  get elementId(): string | undefined {
    return this.#subject.elementId;
  }

  /**
   * Names the model (and element) the error concerns, unless it names a model already; returns the error. Code
   * that knows which model it works on calls it as an error passes, e.g. for a plugin's error while a model's
   * generator is built, since the plugin only knows the model's index.
   */
  concerning(subject: ErrorSubject): this {
    if (this.#subject.modelId !== undefined) return this;
    const { modelId = this.#subject.modelId, elementId = this.#subject.elementId } = subject;
    this.#subject = { ...(modelId === undefined ? {} : { modelId }), ...(elementId === undefined ? {} : { elementId }) };
    return this;
  }
}

/** Where in a model an invalid value sits, so the message can name it. */
export interface ModelLocation {
  /** The file the model came from, when it came from a file. */
  readonly source?: string;
  /** The id (or, lacking one, the name or position) of the model. */
  readonly model?: string;
  /** The id of the vertex or edge. */
  readonly elementId?: string;
  /** The field that is wrong, as spelled in the model file. */
  readonly field?: string;
}

/** A model that cannot be walked; the message names file, model, element and field. */
export class ModelError extends WalkerError {
  override readonly name = 'ModelError';
  constructor(
    readonly problem: string,
    readonly location: ModelLocation = {},
    code: ErrorCode = ErrorCodes.MODEL_INVALID,
    subject: ErrorSubject = { modelId: location.model, elementId: location.elementId },
  ) {
    super(code, formatModelMessage(problem, location), subject);
  }
}

function formatModelMessage(problem: string, at: ModelLocation): string {
  const where: string[] = [];
  if (at.source) where.push(at.source);
  if (at.model !== undefined) where.push(`model '${at.model}'`);
  if (at.elementId !== undefined) where.push(`element '${at.elementId}'`);
  if (at.field) where.push(`field '${at.field}'`);
  return where.length ? `${where.join(', ')}: ${problem}` : problem;
}

/** A generator string that does not parse: `column` is 1-based, counted in the string as given. */
export class GeneratorSyntaxError extends WalkerError {
  override readonly name = 'GeneratorSyntaxError';
  constructor(
    readonly input: string,
    readonly column: number,
    /** What is wrong there: `expected …` or `unexpected character …`. */
    readonly problem: string,
    /** Where the generator string comes from, e.g. `Model 'Login'`, put in front of the message. */
    readonly where?: string,
    subject: ErrorSubject = {},
  ) {
    const text = `Generator '${excerpt(input, column)}', column ${column}: ${problem}`;
    super(ErrorCodes.GENERATOR_SYNTAX, where ? `${where}: ${text}` : text, subject);
  }
}

/**
 * A generator string names a path generator or a stop condition that no plugin registered. The message leads
 * with GraphWalker's words for it, which GraphWalker's clients (AltWalker) look for in what a command prints,
 * and goes on with walker's own explanation.
 */
export class UnknownGeneratorNameError extends WalkerError {
  override readonly name = 'UnknownGeneratorNameError';
  constructor(
    readonly kind: 'generator' | 'condition',
    /** The name as written. */
    readonly unknown: string,
    /** The index of the model whose generator string it is. */
    readonly model: number,
    /** What walker knows: where the name is and the names that are known. */
    explanation: string,
  ) {
    const words = kind === 'generator' ? `No suitable generator found with name: ${unknown}.` : 'No valid stop condition found.';
    super(ErrorCodes.GENERATOR_INVALID, `${words} ${explanation}`);
  }
}

/** A generator string, or a stop condition's argument, that names something the model does not allow. */
export function invalidGenerator(message: string, subject: ErrorSubject = {}): WalkerError {
  return new WalkerError(ErrorCodes.GENERATOR_INVALID, message, subject);
}

/** The input as it goes into a message: whole when short, else the 80 characters around the column. */
function excerpt(input: string, column: number): string {
  if (input.length <= 160) return input;
  const from = Math.max(0, column - 40);
  return `${from > 0 ? '…' : ''}${input.slice(from, from + 80)}…`;
}

/** A guard or action that failed: names the model, the element and the field the script came from. */
export class ScriptError extends WalkerError {
  override readonly name = 'ScriptError';
  constructor(
    /** The script engine's own message, cut to a readable length (e.g. `ReferenceError: y is not defined`). */
    readonly scriptMessage: string,
    readonly origin: ScriptOrigin,
    /** The limit that stopped the script, when one did: the script itself may be fine, given more time or memory. */
    readonly limit?: ScriptLimitKind,
  ) {
    super(ErrorCodes.SCRIPT, scriptMessage, { modelId: origin.modelId, elementId: origin.elementId });
  }

  /** The message with the place the script came from, for logs and the CLI. */
  describe(): string {
    const o = this.origin;
    const parts = [`model '${o.modelId}'`];
    if (o.elementId !== undefined) parts.push(`element '${o.elementId}'`);
    parts.push(o.field);
    return `${parts.join(', ')}: ${this.scriptMessage}`;
  }
}

/**
 * The limits that stop a script: its time limit, its request's time budget, its memory, and the host's yield
 * (`SandboxOptions.yieldAfterMs`, core/scripting.ts), which says nothing of the script: its host runs the request again
 * where the script may use its whole limits.
 */
export type ScriptLimitKind = 'time' | 'budget' | 'memory' | 'yield';

/** True for a script that its host's yield stopped ({@link ScriptLimitKind}), rather than one of its limits. */
export function isScriptYield(error: unknown): error is ScriptError {
  return error instanceof ScriptError && error.limit === 'yield';
}

/** Where a script comes from: model, element and field. */
export interface ScriptOrigin {
  readonly modelId: string;
  readonly elementId?: string;
  /** Where in the model file or request: `getData` when reading the variables ran a script (a getter, a `toJSON`). */
  readonly field: 'guard' | 'actions' | 'model actions' | 'setData' | 'getData';
}
