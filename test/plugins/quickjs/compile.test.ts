import { describe, expect, it } from 'vitest';
import { canWrapAsFunction, guardExpression, isBlank } from '../../../plugins/quickjs/compile.js';
import { splitGlobal } from '../../../plugins/quickjs/shared-scope.js';

describe('QuickJS compile strategy', () => {
  it.each(['x++;', 'x = y + 1;', 'f = function () { return 1; };', 'f = function(a, b) { return a + b; };', 'if (x) { y = 1; }'])(
    'compiles %s into a function',
    (source) => expect(canWrapAsFunction(source)).toBe(true),
  );

  it.each([
    'var y = 1;',
    'let y = 1;',
    'const y = 1;',
    'class A {}',
    'function f() {}',
    'f = function named() {};',
    'x = arguments;',
    'eval("y = 1");',
  ])('evaluates %s as a script each time', (source) => expect(canWrapAsFunction(source)).toBe(false));

  it('reads guards as expressions where that means the same', () => {
    expect(guardExpression('x > 1')).toBe('x > 1');
    expect(guardExpression(' x > 1;; ')).toBe('x > 1');
    expect(guardExpression('{ x > 1 }')).toBeUndefined();
    expect(guardExpression('var t = 1; t > 0')).toBeUndefined();
    expect(guardExpression('  ')).toBeUndefined();
  });

  it('moves scripts that mention global. to the shared scope, without the prefix', () => {
    expect(splitGlobal('global.x = global.x + 1;')).toEqual({ shared: true, code: 'x = x + 1;' });
    expect(splitGlobal('x = 1;')).toEqual({ shared: false, code: 'x = 1;' });
  });

  // Whitespace as String.prototype.trim knows it, also beyond ASCII, where the quick look at the first
  // character does not decide.
  it.each(['', ' ', '\n\t \r', '\u00a0', '\ufeff', '\u2028 \u3000'])('takes %j for a blank script', (source) =>
    expect(isBlank(source)).toBe(true),
  );

  it.each(['x', '~', ' x', '\n// note', '\u00a0x', '\u00e9 = 1;', '\u0000'])('takes %j for a script', (source) =>
    expect(isBlank(source)).toBe(false),
  );
});
