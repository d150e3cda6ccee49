import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ScriptError } from '../../../core/errors.js';
import { compilePlain, NotPlain, Unpredictable, type PlainScope, type PlainValue } from '../../../plugins/quickjs/plain-scripts.js';
import { createRandom } from '../../../core/random.js';
import { DEFAULT_SCRIPT_LIMITS, SNAPSHOT_SEPARATOR } from '../../../core/scripting.js';
import { createQuickJsEngine } from '../../../plugins/quickjs/index.js';

/**
 * Plain scripts run in the host during planning; they must compute exactly what QuickJS computes, or plans
 * would follow states the walk never reaches. Each case runs the same script both ways on the same variables
 * and compares the variables after it (as the snapshot text the planner keys states by) or the guard's answer;
 * a script that reads chance or time must be one in both (the host stops at the read, QuickJS tells of it).
 */

const engine = await createQuickJsEngine();
let told = false;
const sandbox = engine.createSandbox({
  scopes: 1,
  random: createRandom(1),
  limits: DEFAULT_SCRIPT_LIMITS,
  onUnpredictable: () => {
    told = true;
  },
});
afterAll(() => sandbox.dispose());
const origin = { modelId: 'm', elementId: 'e', field: 'actions' } as const;

const names = ['a', 'b', 'c'] as const;
/** The built-ins plain scripts call (core/planning/plain-library.ts), by how many arguments the cases give them. */
const ONE_ARGUMENT = [
  'Math.floor', 'Math.ceil', 'Math.round', 'Math.trunc', 'Math.abs', 'Math.sign', 'Math.sqrt', 'Math.fround', 'Math.clz32',
  'Number', 'String', 'Boolean', 'parseInt', 'parseFloat', 'isNaN', 'isFinite', 'Number.isInteger', 'Number.isSafeInteger',
  'Number.isFinite',
] as const;
const TWO_ARGUMENTS = ['Math.max', 'Math.min', 'Math.pow', 'Math.imul', 'parseInt'] as const;
const value = fc.oneof(
  fc.integer({ min: -20, max: 20 }),
  fc.constantFrom(0.5, 1.25, 1e21, 3, -2.5, 1e-7, 123456789.125, 2 ** 31),
  fc.boolean(),
  fc.constantFrom('', 'x', '1', 'ab', ' 12 ', '0x1f', '3.5e2', '-0'),
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
    fc.tuple(fc.constantFrom(...ONE_ARGUMENT), tie('e')).map(([f, e]) => `${f}(${e})`),
    fc.tuple(fc.constantFrom(...TWO_ARGUMENTS), tie('e'), tie('e')).map(([f, a, b]) => `${f}(${a}, ${b})`),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => `(${a} ** ${b})`),
    fc.constantFrom('Math.PI', 'Math.E', 'Math.SQRT2', 'Math.LN2'),
    fc.tuple(fc.constantFrom('Math.random()', 'Date.now()'), fc.constantFrom('&&', '||', '<', '+'), tie('e')).map(
      ([chance, op, e]) => `(${e} ${op} ${chance})`,
    ),
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

type Outcome =
  | { kind: 'state'; text: string }
  | { kind: 'guard'; value: boolean }
  | { kind: 'error' }
  | { kind: 'not plain' }
  | { kind: 'chance' };

function inHost(initial: Array<[string, PlainValue]>, source: string, kind: 'guard' | 'action'): Outcome {
  const run = compilePlain(source, kind, origin);
  if (run === undefined) return { kind: 'not plain' };
  const scope: PlainScope = new Map(initial);
  try {
    const result = run(scope);
    return kind === 'guard' ? { kind: 'guard', value: result as boolean } : { kind: 'state', text: text(scope) };
  } catch (error) {
    if (error instanceof NotPlain) return { kind: 'not plain' };
    if (error instanceof Unpredictable) return { kind: 'chance' };
    if (error instanceof ScriptError) return { kind: 'error' };
    throw error;
  }
}

function inQuickJs(initial: Array<[string, PlainValue]>, source: string, kind: 'guard' | 'action'): Outcome {
  sandbox.restore!(text(new Map(initial)));
  told = false;
  try {
    if (kind === 'guard') {
      const out = new Uint8Array(1);
      sandbox.prepareGuards(0, [source], [{ ...origin, field: 'guard' }]).evaluate(out);
      return told ? { kind: 'chance' } : { kind: 'guard', value: out[0] === 1 };
    }
    sandbox.run(0, source, origin);
    if (told) return { kind: 'chance' };
  } catch (error) {
    if (told) return { kind: 'chance' };
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

  it('leave other calls, members, loops, declarations and the global names to the sandbox', () => {
    const sandboxed = [
      'Math.exp(a)', 'Math.sin(1)', 'a.b = 1', 'a.length', 'while (a) a--', 'var a = 1', 'x = [1]', 'f()', 'a = undefined', 'y = NaN',
      'Math = 1', 'x = Math', 'x = typeof Math', 'x = Object', 'new Date()', 'Math["floor"](a)', 'Math.floor?.(a)', 'Math.max(...a)',
    ];
    for (const source of sandboxed) expect(compilePlain(source, 'action', origin), source).toBeUndefined();
    expect(compilePlain('a = 1; b', 'guard', origin)).toBeUndefined();
  });

  it('compute powers only where both engines are exact: whole numbers to a safe whole result', () => {
    const power = (source: string) => inHost([['a', 2]], source, 'action');
    expect(power('a = 3 ** 20')).toEqual({ kind: 'state', text: text(new Map([['a', 3 ** 20]])) });
    expect(power('a = Math.pow(a, 10)')).toEqual({ kind: 'state', text: text(new Map([['a', 1024]])) });
    for (const source of ['a = 2 ** 0.5', 'a = 2 ** -1', 'a = 3 ** 40', 'a **= 0.5']) expect(power(source), source).toEqual({ kind: 'not plain' });
  });
});
