import { GeneratorSyntaxError } from '../../core/errors.js';
import { parseGenerators } from '../../core/language/parser.js';
import type { ConditionExpr } from '../../core/language/ast.js';
import { scriptEngineOf, type Registries } from '../../core/plugin.js';
import { actionScriptsOf } from '../../core/scripting.js';

/** What an editor asks to have parsed as it is typed: a guard, an element's actions, or a generator string. */
export type CheckedKind = 'guard' | 'actions' | 'generator';

/** The verdict on one text: valid, or where it fails (1-based line and column) and why. */
export type ScriptVerdict =
  | { readonly valid: true }
  | { readonly valid: false; readonly message: string; readonly line: number; readonly column: number; readonly index: number | null };

/**
 * Parses what an editor is typing with the code load parses it with (docs/editor.md): a guard or actions by the
 * service's script engine, joined as a walk joins them, and a generator string by the generator language, its
 * names looked up in the registries. Nothing runs; the draft is not read. `index` names the action at fault.
 */
export function checkScript(registries: Registries, kind: CheckedKind, source: string | readonly string[]): ScriptVerdict {
  if (kind === 'generator') return checkGenerator(registries, typeof source === 'string' ? source : source.join(' '));
  const engine = scriptEngineOf(registries);
  if (kind === 'guard') {
    const found = engine.checkSyntax(typeof source === 'string' ? source : source.join('\n'), 'guard');
    return found === undefined ? { valid: true } : { valid: false, ...found, index: null };
  }
  const actions = typeof source === 'string' ? [source] : source;
  // Each action alone first, so that the error names the action it is in; then joined, as a walk runs them.
  for (let i = 0; i < actions.length; i++) {
    const found = engine.checkSyntax(actions[i], 'action');
    if (found !== undefined) return { valid: false, ...found, index: i };
  }
  const joined = actionScriptsOf(engine, actions);
  if (joined.length === 1 && actions.length > 1) {
    const found = engine.checkSyntax(joined[0], 'action');
    if (found !== undefined) return { valid: false, ...found, index: null };
  }
  return { valid: true };
}

function checkGenerator(registries: Registries, text: string): ScriptVerdict {
  try {
    for (const generator of parseGenerators(text)) {
      if (registries.generators.find(generator.name) === undefined) {
        return unknownName('generator', generator.name, generator.column, registries.generators.names());
      }
      const unknown = unknownCondition(registries, generator.condition);
      if (unknown !== undefined) return unknown;
    }
    return { valid: true };
  } catch (error) {
    if (!(error instanceof GeneratorSyntaxError)) throw error;
    return { valid: false, message: error.message, line: 1, column: error.column, index: null };
  }
}

function unknownCondition(registries: Registries, condition: ConditionExpr): ScriptVerdict | undefined {
  if (condition.kind !== 'call') {
    for (const operand of condition.operands) {
      const found = unknownCondition(registries, operand);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (registries.conditions.find(condition.name) !== undefined) return undefined;
  return unknownName('stop condition', condition.name, condition.column, registries.conditions.names());
}

function unknownName(what: string, name: string, column: number, known: readonly string[]): ScriptVerdict {
  return { valid: false, message: `Column ${column}: no ${what} '${name}'; known: ${known.join(', ')}.`, line: 1, column, index: null };
}
