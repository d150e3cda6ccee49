import { parse, type Expression, type Node, type Statement } from 'acorn';
import { ScriptError, type ScriptOrigin } from '../../core/errors.js';
import { exactPower, GLOBAL_NAMES, NotPlain, PLAIN_CONSTANTS, PLAIN_FUNCTIONS } from './plain-library.js';

export { NotPlain, Unpredictable } from './plain-library.js';

/**
 * Plain scripts: guards and actions that only read and assign variables holding numbers, strings, booleans
 * or null, with JavaScript's operators, `if`, blocks and the built-ins of plain-library.ts (`Math.floor`,
 * `parseInt`, ...) — most guards and actions of real models (`count < 3`, `loggedIn = true; tries++`). The planner explores states by the hundred thousand, and the
 * round trip into QuickJS for every guard, action and copy of the variables costs a hundred times what the
 * script does; so a plain script is compiled into a host closure over a map of the variables, which is all it
 * can reach: it names no object, calls only functions of primitives that JavaScript defines to the bit, and
 * loops nowhere, so it can neither escape nor run long. The operators are the host's own on primitive
 * values, which JavaScript defines exactly, so the closure computes what QuickJS would (a test compares the
 * two on every fixture and on random scripts). `Math.random()` and `Date.now()` throw {@link Unpredictable}:
 * the exploration then knows that chance or time decides. Anything else (another call, a member, a loop, a
 * declaration, a name of the global scope) is not plain: the walk's states are then explored in the sandbox.
 */

/** The variables of one scope, in the order they were first assigned. */
export type PlainScope = Map<string, PlainValue>;
export type PlainValue = number | string | boolean | null;

/** A compiled plain script: runs on a scope; a guard's closure returns its value. */
export type PlainScript = (scope: PlainScope) => unknown;

/** Strings longer than this end plain evaluation (a script doubling a string would otherwise fill the host). */
const MAX_STRING = 1 << 16;

/**
 * Compiles `source` (without its `global.` prefixes) as a guard (one expression) or an action (statements);
 * undefined when it is not plain. A failure while running (a variable never assigned, a guard that is not
 * boolean) throws a ScriptError with `origin`, as the sandbox would.
 */
export function compilePlain(source: string, kind: 'guard' | 'action', origin: ScriptOrigin): PlainScript | undefined {
  let program;
  try {
    program = parse(source, { ecmaVersion: 2022, sourceType: 'script' });
  } catch {
    return undefined;
  }
  try {
    if (kind === 'guard') {
      const [only] = program.body;
      if (program.body.length !== 1 || only.type !== 'ExpressionStatement') return undefined;
      const test = expression(only.expression, origin);
      return (scope) => {
        const value = test(scope);
        if (typeof value !== 'boolean') throw new ScriptError(`Guard returned ${String(value)}; a guard must evaluate to true or false`, origin);
        return value;
      };
    }
    const body = program.body.map((s) => statement(s, origin));
    return (scope) => {
      for (const run of body) run(scope);
      return undefined;
    };
  } catch (error) {
    if (error instanceof NotPlain) return undefined;
    throw error;
  }
}

type Run = (scope: PlainScope) => PlainValue | undefined;

function statement(node: Statement | Node, origin: ScriptOrigin): Run {
  switch (node.type) {
    case 'ExpressionStatement': {
      const e = expression((node as { expression: Expression }).expression, origin);
      return (scope) => (e(scope), undefined);
    }
    case 'EmptyStatement':
      return () => undefined;
    case 'BlockStatement': {
      const body = (node as { body: Statement[] }).body.map((s) => statement(s, origin));
      return (scope) => {
        for (const run of body) run(scope);
        return undefined;
      };
    }
    case 'IfStatement': {
      const n = node as { test: Expression; consequent: Statement; alternate?: Statement | null };
      const test = expression(n.test, origin);
      const then = statement(n.consequent, origin);
      const otherwise = n.alternate ? statement(n.alternate, origin) : undefined;
      return (scope) => (test(scope) ? then(scope) : otherwise?.(scope), undefined);
    }
    default:
      throw new NotPlain(node.type);
  }
}

