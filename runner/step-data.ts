import type { Machine } from '../core/machine/machine.js';
import type { ScriptEngine } from '../core/scripting.js';
import { RunnerError, RunnerErrorCodes } from './errors.js';

/** The data a step method receives, and how each value read, so that only what the test changed is written. */
export interface StepData {
  readonly values: Record<string, unknown>;
  readonly read: ReadonlyMap<string, string>;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const NOTHING_READ: ReadonlyMap<string, string> = new Map();
const SHARED = 'global.';

/**
 * The walk's variables as plain values: the current model's, then the shared ones as `global.<name>`. When the
 * engine cannot copy some value faithfully (a function a model action made, say), the values are read from
 * their text instead: numbers, booleans and JSON as such, anything else as a string.
 */
export function readStepData(machine: Machine): StepData {
  const values = machine.plainVariables() ?? Object.fromEntries(machine.variables().map(([name, text]) => [name, valueOfText(text)]));
  const keys = Object.keys(values);
  const read = keys.length === 0 ? NOTHING_READ : new Map<string, string>();
  for (const key of keys) (read as Map<string, string>).set(key, literalOf(values[key], key) ?? '');
  return { values, read };
}

/**
 * Writes back what the test changed or added, through the walk's setData path, so guards see it before the
 * next choice. Everything is checked before anything is written: a value the sandbox cannot hold (a
 * function, a symbol, a cycle, a class instance) or a name that is no variable name is refused with a
 * RUNNER_DATA error naming it, and the walk is left as it was. Keys the test deleted are left alone.
 */
export function writeStepData(machine: Machine, engine: ScriptEngine, data: StepData, where: string): void {
  const own: string[] = [];
  const shared: string[] = [];
  for (const key of Object.keys(data.values)) {
    const literal = literalOf(data.values[key], key, where);
    if (literal === undefined || data.read.get(key) === literal) continue;
    const name = key.startsWith(SHARED) ? key.slice(SHARED.length) : key;
    if (!IDENTIFIER.test(name)) {
      throw new RunnerError(RunnerErrorCodes.DATA, `${where} wrote data['${key}']: a data key must be a variable name (letters, digits, _ and $, not starting with a digit)`);
    }
    (key.startsWith(SHARED) ? shared : own).push(`${key} = ${literal};`);
  }
  const scripts = [own.join('\n'), shared.join('\n')].filter((s) => s !== '');
  for (const script of scripts) {
    const wrong = engine.checkSyntax(script, 'action');
    if (wrong !== undefined) {
      const line = script.split('\n')[wrong.line - 1] ?? '';
      throw new RunnerError(RunnerErrorCodes.DATA, `${where} wrote data the walk cannot take (${line.split(' = ')[0]}): ${wrong.message}`);
    }
  }
  for (const script of scripts) machine.setData(script);
}

/**
 * The value as a script literal, or undefined for `undefined`. With `where`, a value the sandbox cannot hold
 * is an error naming the key and the path inside it; without, it is undefined too (values read from the walk
 * always have one).
 */
export function literalOf(value: unknown, key: string, where?: string): string | undefined {
  const refuse = (path: string, why: string): never => {
    throw new RunnerError(RunnerErrorCodes.DATA, `${where} wrote data['${key}']${path}: ${why}, which the walk's variables cannot hold; write plain values (numbers, strings, booleans, null, lists and plain objects)`);
  };
  const seen = new Set<object>();
  const encode = (v: unknown, path: string): string => {
    switch (typeof v) {
      case 'number':
        return Object.is(v, -0) ? '-0' : String(v);
      case 'string':
        // The sandbox runs a script that mentions `global.` in the shared scope with every `global.` removed:
        // inside a string it is written with an escape that reads back as the same text.
        return JSON.stringify(v).replaceAll('global.', 'global\\u002e');
      case 'boolean':
        return String(v);
      case 'undefined':
        return 'undefined';
      case 'function':
        return refuse(path, 'a function');
      case 'symbol':
        return refuse(path, 'a symbol');
      case 'bigint':
        return refuse(path, 'a bigint');
    }
    if (v === null) return 'null';
    const o = v as object;
    if (seen.has(o)) return refuse(path, 'a cycle (the value contains itself)');
    seen.add(o);
    let text: string;
    if (Array.isArray(o)) {
      text = `[${o.map((item, i) => encode(item, `${path}[${i}]`)).join(',')}]`;
    } else {
      const proto = Object.getPrototypeOf(o) as unknown;
      if (proto !== Object.prototype && proto !== null) return refuse(path, `an instance of ${(o.constructor as { name?: string } | undefined)?.name ?? 'a class'}`);
      text = `{${Object.keys(o)
        .map((k) => `${encode(k, path)}:${encode((o as Record<string, unknown>)[k], `${path}.${k}`)}`)
        .join(',')}}`;
    }
    seen.delete(o);
    return text;
  };
  if (value === undefined) return undefined;
  if (where === undefined) {
    try {
      return encode(value, '');
    } catch {
      return undefined;
    }
  }
  return encode(value, '');
}

/** A variable as getData writes it (core/scripting.ts, and GraphWalker's getData), back as a value. */
export function valueOfText(text: string): unknown {
  if (text === 'true' || text === 'false') return text === 'true';
  if (text !== '' && text.trim() === text && !Number.isNaN(Number(text))) return Number(text);
  if (text.startsWith('{') || text.startsWith('[') || text === 'null') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}
