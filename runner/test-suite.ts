import type { TestModule } from './load-module.js';

/** AltWalker's fixtures, in camelCase: the run's are module-level functions, a model's are methods of its class. */
export const RUN_FIXTURES = ['setUpRun', 'tearDownRun', 'beforeStep', 'afterStep'] as const;
export const MODEL_FIXTURES = ['setUpModel', 'tearDownModel', 'beforeStep', 'afterStep'] as const;
export type RunFixture = (typeof RUN_FIXTURES)[number];
export type ModelFixture = (typeof MODEL_FIXTURES)[number];

type Callable = (...args: unknown[]) => unknown;

/**
 * The test code of one run: the module's exports, with a class made once per model the first time it is asked
 * for (AltWalker makes one instance per run). A model's class (or object) is the export named as the model;
 * its methods are the step methods and the model's fixtures; the module's own exported functions are the
 * run's fixtures. An object exported as default is read the same way, for modules that export one.
 */
export class TestSuite {
  private readonly instances = new Map<string, object>();
  /** Lookups answered, bound once: a long walk asks for the same few methods again and again. */
  private readonly found = new Map<string, Callable | null>();
  private readonly scope: Readonly<Record<string, unknown>>;

  constructor(readonly module: TestModule) {
    const fallback = module.exports.default;
    this.scope =
      fallback !== null && typeof fallback === 'object' && !Array.isArray(fallback)
        ? { ...(fallback as Record<string, unknown>), ...module.exports }
        : module.exports;
  }

  /** The file the tests come from. */
  get file(): string {
    return this.module.file;
  }

  /** True when the module exports a class or object named as the model. */
  hasModel(model: string): boolean {
    const value = ownValue(this.scope, model);
    return typeof value === 'function' || (value !== null && typeof value === 'object');
  }

  /**
   * The function a step or fixture calls, bound to its model's instance, or undefined when there is none.
   * Without a model, a run-level fixture: a function the module exports.
   */
  lookup(model: string | undefined, name: string): Callable | undefined {
    const key = model === undefined ? name : `${model}\u0000${name}`;
    let fn = this.found.get(key);
    if (fn === undefined) this.found.set(key, (fn = this.find(model, name) ?? null));
    return fn ?? undefined;
  }

  private find(model: string | undefined, name: string): Callable | undefined {
    if (model === undefined) {
      const value = ownValue(this.scope, name);
      return typeof value === 'function' ? (value as Callable) : undefined;
    }
    const instance = this.instance(model);
    if (instance === undefined) return undefined;
    const method = (instance as Record<string, unknown>)[name];
    // Object.prototype's members (constructor, toString, ...) are not test methods of an element so named.
    if (typeof method !== 'function' || method === (Object.prototype as Record<string, unknown>)[name]) return undefined;
    return (method as Callable).bind(instance);
  }

  /** The names of the methods the model's class or object has, for `verify` and the executor. */
  methodsOf(model: string): Set<string> {
    const names = new Set<string>();
    const instance = this.instance(model);
    for (let o: object | null = instance ?? null; o !== null && o !== Object.prototype && o !== Function.prototype; o = Object.getPrototypeOf(o)) {
      for (const key of Object.getOwnPropertyNames(o)) {
        if (key !== 'constructor' && typeof (o as Record<string, unknown>)[key] === 'function') names.add(key);
      }
    }
    return names;
  }

  /** The model's instance, made on first use: a class is constructed once, an object is used as it is. */
  private instance(model: string): object | undefined {
    let instance = this.instances.get(model);
    if (instance !== undefined) return instance;
    const value = ownValue(this.scope, model);
    if (typeof value === 'function') instance = new (value as new () => object)();
    else if (value !== null && typeof value === 'object') instance = value;
    else return undefined;
    this.instances.set(model, instance);
    return instance;
  }
}

function ownValue(scope: Readonly<Record<string, unknown>>, name: string): unknown {
  return Object.hasOwn(scope, name) ? scope[name] : undefined;
}
