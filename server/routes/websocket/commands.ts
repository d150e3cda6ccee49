import { andThen, type Awaitable } from '../../../core/awaitable.js';
import { ErrorCodes, WalkerError, type ErrorCode } from '../../../core/errors.js';
import type { GraphShape } from '../../../core/machine/walk-view.js';
import type { SessionWalk } from '../../../core/session.js';
import { VERSION } from '../../../core/version.js';
import type { Conversions } from '../../conversion/conversions.js';
import { ENDPOINTS, type Endpoint, type EndpointInputs, type EndpointName, type EndpointResults } from '../execution/endpoints.js';
import { graphwalkerData } from '../graphwalker/dialect.js';

/** What a command answers: the messages pushed before its answer (`visitedElement`), then the answer. */
export type Answers = readonly object[];

/** The members of a command message, `command` among them. */
export type Fields = Readonly<Record<string, unknown>>;

/** What a command may use beside the walk: the app's conversions, and what the connection remembers of the walk's models. */
export interface CommandScope {
  readonly conversions: Conversions;
  /** The shape of the models of a load, kept by the connection so that `updateAllElements` reads it once per load. */
  shape?: { readonly load: number; readonly shape: GraphShape };
}

/**
 * A command that is an endpoint of the execution table (server/routes/execution/endpoints.ts): this wire's
 * third encoding of it, beside `/walker`'s and `/graphwalker`'s. What the endpoint takes comes from the message.
 */
interface TableCommand<N extends EndpointName> {
  readonly answersAs: string;
  readonly endpoint: N;
  input(fields: Fields): EndpointInputs[N];
  encode(result: EndpointResults[N]): Answers;
}

/** A command of GraphWalker's WebSocket service that the REST dialects lack; `walk` is undefined for one that needs none. */
interface OwnCommand {
  readonly answersAs: string;
  readonly needsWalk: boolean;
  run(walk: SessionWalk | undefined, fields: Fields, scope: CommandScope): Awaitable<Answers>;
}

export type Command = (TableCommand<EndpointName> & { readonly kind: 'table' }) | (OwnCommand & { readonly kind: 'own' });

function table<N extends EndpointName>(command: TableCommand<N>): Command {
  return { kind: 'table', ...(command as unknown as TableCommand<EndpointName>) };
}

function own(command: OwnCommand): Command {
  return { kind: 'own', ...command };
}

/** The endpoints of the table by name, for the commands that are endpoints. */
const ENDPOINT_OF = new Map<EndpointName, Endpoint>(ENDPOINTS.map((endpoint) => [endpoint.name, endpoint]));

/** The endpoint a table command runs. */
export function endpointOf(name: EndpointName): Endpoint {
  return ENDPOINT_OF.get(name) as Endpoint;
}

/** A member of the message that must be a string (`action`, `graphml`); refused as `code` says what it is. */
function stringField(fields: Fields, name: string, code: ErrorCode, example: string): string {
  const value = fields[name];
  if (typeof value === 'string') return value;
  const got = value === undefined ? 'the message has none' : `got ${JSON.stringify(value)?.slice(0, 40)}`;
  throw new WalkerError(code, `${String(fields.command)} takes "${name}" as a string, e.g. ${example}; ${got}.`);
}

/**
 * The model file of `start`: GraphWalker 4.3 reads it from `gw` (4.3.0 to 4.3.2 also from `gw3`, which their
 * own client sent), as a JSON object, with the generator of each model in the file.
 */
function startInput(fields: Fields): EndpointInputs['load'] {
  const file = fields.gw ?? fields.gw3;
  if (typeof file !== 'object' || file === null || Array.isArray(file)) {
    const got = file === undefined ? 'the message has none' : `got ${Array.isArray(file) ? 'an array' : JSON.stringify(file)?.slice(0, 40)}`;
    throw new WalkerError(
      ErrorCodes.MODEL_SYNTAX,
      `start takes the model file as a JSON object in "gw", e.g. {"command":"start","gw":{"models":[...]}}; ${got}.`,
    );
  }
  return { text: JSON.stringify(file) };
}

/**
 * GraphWalker 4.3's WebSocket commands (its `WebSocketServer`). `answersAs` is the `command` of the answer as
 * GraphWalker spells it, `getmodel` and `updateallelements` in lower case.
 */
