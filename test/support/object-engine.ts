import { ScriptError, type ScriptOrigin } from '../../core/errors.js';
import { SNAPSHOT_SEPARATOR, type GuardSet, type SandboxOptions, type ScriptEngine, type ScriptSandbox } from '../../core/scripting.js';

/**
 * A second script engine, for tests of the ScriptEngine contract: scripts run as host JavaScript over a plain
 * object per scope (no isolation at all, so never for models one does not trust). Its scope rule is not
 * GraphWalker's: every script runs in its model's scope, and nothing is shared. It offers `snapshot` and
 * `restore`, so planning explores its states in its sandbox; it offers no host stepper.
 */
export function objectEngine(name = 'objects'): ScriptEngine {
  return {
    name,
    createSandbox: (options) => new ObjectSandbox(options),
    checkSyntax(source, kind) {
      try {
        new Function('scope', body(source, kind));
        return undefined;
      } catch (error) {
        return { message: String(error), line: 1, column: 1 };
      }
    },
  };
}

/** Reads and writes every name through the scope, but for the built-ins a script may call. */
function scopeProxy(values: Map<string, unknown>): object {
  return new Proxy(Object.create(null) as object, {
    has: (_target, key) => typeof key === 'string' && !(key in globalThis && !values.has(key)),
    get: (_target, key) => (typeof key === 'string' ? values.get(key) : undefined),
    set: (_target, key, value) => {
      if (typeof key === 'string') values.set(key, value);
      return true;
    },
  });
}

function body(source: string, kind: 'guard' | 'action'): string {
  return `with (scope) { ${kind === 'guard' ? `return (${source});` : source} }`;
}

class ObjectSandbox implements ScriptSandbox {
  private scopes: Array<Map<string, unknown>>;

  constructor(private readonly options: SandboxOptions) {
    this.scopes = this.fresh();
  }

  run(scope: number, source: string, origin: ScriptOrigin): void {
    this.call(scope, source, 'action', origin);
  }

  prepareGuards(scope: number, sources: readonly string[], origins: readonly ScriptOrigin[]): GuardSet {
    return {
      evaluate: (out) => {
        sources.forEach((source, i) => {
          const value = source.trim() === '' ? true : this.call(scope, source, 'guard', origins[i]);
          if (typeof value !== 'boolean') throw new ScriptError('Guard did not return a boolean', origins[i]);
          out[i] = value ? 1 : 0;
        });
      },
    };
  }

  variables(scope: number): Array<[string, string]> {
    return [...this.scopes[scope]].map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]);
  }

  snapshot(): string {
    return this.scopes.map((values) => (values.size === 0 ? '' : JSON.stringify([...values].flat()))).join(SNAPSHOT_SEPARATOR);
  }

  restore(state: string): void {
    this.scopes = state.split(SNAPSHOT_SEPARATOR).map((part) => {
      const flat = part === '' ? [] : (JSON.parse(part) as unknown[]);
      const values = new Map<string, unknown>();
      for (let i = 0; i < flat.length; i += 2) values.set(String(flat[i]), flat[i + 1]);
      return values;
    });
  }

  reset(): void {
    this.scopes = this.fresh();
  }

  dispose(): void {
    this.scopes = [];
  }

  private fresh(): Array<Map<string, unknown>> {
    return Array.from({ length: this.options.scopes + 1 }, () => new Map<string, unknown>());
  }

  private call(scope: number, source: string, kind: 'guard' | 'action', origin: ScriptOrigin): unknown {
    try {
      return (new Function('scope', body(source, kind)) as (scope: object) => unknown)(scopeProxy(this.scopes[scope]));
    } catch (error) {
      throw new ScriptError(String(error), origin);
    }
  }
}
