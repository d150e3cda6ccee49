import { apiError, type ApiError } from '../api-error.js';
import { shown } from './errors.js';
import { ID_PATTERN, ID_RULE } from './ids.js';
import type { BodyContract } from './schemas.js';

/**
 * One schema violation, in the shape JSON Schema validators such as Ajv report (with `verbose`, which adds
 * the offending `data` and the `parentSchema`). Only what the messages need is declared.
 */
export interface SchemaViolation {
  readonly keyword: string;
  /** JSON Pointer to the value, e.g. `/actions/2`; empty for the whole body. */
  readonly instancePath: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly data?: unknown;
  readonly parentSchema?: { readonly properties?: Readonly<Record<string, unknown>> };
}

/** The 422 for a body that breaks its schema: names the member and what it must be. */
export function bodyViolationError(violation: SchemaViolation, contract: BodyContract): ApiError {
  const member = memberName(violation.instancePath);
  const unknown = violation.params.additionalProperty;
  if (violation.keyword === 'additionalProperties' && typeof unknown === 'string') {
    const reason = contract.fixed?.[unknown];
    const problem = reason
      ? `'${unknown}' cannot be sent here: ${reason}.`
      : `Unknown member '${unknown}' in the ${contract.subject}; allowed: ${allowed(violation)}.`;
    return apiError(contract.code, problem);
  }
  if (member === '') {
    const problem = `The body must be a JSON object (the ${contract.subject}'s members), got ${shown(violation.data)}.`;
    return apiError(contract.code, problem);
  }
  return apiError(contract.code, `'${member}' ${expectation(violation)}, got ${shown(violation.data)}.`);
}

/**
 * The 404 for an element id in a path that breaks the id rule (ids.ts): no element can have it. The params
 * schema checks nothing else.
 */
export function pathIdError(violation: SchemaViolation): ApiError {
  const param = memberName(violation.instancePath);
  const kind = param === 'vertex_id' ? 'vertex' : param === 'edge_id' ? 'edge' : 'vertex or edge';
  return apiError(
    'element_not_found',
    `No ${kind} can have the id ${shown(violation.data)}: ${ID_RULE}. Check the id in the URL.`,
  );
}

/** The 400 `invalid_query` for a query that breaks its schema. */
export function queryViolationError(violation: SchemaViolation): ApiError {
  const name = memberName(violation.instancePath);
  const unknown = violation.params.additionalProperty;
  if (violation.keyword === 'additionalProperties' && typeof unknown === 'string') {
    return apiError('invalid_query', `Unknown query parameter '${unknown}'; allowed: ${allowed(violation)}.`);
  }
  const wanted = QUERY_WANTED[violation.keyword] ?? 'given once';
  return apiError('invalid_query', `Query parameter '${name}' must be ${wanted}, got ${shown(violation.data)}.`);
}

/** What a query value must be, by the keyword it broke (`type` means the parameter was repeated). */
const QUERY_WANTED: Record<string, string> = { pattern: 'a whole number (0 or more)', enum: 'true or false' };

/** `/actions/2` → `actions[2]`. */
function memberName(pointer: string): string {
  const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  return parts.map((p, i) => (i > 0 && /^\d+$/.test(p) ? `[${p}]` : i > 0 ? `.${p}` : p)).join('');
}

function allowed(violation: SchemaViolation): string {
  return Object.keys(violation.parentSchema?.properties ?? {}).join(', ');
}

/** What the value must be, from the keyword that failed. */
function expectation(violation: SchemaViolation): string {
  const p = violation.params;
  switch (violation.keyword) {
    case 'type':
      return `must be ${typeWords(p.type)}`;
    case 'minLength':
      return 'must not be empty';
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters long`;
    case 'pattern':
      return p.pattern === ID_PATTERN ? `is not a valid id: ${ID_RULE}` : `must match ${String(p.pattern)}`;
    case 'minimum':
      return `must be at least ${String(p.limit)}`;
    default:
      return `is not valid (${violation.keyword})`;
  }
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  array: 'a list',
  object: 'a JSON object',
  boolean: 'true or false',
  null: 'null',
};

/** `['string', 'null']` → `a string or null`. */
function typeWords(type: unknown): string {
  const types = Array.isArray(type) ? type : String(type).split(',');
  return types.map((t: string) => TYPE_WORDS[t] ?? t).join(' or ');
}
