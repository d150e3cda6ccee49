import { afterEach, describe, expect, it } from 'vitest';
import { createRandom } from '../../../core/random.js';
import { DEFAULT_SCRIPT_LIMITS, type ScriptSandbox } from '../../../core/scripting.js';
import { createQuickJsEngine } from '../../../plugins/quickjs/index.js';
import { evaluateGuards, origin } from './contract-helpers.js';

const engine = await createQuickJsEngine();
const open: ScriptSandbox[] = [];

function sandbox(scopes = 2, onUnpredictable?: () => void): ScriptSandbox & Required<Pick<ScriptSandbox, 'snapshot' | 'restore'>> {
  const made = engine.createSandbox({ scopes, random: createRandom(7), limits: DEFAULT_SCRIPT_LIMITS, onUnpredictable });
  open.push(made);
  if (made.snapshot === undefined || made.restore === undefined) throw new Error('the QuickJS sandbox copies its variables');
  return made as ScriptSandbox & Required<Pick<ScriptSandbox, 'snapshot' | 'restore'>>;
}

afterEach(() => {
  for (const s of open.splice(0)) s.dispose();
});

describe('QuickJS sandbox snapshots (planning)', () => {
  it('copies every scope and sets them back, in the order variables were first assigned', () => {
    const s = sandbox();
    s.run(0, 'count = 2; items = ["a", {n: 1}]; open = true;', origin());
    s.run(1, 'other = "x";', origin('e1', 'actions', 'm1'));
    s.run(0, 'global.total = 5;', origin());
    const before = s.snapshot();
    s.run(0, 'count++; items.push(3); fresh = null;', origin());
    s.run(0, 'global.total = 6;', origin());
    expect(s.snapshot()).not.toBe(before);
    s.restore(before!);
    expect(s.snapshot()).toBe(before);
    expect(s.variables(0)).toEqual([
      ['count', '2'],
      ['items', '["a",{"n":1}]'],
      ['open', 'true'],
      ['global.total', '5'],
    ]);
    expect(evaluateGuards(s, 0, ['count === 2 && items.length === 2', 'typeof fresh === "undefined"'])).toEqual([1, 1]);
  });

  it('is equal for equal variables, and carries into another sandbox of the same engine', () => {
    const a = sandbox();
    const b = sandbox();
    a.run(0, 'x = 1; y = [1, 2];', origin());
    b.run(0, 'x = 0; x++; y = [1]; y.push(2);', origin());
    expect(a.snapshot()).toBe(b.snapshot());
    const c = sandbox();
    c.restore(a.snapshot()!);
    expect(c.variables(0)).toEqual([['x', '1'], ['y', '[1,2]']]);
  });

  it('has no copy of values JSON cannot carry faithfully', () => {
    for (const script of ['f = function () {};', 'u = undefined;', 'n = NaN;', 'd = new Date(0);', 'z = -0;', 'a = [1, , 3];', 'o = {get g() { return 1; }};']) {
      const s = sandbox(1);
      s.run(0, script, origin());
      expect(s.snapshot(), script).toBeUndefined();
    }
  });

  it('tells a planning sandbox of every read of chance or time, and a walk never', () => {
    let told = 0;
    const s = sandbox(1, () => told++);
    s.run(0, 'x = 1;', origin());
    expect(told).toBe(0);
    s.run(0, 'r = Math.random();', origin());
    expect(told).toBe(1);
    s.run(0, 't = Date.now(); d = new Date().getTime();', origin());
    expect(told).toBe(3);
  });
});