const COMMANDS: ReadonlyMap<string, Command> = new Map<string, Command>([
  [
    'start',
    table<'load'>({
      answersAs: 'start',
      endpoint: 'load',
      input: startInput,
      // The seed and the load's warnings are walker's: GraphWalker's clients read `success` only.
      encode: ({ seed, warnings }) => [
        warnings.length === 0
          ? { command: 'start', success: true, seed }
          : { command: 'start', success: true, seed, warnings: warnings.map((w) => w.message) },
      ],
    }),
  ],
  [
    'hasNext',
    table<'hasNext'>({
      answersAs: 'hasNext',
      endpoint: 'hasNext',
      input: () => undefined,
      encode: (hasNext) => [{ command: 'hasNext', success: true, hasNext }],
    }),
  ],
  [
    'getNext',
    table<'getNext'>({
      answersAs: 'getNext',
      endpoint: 'getNext',
      input: () => undefined,
      encode: ({ step, report }) => {
        // The connection's session reports progress on every step (stepReport.progress).
        const progress = report.progress as NonNullable<typeof report.progress>;
        const visited = {
          command: 'visitedElement',
          modelId: step.modelId,
          elementId: step.id,
          visitedCount: progress.visitedCount,
          totalCount: progress.totalCount,
          stopConditionFulfillment: progress.fulfilment,
          data: progress.data,
        };
        // GraphWalker leaves out a name the element or model does not have.
        const answer = {
          command: 'getNext',
          modelId: step.modelId,
          elementId: step.id,
          ...(step.name === '' ? {} : { name: step.name }),
          ...(progress.modelName === undefined ? {} : { modelName: progress.modelName }),
          success: true,
        };
        return [visited, answer];
      },
    }),
  ],
  [
    'getData',
    table<'getData'>({
      answersAs: 'getData',
      endpoint: 'getData',
      input: () => undefined,
      encode: (variables) => [{ command: 'getData', success: true, data: graphwalkerData(variables) }],
    }),
  ],
  [
    'setData',
    table<'setData'>({
      answersAs: 'setData',
      endpoint: 'setData',
      input: (fields) => stringField(fields, 'action', ErrorCodes.SCRIPT, '{"command":"setData","action":"x = 1;"}'),
      encode: () => [{ command: 'setData', success: true }],
    }),
  ],
  [
    'getModel',
    table<'getModel'>({
      answersAs: 'getmodel',
      endpoint: 'getModel',
      input: () => undefined,
      encode: (file) => [{ command: 'getmodel', success: true, models: JSON.stringify(file) }],
    }),
  ],
  [
    'updateAllElements',
    own({
      answersAs: 'updateallelements',
      needsWalk: true,
      run: (walk, _fields, scope) =>
        andThen((walk as SessionWalk).view(scope.shape?.load), (view) => {
          if (view.shape !== undefined) scope.shape = { load: view.load, shape: view.shape };
          const { shape } = scope.shape as { shape: GraphShape };
          const visits = view.progress?.visits;
          const elements = shape.models.flatMap((model) =>
            [...model.vertices, ...model.edges].map((element) => ({
              modelId: model.id,
              elementId: element.id,
              visitedCount: visits?.[element.index] ?? 0,
            })),
          );
          return [{ command: 'updateallelements', success: true, elements }];
        }),
    }),
  ],
  [
    'convertGraphml',
    own({
      answersAs: 'convertGraphml',
      needsWalk: false,
      run: (_walk, fields, { conversions }) => {
        const text = stringField(fields, 'graphml', ErrorCodes.MODEL_SYNTAX, '{"command":"convertGraphml","graphml":"<?xml ...?><graphml>...</graphml>"}');
        // A large document is read in the conversion thread, so that it holds no other client.
        return conversions.graphmlAsJson(text).then((models) => [{ command: 'convertGraphml', success: true, models }]);
      },
    }),
  ],
  [
    'mode',
    own({
      answersAs: 'mode',
      needsWalk: false,
      // GraphWalker's service is in EDITOR mode unless it was made around a running machine, which `online` never does.
      run: () => [{ command: 'mode', success: true, mode: 'EDITOR', version: VERSION }],
    }),
  ],
]);

const BY_CAPITALS = new Map([...COMMANDS].map(([name, command]) => [name.toUpperCase(), command]));

/** The command a message names, matched without regard to case as GraphWalker does; undefined for none. */
export function commandNamed(name: string): Command | undefined {
  return BY_CAPITALS.get(name.toUpperCase());
}

/** The commands, as the answer to an unknown one lists them. */
export const COMMAND_NAMES = [...COMMANDS.keys()].join(', ');
