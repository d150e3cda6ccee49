/**
 * GraphWalker's scope rule, which this engine owns (core/scripting.ts leaves it to the engine): a script that
 * mentions `global.` runs, with every `global.` removed, in the walk's shared scope; any other script runs in
 * its model's scope. The sandbox, the compiler, the syntax check and the host stepper all apply it from here.
 */
const GLOBAL_PREFIX = 'global.';

/** Whether the script runs in the shared scope. */
export function mentionsGlobal(source: string): boolean {
  return source.includes(GLOBAL_PREFIX);
}

/** The script as the shared scope runs it. */
export function withoutGlobal(source: string): string {
  return source.replaceAll(GLOBAL_PREFIX, '');
}

/** The scope a script runs in, and the code that runs there. */
export function splitGlobal(source: string): { shared: boolean; code: string } {
  return mentionsGlobal(source) ? { shared: true, code: withoutGlobal(source) } : { shared: false, code: source };
}

/**
 * The scripts an element's actions run as: actions that all run in the model's own scope are joined into one
 * script, a line each (one sandbox call per step, and a yEd action split at every `;` runs whole again). An
 * action that mentions `global.` runs in the shared scope, so such lists are kept apart.
 */
export function actionScripts(actions: readonly string[]): readonly string[] {
  return actions.length <= 1 || actions.some(mentionsGlobal) ? actions : [actions.join('\n')];
}

/**
 * The column in `source` of a position the engine found in the script with every `global.` removed: removing
 * them never joins lines, so only the `global.`s before the position on its line move it. Columns count
 * characters (code points), as QuickJS counts them.
 */
export function sourceColumn(source: string, line: number, column: number): number {
  const text = source.split('\n')[line - 1];
  if (text === undefined || !mentionsGlobal(text)) return column;
  const chars = Array.from(text);
  let kept = 0;
  let at = 0;
  while (at < chars.length && kept < column - 1) {
    if (chars.slice(at, at + GLOBAL_PREFIX.length).join('') === GLOBAL_PREFIX) at += GLOBAL_PREFIX.length;
    else {
      at++;
      kept++;
    }
  }
  return at + 1;
}
