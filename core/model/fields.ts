import { ModelIssueCodes, type IssueReporter, type ModelIssueCode } from './issue-reporter.js';
import { shorten } from '../text.js';

/**
 * Readers for the fields of a parsed model file. Each accepts what GraphWalker's lenient Gson reader accepts,
 * returns the canonical value (or undefined for an absent or invalid one) and reports what it cannot accept.
 * Callers read the member themselves (`raw.name`) and pass the value: a property load at a fixed name stays
 * monomorphic, while one shared `raw[key]` would see every field name and slow down loading large models.
 */

/** A parsed JSON object. */
export type RawObject = Record<string, unknown>;

/** True for a JSON object (not an array, not null). */
export function isObject(value: unknown): value is RawObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How a wrong value is shown after "got": `an array`, `'abc'`, `1.5`, `null`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `'${shorten(value, 41)}'`;
  if (typeof value === 'object') return 'an object';
  return String(value);
}

/**
 * A string-valued field as text. Gson turns numbers and booleans into their text for String fields, so
 * `"id": 5` is the id `"5"`; objects and arrays are errors.
 */
export function asText(value: unknown): string | undefined | null {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return undefined;
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return String(value);
  return null;
}

/** A string field; null and absence both mean "not given". */
export function readText(value: unknown, field: string, issues: IssueReporter): string | undefined {
  if (typeof value === 'string') return value;
  const text = asText(value);
  if (text === null) {
    issues.invalidField(field, `must be a string, got ${describeValue(value)}`);
    return undefined;
  }
  return text;
}

/**
 * A list of strings such as `actions` or `requirements`. A list that holds only strings is returned as it is
 * (no copy for each of tens of thousands of elements); the normalised file may share it with the input.
 */
export function readTextList(value: unknown, field: string, issues: IssueReporter): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    issues.invalidField(field, `must be a list of strings, got ${describeValue(value)}`);
    return undefined;
  }
  let i = 0;
  while (i < value.length && typeof value[i] === 'string') i++;
  if (i === value.length) return value as string[];
  const list = value.slice(0, i) as string[];
  for (; i < value.length; i++) {
    const text = asText(value[i]);
    if (typeof text === 'string') list.push(text);
    else issues.invalidField(`${field}[${i}]`, `must be a string, got ${describeValue(value[i])}`);
  }
  return list;
}

/** `properties`: an object of anything; editors write an empty one as `[]`. */
export function readProperties(value: unknown, issues: IssueReporter): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (isObject(value)) return value;
  if (Array.isArray(value) && value.length === 0) return {};
  issues.invalidField('properties', `must be an object of named values, got ${describeValue(value)}`);
  return undefined;
}

/** True when `properties.blocked` marks the element as left out of the walk. */
export function isBlocked(properties: Record<string, unknown> | undefined): boolean {
  const flag = properties?.blocked;
  return flag === true || flag === 'true';
}

const NUMERIC_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A number, or a numeric string as Gson accepts it (`"dependency": "100"`); NaN for anything else. */
export function asNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (NUMERIC_TEXT.test(text)) return Number(text);
  }
  return NaN;
}

/** An edge's `weight`: a number from 0 to 1. */
export function readWeight(value: unknown, issues: IssueReporter, keepNumbers = false): number | undefined {
  if (value === undefined || value === null) return undefined;
  const weight = asNumber(value);
  if (weight >= 0 && weight <= 1) return weight;
  const problem = `The weight must be a value between 0 and 1, got ${describeValue(value)}`;
  return outOfRange(weight, keepNumbers, issues, ModelIssueCodes.INVALID_WEIGHT, 'weight', problem);
}

/**
 * A number outside its range: an error, or with `keepNumbers` (a file read to be converted, never walked) a
 * warning, and the number kept as written.
 */
function outOfRange(value: number, keepNumbers: boolean, issues: IssueReporter, code: ModelIssueCode, field: string, problem: string): number | undefined {
  if (keepNumbers && Number.isFinite(value)) {
    issues.warning(code, field, problem);
    return value;
  }
  issues.error(code, field, problem);
  return undefined;
}

/** An edge's `dependency`: an integer from 0 to 100. */
export function readDependency(value: unknown, issues: IssueReporter, keepNumbers = false): number | undefined {
  if (value === undefined || value === null) return undefined;
  const dependency = asNumber(value);
  if (Number.isInteger(dependency) && dependency >= 0 && dependency <= 100) return dependency;
  const problem = `must be a whole number from 0 to 100, got ${describeValue(value)}`;
  return outOfRange(dependency, keepNumbers, issues, ModelIssueCodes.INVALID_DEPENDENCY, 'dependency', problem);
}

/** The file's `seed`: a non-negative safe integer, so that it replays exactly in JavaScript. */
export function readSeed(value: unknown, issues: IssueReporter): number | undefined {
  if (value === undefined || value === null) return undefined;
  const seed = asNumber(value);
  if (Number.isSafeInteger(seed) && seed >= 0) return seed;
  const problem = `must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, got ${describeValue(value)}`;
  issues.invalidField('seed', problem);
  return undefined;
}
