import vm from 'node:vm';
import type { GuardSet, SandboxOptions, ScriptEngine, ScriptSandbox, ScriptSyntaxError } from '../../core/scripting.js';
import { ScriptError, type ScriptOrigin } from '../../core/errors.js';

/**
 * A script engine on node:vm for machine tests that must not depend on the QuickJS plugin. It is not a
 * sandbox (node:vm is no security boundary) and has no limits; it only follows the scope rules.
 */
export function vmEngine(): ScriptEngine {
  return { name: 'vm', createSandbox: (options) => new VmSandbox(options), checkSyntax };
}

/** Compiles without running; V8 shows where in its stack: `script:<line>`, the line, and a caret under the column. */
function checkSyntax(source: string): ScriptSyntaxError | undefined {
  try {
    new vm.Script(source.replaceAll('global.', ''), { filename: 'script' });
    return undefined;
  } catch (error) {
    const e = error as Error;
    const [where = '', , caret = ''] = (e.stack ?? '').split('\n');
    return { message: `${e.name}: ${e.message}`, line: Number(/:(\d+)$/.exec(where)?.[1] ?? 1), column: caret.indexOf('^') + 1 || 1 };
  }
}

class VmSandbox implements ScriptSandbox {
  private contexts: vm.Context[] = [];
  private shared!: vm.Context;

  constructor(private readonly options: SandboxOptions) {
    this.reset();
  }

  run(scope: number, source: string, origin: ScriptOrigin): void {
    this.evaluate(scope, source, origin);
  }

  prepareGuards(scope: number, sources: readonly string[], origins: readonly ScriptOrigin[]): GuardSet {
    return {
      evaluate: (out) => {
        sources.forEach((source, i) => {
          const value = this.evaluate(scope, source, origins[i]);
          if (typeof value !== 'boolean') throw new ScriptError(`Guard returned ${String(value)}`, origins[i]);
          out[i] = value ? 1 : 0;
        });
      },
    };
  }

  variables(scope: number): Array<[string, string]> {
    const own = Object.entries(this.contexts[scope]).filter(([k]) => k !== 'Math');
    const shared = Object.entries(this.shared).filter(([k]) => k !== 'Math').map(([k, v]) => [`global.${k}`, v] as const);
    return [...own, ...shared].map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]);
  }

  reset(): void {
    const make = (): vm.Context => {
      const math = Object.create(Math) as Math;
      math.random = () => this.options.random.next();
      const context = vm.createContext({});
      Object.defineProperty(context, 'Math', { value: math, enumerable: false });
      return context;
    };
    this.contexts = Array.from({ length: this.options.scopes }, make);
    this.shared = make();
  }

  dispose(): void {
    this.contexts = [];
  }

  private evaluate(scope: number, source: string, origin: ScriptOrigin): unknown {
    const global = source.includes('global.');
    const context = global ? this.shared : this.contexts[scope];
    try {
      return vm.runInContext(global ? source.replaceAll('global.', '') : source, context);
    } catch (error) {
      const e = error as Error;
      throw new ScriptError(`${e.name}: ${e.message}`, origin);
    }
  }
}
