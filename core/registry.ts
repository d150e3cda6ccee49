import { ErrorCodes, WalkerError } from './errors.js';

/** Anything a registry holds: looked up by name or alias, case-insensitively. */
export interface Named {
  readonly name: string;
  readonly aliases?: readonly string[];
}

/**
 * A table of named contributions (path generators, stop conditions or script engines) that plugins fill at
 * startup. Names and aliases are matched case-insensitively; registering a taken name is an error, and so is
 * looking up an unknown one, whose message lists what is registered.
 */
export class Registry<T extends Named> {
  private readonly byName = new Map<string, T>();
  private readonly owners = new Map<string, string>();
  private readonly items: T[] = [];

  /** @param kind what the registry holds, in messages: "path generator", "stop condition", "script engine". */
  constructor(readonly kind: string) {}

  /** Adds an item under its name and aliases. `owner` (a plugin name) appears in clash messages. */
  register(item: T, owner = 'walker'): void {
    const keys = [item.name, ...(item.aliases ?? [])].map((k) => k.toLowerCase());
    for (const key of keys) {
      const taken = this.owners.get(key);
      if (taken !== undefined) {
        throw new WalkerError(
          ErrorCodes.DUPLICATE_NAME,
          `The ${this.kind} name '${key}' of plugin '${owner}' is already registered by plugin '${taken}'.`,
        );
      }
    }
    for (const key of new Set(keys)) {
      this.byName.set(key, item);
      this.owners.set(key, owner);
    }
    this.items.push(item);
  }

  /** The item with this name or alias, or undefined. */
  find(name: string): T | undefined {
    return this.byName.get(name.toLowerCase());
  }

  /** The item with this name or alias; throws UNKNOWN_NAME listing the registered names. */
  get(name: string): T {
    const item = this.find(name);
    if (item === undefined) {
      throw new WalkerError(
        ErrorCodes.UNKNOWN_NAME,
        `Unknown ${this.kind} '${name}'. Known: ${this.names().join(', ') || '(none registered)'}.`,
      );
    }
    return item;
  }

  /** The registered items' own names (not aliases), in registration order. */
  names(): string[] {
    return this.items.map((i) => i.name);
  }

  /**
   * A view of this registry whose `register` records `owner` (a plugin's name) for clash messages. The view
   * reads and writes the same tables: it inherits everything but `register` from this registry.
   */
  forOwner(owner: string): Registry<T> {
    const view = Object.create(this) as Registry<T>;
    view.register = (item: T, by = owner) => this.register(item, by);
    return view;
  }

  /** The registered items, in registration order. */
  values(): readonly T[] {
    return this.items;
  }
}