function expression(node: Expression | Node, origin: ScriptOrigin): Run {
  switch (node.type) {
    case 'Literal': {
      const value = (node as { value: unknown }).value;
      if (value !== null && !['number', 'string', 'boolean'].includes(typeof value)) throw new NotPlain('literal');
      return () => value as PlainValue;
    }
    case 'Identifier': {
      const name = variableName(node);
      return (scope) => read(scope, name, origin);
    }
    case 'MemberExpression': {
      const value = PLAIN_CONSTANTS.get(dottedName(node));
      if (value === undefined) throw new NotPlain('member');
      return () => value;
    }
    case 'CallExpression': {
      const n = node as { callee: Node; arguments: Node[]; optional: boolean };
      const fn = PLAIN_FUNCTIONS.get(dottedName(n.callee));
      if (fn === undefined || n.optional) throw new NotPlain('call');
      const args = n.arguments.map((a) => expression(a, origin));
      return (scope) => checked(fn(...args.map((a) => a(scope))));
    }
    case 'UnaryExpression': {
      const n = node as { operator: string; argument: Expression };
      if (n.operator === 'typeof' && n.argument.type === 'Identifier') {
        const name = variableName(n.argument);
        return (scope) => (scope.has(name) ? typeof scope.get(name) : 'undefined');
      }
      const arg = expression(n.argument, origin);
      switch (n.operator) {
        case '!':
          return (scope) => !arg(scope);
        case '-':
          return (scope) => -(arg(scope) as number);
        case '+':
          return (scope) => +(arg(scope) as number);
        case '~':
          return (scope) => ~(arg(scope) as number);
        case 'typeof':
          return (scope) => typeof arg(scope);
        default:
          throw new NotPlain(n.operator);
      }
    }
    case 'BinaryExpression': {
      const n = node as { operator: string; left: Expression; right: Expression };
      const op = BINARY[n.operator];
      if (op === undefined) throw new NotPlain(n.operator);
      const left = expression(n.left, origin);
      const right = expression(n.right, origin);
      return (scope) => checked(op(left(scope), right(scope)));
    }
    case 'LogicalExpression': {
      const n = node as { operator: string; left: Expression; right: Expression };
      const left = expression(n.left, origin);
      const right = expression(n.right, origin);
      if (n.operator === '&&') return (scope) => left(scope) && right(scope);
      if (n.operator === '||') return (scope) => left(scope) || right(scope);
      return (scope) => left(scope) ?? right(scope);
    }
    case 'ConditionalExpression': {
      const n = node as { test: Expression; consequent: Expression; alternate: Expression };
      const test = expression(n.test, origin);
      const yes = expression(n.consequent, origin);
      const no = expression(n.alternate, origin);
      return (scope) => (test(scope) ? yes(scope) : no(scope));
    }
    case 'SequenceExpression': {
      const parts = (node as { expressions: Expression[] }).expressions.map((e) => expression(e, origin));
      return (scope) => {
        let value: PlainValue | undefined;
        for (const part of parts) value = part(scope);
        return value;
      };
    }
    case 'AssignmentExpression': {
      const n = node as { operator: string; left: Node; right: Expression };
      if (n.left.type !== 'Identifier') throw new NotPlain('assignment target');
      const name = variableName(n.left);
      const right = expression(n.right, origin);
      if (n.operator === '=') return (scope) => write(scope, name, right(scope));
      const op = BINARY[n.operator.slice(0, -1)];
      if (op === undefined) throw new NotPlain(n.operator);
      return (scope) => write(scope, name, checked(op(read(scope, name, origin), right(scope))));
    }
    case 'UpdateExpression': {
      const n = node as { operator: string; prefix: boolean; argument: Node };
      if (n.argument.type !== 'Identifier') throw new NotPlain('update target');
      const name = variableName(n.argument);
      const delta = n.operator === '++' ? 1 : -1;
      return (scope) => {
        const old = +(read(scope, name, origin) as number);
        write(scope, name, old + delta);
        return n.prefix ? old + delta : old;
      };
    }
    case 'ParenthesizedExpression':
      return expression((node as { expression: Expression }).expression, origin);
    default:
      throw new NotPlain(node.type);
  }
}

/** The name of a variable; a name the global scope holds already is not plain (plain-library.ts). */
function variableName(node: Node): string {
  const name = (node as unknown as { name: string }).name;
  if (GLOBAL_NAMES.has(name)) throw new NotPlain(name);
  return name;
}

/** `Math.floor` for a member of a name, `parseInt` for a name; '' for anything else (which no table holds). */
function dottedName(node: Node): string {
  if (node.type === 'Identifier') return (node as unknown as { name: string }).name;
  if (node.type !== 'MemberExpression') return '';
  const m = node as unknown as { object: Node; property: Node; computed: boolean; optional: boolean };
  if (m.computed || m.optional || m.object.type !== 'Identifier' || m.property.type !== 'Identifier') return '';
  return `${(m.object as unknown as { name: string }).name}.${(m.property as unknown as { name: string }).name}`;
}

function read(scope: PlainScope, name: string, origin: ScriptOrigin): PlainValue {
  const value = scope.get(name);
  if (value === undefined) throw new ScriptError(`ReferenceError: ${name} is not defined`, origin);
  return value;
}

function write(scope: PlainScope, name: string, value: PlainValue | undefined): PlainValue | undefined {
  if (value === undefined) throw new NotPlain('undefined');
  scope.set(name, checked(value));
  return value;
}

/** Values a copy of the variables holds faithfully, and strings of a bounded length. */
function checked(value: unknown): PlainValue {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || Object.is(value, -0)) throw new NotPlain('number');
    return value;
  }
  if (typeof value === 'string') {
    if (value.length > MAX_STRING) throw new NotPlain('long string');
    return value;
  }
  if (typeof value === 'boolean' || value === null) return value;
  throw new NotPlain(typeof value);
}

type Operator = (a: unknown, b: unknown) => unknown;
/* eslint-disable @typescript-eslint/no-explicit-any -- the host's own operators, on primitives only */
const BINARY: Record<string, Operator> = {
  '+': (a: any, b: any) => a + b,
  '-': (a: any, b: any) => a - b,
  '*': (a: any, b: any) => a * b,
  '/': (a: any, b: any) => a / b,
  '%': (a: any, b: any) => a % b,
  '**': exactPower,
  '==': (a, b) => a == b,
  '!=': (a, b) => a != b,
  '===': (a, b) => a === b,
  '!==': (a, b) => a !== b,
  '<': (a: any, b: any) => a < b,
  '<=': (a: any, b: any) => a <= b,
  '>': (a: any, b: any) => a > b,
  '>=': (a: any, b: any) => a >= b,
  '&': (a: any, b: any) => a & b,
  '|': (a: any, b: any) => a | b,
  '^': (a: any, b: any) => a ^ b,
  '<<': (a: any, b: any) => a << b,
  '>>': (a: any, b: any) => a >> b,
  '>>>': (a: any, b: any) => a >>> b,
};
