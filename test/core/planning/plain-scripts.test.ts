import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ScriptError } from '../../../core/errors.js';
import { compilePlain, NotPlain, type PlainScope, type PlainValue } from '../../../core/planning/plain-scripts.js';
import { createRandom } from '../../../core/random.js';
import { DEFAULT_SCRIPT_LIMITS, SNAPSHOT_SEPARATOR } from '../../../core/scripting.js';
import { createQuickJsEngine } from '../../../plugins/quickjs/index.js';

/**
 * Plain scripts run in the host during planning; they must compute exactly what QuickJS computes, or plans
 * would follow states the walk never reaches. Each case runs the same script both ways on the same variables
 * and compares the variables after it (as the snapshot text the planner keys states by) or the guard's answer.
 */

const engine = await createQuickJsEngine();
const sandbox = engine.createSandbox({ scopes: 1, random: createRandom(1), limits: DEFAULT_SCRIPT_LIMITS });
afterAll(() => sandbox.dispose());
const origin = { modelId: 'm', elementId: 'e', field: 'actions' } as const;

const names = ['a', 'b', 'c'] as const;
const value = fc.oneof(
  fc.integer({ min: -20, max: 20 }),
  fc.constantFrom(0.5, 1.25, 1e21, 3),
  fc.boolean(),
  fc.constantFrom('', 'x', '1', 'ab'),
  fc.constant(null),
);
const literal = value.map((v) => (typeof v === 'string' ? JSON.stringify(v) : String(v)));
const expression: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...names),
    literal,
    fc.tuple(tie('e'), fc.constantFrom('+', '-', '*', '/', '%', '==', '!=', '===', '!==', '<', '<=', '>', '>=', '&&', '||', '??', '&', '|', '<<'), tie('e')).map(
      ([l, op, r]) => `(${l} ${op} ${r})`,
    ),
    fc.tuple(fc.constantFrom('!', '-', '+', 'typeof '), tie('e')).map(([op, e]) => `(${op}${e})`),
    fc.tuple(tie('e'), tie('e'), tie('e')).map(([t, y, n]) => `(${t} ? ${y} : ${n})`),
  ),
})).e;
const statement = fc.oneof(
  fc.tuple(fc.constantFrom(...names, 'd'), fc.constantFrom('=', '+=', '-=', '*='), expression).map(([n, op, e]) => `${n} ${op} ${e};`),
  fc.tuple(fc.constantFrom(...names), fc.constantFrom('++', '--')).map(([n, op]) => `${n}${op};`),
  fc.tuple(expression, fc.constantFrom(...names), expression).map(([t, n, e]) => `if (${t}) { ${n} = ${e}; } else ${n}++;`),
);

/** The variables as the planner's snapshot text (one model scope, no shared variables). */
function text(scope: PlainScope): string {
  const flat: PlainValue[] = [];
  for (const [n, v] of scope) flat.push(n, v);
  return (flat.length === 0 ? '' : JSON.stringify(flat)) + SNAPSHOT_SEPARATOR;
}

type Outcome = { kind: 'state'; text: string } | { kind: 'guard'; value: boolean } | { kind: 'error' } | { kind: 'not plain' };

function inHost(initial: Array<[string, PlainValue]>, source: string, kind: 'guard' | 'action'): Outcome {
  const run = compilePlain(source, kind, origin);
  if (run === undefined) return { kind: 'not plain' };
  const scope: PlainScope = new Map(initial);
  try {
    const result = run(scope);
    return kind === 'guard' ? { kind: 'guard', value: result as boolean } : { kind: 'state', text: text(scope) };
  } catch (error) {
    if (error instanceof NotPlain) return { kind: 'not plain' };
    if (error instanceof ScriptError) return { kind: 'error' };
    throw error;
  }
}

function inQuickJs(initial: Array<[string, PlainValue]>, source: string, kind: 'guard' | 'action'): Outcome {
  sandbox.restore!(text(new Map(initial)));
  try {
    if (kind === 'guard') {
      const out = new Uint8Array(1);
      sandbox.prepareGuards(0, [source], [{ ...origin, field: 'guard' }]).evaluate(out);
      return { kind: 'guard', value: out[0] === 1 };
    }
    sandbox.run(0, source, origin);
  } catch (error) {
    if (error instanceof ScriptError) return { kind: 'error' };
    throw error;
  }
  const copy = sandbox.snapshot!();
  return copy === undefined ? { kind: 'not plain' } : { kind: 'state', text: copy };
}

const variables = fc.tuple(value, value, value).map((vs) => vs.map((v, i): [string, PlainValue] => [names[i], v]));

describe('plain scripts', () => {
  it('assign what QuickJS assigns, fail where it fails', () => {
    let compared = 0;
    fc.assert(
      fc.property(variables, fc.array(statement, { minLength: 1, maxLength: 3 }), (initial, statements) => {
        const source = statements.join(' ');
        const host = inHost(initial, source, 'action');
        // A value plain evaluation does not hold (Infinity, NaN, -0) sends the exploration to the sandbox.
        if (host.kind === 'not plain') return;
        compared++;
        expect(host, source).toEqual(inQuickJs(initial, source, 'action'));
      }),
      { numRuns: 400, seed: 13 },
    );
    expect(compared).toBeGreaterThan(200);
  });

  it('open the edges QuickJS opens', () => {
    let compared = 0;
    fc.assert(
      fc.property(variables, expression, (initial, guard) => {
        const host = inHost(initial, guard, 'guard');
        if (host.kind === 'not plain') return;
        compared++;
        expect(host, guard).toEqual(inQuickJs(initial, guard, 'guard'));
      }),
      { numRuns: 400, seed: 7 },
    );
    expect(compared).toBeGreaterThan(300);
  });

  it('leave calls, members, loops and declarations to the sandbox', () => {
    for (const source of ['Math.max(a, 1)', 'a.b = 1', 'while (a) a--', 'var a = 1', 'x = [1]', 'f()', 'a = undefined', 'y = NaN']) {
      expect(compilePlain(source, 'action', origin), source).toBeUndefined();
    }
    expect(compilePlain('a = 1; b', 'guard', origin)).toBeUndefined();
  });
});
