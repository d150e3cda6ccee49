import { constants } from 'node:buffer';
import { isSeed } from '../core/random.js';
import { walkSettings, withoutWalkSettings, type WalkSettingsInput } from '../core/walk-settings.js';
import type { WalkerPlugin } from '../core/plugin.js';
import { DEFAULT_APP_OPTIONS, DEFAULT_CONVERSION_LIMITS, DEFAULT_DRAFT_LIMITS, DEFAULT_HTTP_TIMEOUTS, DEFAULT_SESSION_LIMITS, DEFAULT_VIEW_LIMITS, type AppOptions } from './options.js';
import { checkNodeId } from './node-id.js';
import { parseHost, parseOrigin } from './origins.js';

/**
 * The largest `load` body walker reads, whatever `--max-model-bytes` asks: the body is decoded into one
 * string, and a longer string cannot exist (Node would throw "Cannot create a string longer than ..." while
 * reading it, outside any handler, and the process would crash). UTF-8 never decodes to more characters than
 * it has bytes, so a body of at most this many bytes always fits.
 */
export const MAX_MODEL_BYTES = constants.MAX_STRING_LENGTH;

/**
 * What {@link resolveAppOptions} takes: any of the {@link AppOptions}, nested limits field by field, and the
 * fields of {@link AppOptions.walk} at the top level (`seed`, `scriptLimits`, `planStates`, ...).
 */
export interface AppOptionsInput extends Partial<Omit<AppOptions, 'drafts' | 'sessions' | 'view' | 'conversions' | 'timeouts' | 'walk'>>, WalkSettingsInput {
  readonly drafts?: Partial<AppOptions['drafts']>;
  readonly sessions?: Partial<AppOptions['sessions']>;
  readonly view?: Partial<AppOptions['view']>;
  readonly conversions?: Partial<AppOptions['conversions']>;
  readonly timeouts?: Partial<AppOptions['timeouts']>;
  /** Accepted and ignored here, so that `buildApp`'s options can be passed whole. */
  readonly plugins?: readonly WalkerPlugin[];
  readonly pluginSources?: readonly unknown[];
}

/**
 * The options with defaults filled in, checked so that a mistake fails at startup rather than on a request
 * (a RangeError naming the option), and `maxModelBytes` lowered to {@link MAX_MODEL_BYTES}
 * ({@link optionWarnings} says so).
 */
export function resolveAppOptions(options: AppOptionsInput): AppOptions {
  const { plugins: _plugins, pluginSources: _sources, ...others } = options;
  const rest = withoutWalkSettings(others);
  const resolved: AppOptions = {
    ...DEFAULT_APP_OPTIONS,
    ...definedOnly(rest),
    drafts: { ...DEFAULT_DRAFT_LIMITS, ...definedOnly(options.drafts ?? {}) },
    sessions: { ...DEFAULT_SESSION_LIMITS, ...definedOnly(options.sessions ?? {}) },
    view: { ...DEFAULT_VIEW_LIMITS, ...definedOnly(options.view ?? {}) },
    conversions: { ...DEFAULT_CONVERSION_LIMITS, ...definedOnly(options.conversions ?? {}) },
    timeouts: { ...DEFAULT_HTTP_TIMEOUTS, ...definedOnly(options.timeouts ?? {}) },
    allowOrigins: (options.allowOrigins ?? []).map((origin) => parseOrigin(origin)),
    allowHosts: (options.allowHosts ?? []).map((host) => parseHost(host)),
    walk: walkSettings(options),
  };
  checkNumbers(resolved);
  if (resolved.nodeId !== undefined) checkNodeId(resolved.nodeId);
  if (resolved.token !== undefined && !/^[\x21-\x7e]+$/.test(resolved.token)) {
    throw new RangeError('token must be printable ASCII without spaces (it travels in an Authorization header), and not empty');
  }
  return { ...resolved, maxModelBytes: Math.min(resolved.maxModelBytes, MAX_MODEL_BYTES) };
}

/** What the user should hear about the options at startup: a value that was lowered. */
export function optionWarnings(options: AppOptionsInput): string[] {
  const asked = options.maxModelBytes;
  if (asked === undefined || asked <= MAX_MODEL_BYTES) return [];
  return [
    `--max-model-bytes ${asked} is more than Node.js can hold as one string; ` +
      `load bodies are limited to ${MAX_MODEL_BYTES} bytes instead (larger ones answer 413).`,
  ];
}

function checkNumbers(resolved: AppOptions): void {
  const positive: Array<[string, number]> = [
    ['maxModelBytes', resolved.maxModelBytes],
    ['maxHeaderBytes', resolved.maxHeaderBytes],
    ['pluginSetupTimeoutMs', resolved.pluginSetupTimeoutMs],
    ...Object.entries(resolved.drafts).map(([name, value]): [string, number] => [`drafts.${name}`, value as number]),
    ['sessions.ttlSeconds', resolved.sessions.ttlSeconds],
    ['sessions.maxSessions', resolved.sessions.maxSessions],
    ...Object.entries(resolved.view).map(([name, value]): [string, number] => [`view.${name}`, value]),
    ...Object.entries(resolved.conversions).map(([name, value]): [string, number] => [`conversions.${name}`, value]),
    ...Object.entries(resolved.timeouts).map(([name, value]): [string, number] => [`timeouts.${name}`, value]),
  ];
  for (const [name, value] of positive) {
    if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive whole number, got ${value}`);
  }
  const { slowRequestMs } = resolved.sessions;
  if (!Number.isFinite(slowRequestMs) || slowRequestMs < 0) {
    throw new RangeError(`sessions.slowRequestMs must be 0 (walks never leave the event loop) or more, got ${slowRequestMs}`);
  }
  const { headersMs, requestMs } = resolved.timeouts;
  if (headersMs > requestMs) {
    throw new RangeError(`timeouts.headersMs (${headersMs}) must not exceed timeouts.requestMs (${requestMs}): the headers are part of the request`);
  }
  const { seed } = resolved.walk;
  if (seed !== undefined && !isSeed(seed)) throw new RangeError(`seed must be a non-negative whole number, got ${seed}`);
}

/** The members that are not undefined, so that `{ maxDrafts: undefined }` keeps the default. */
function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
