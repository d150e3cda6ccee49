/**
 * The XML namespace bindings in force while a document is read, by prefix ('' for the default namespace). A
 * declaration replaces a binding when its element opens and puts the one it replaced back when the element
 * closes: one step each, however many bindings are in force. Copying the bindings per declaration instead made
 * a root of many `xmlns:` attributes, or deep elements that each declare one, take quadratic time.
 */

/** Declarations on one element beyond this are refused: yEd writes under ten, and no document needs a hundred. */
export const MAX_NAMESPACE_DECLARATIONS = 100;

/**
 * Prefixes bound at once, by an element and the elements around it, beyond which a document is refused. Deep
 * elements that each bind a prefix of their own grew the bindings to tens of thousands, and their reading
 * faster than the document (docs/benchmarks.md, "The test suite"); a document redeclaring the same prefixes at
 * any depth stays within it.
 */
export const MAX_PREFIXES_IN_FORCE = 1_000;

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';

/** An element declares too many namespaces; the message says how many are allowed. */
export class NamespaceLimitError extends Error {}

export class NamespaceScope {
  /** The binding of each prefix in force; without a prototype, so that any prefix is a plain key. */
  private readonly current: Record<string, string | undefined> = Object.assign(Object.create(null) as object, { xml: XML_NAMESPACE });
  /** Per open element, the bindings its declarations replaced (undefined for most elements, which declare none). */
  private readonly replaced: ([prefix: string, uri: string | undefined][] | undefined)[] = [];
  /** How many prefixes {@link current} binds. */
  private bound = 1;

  /** Takes in force the `xmlns` and `xmlns:p` attributes of an element that opens. */
  open(element: string, attributes: Readonly<Record<string, string>>): void {
    let replaced: [string, string | undefined][] | undefined;
    for (const name in attributes) {
      if (name !== 'xmlns' && !name.startsWith('xmlns:')) continue;
      replaced ??= [];
      if (replaced.length === MAX_NAMESPACE_DECLARATIONS) {
        throw new NamespaceLimitError(
          `the <${element}> element declares more than ${MAX_NAMESPACE_DECLARATIONS} XML namespaces (xmlns attributes); ` +
            'yEd declares fewer than ten: remove the declarations the document does not use',
        );
      }
      const prefix = name.slice(6);
      const before = this.current[prefix];
      if (before === undefined && this.bound++ === MAX_PREFIXES_IN_FORCE) {
        throw new NamespaceLimitError(
          `the <${element}> element brings more than ${MAX_PREFIXES_IN_FORCE} XML namespace prefixes into force at once, ` +
            'with those of the elements around it; yEd uses fewer than ten: remove the declarations the document does not use',
        );
      }
      replaced.push([prefix, before]);
      this.current[prefix] = attributes[name];
    }
    this.replaced.push(replaced);
  }

  /** Puts back the bindings in force before the innermost open element. */
  close(): void {
    const replaced = this.replaced.pop();
    if (replaced === undefined) return;
    for (let i = replaced.length - 1; i >= 0; i--) {
      const [prefix, uri] = replaced[i];
      if (uri === undefined) {
        delete this.current[prefix];
        this.bound--;
      } else this.current[prefix] = uri;
    }
  }

  /** The namespace of a prefix; an element without a prefix and no default namespace is in none (''). */
  uri(prefix: string): string | undefined {
    return this.current[prefix] ?? (prefix === '' ? '' : undefined);
  }
}
