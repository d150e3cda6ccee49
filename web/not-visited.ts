import type { ElementNames } from './names.js';

/** Elements listed at the most: a large model's list would be longer than anyone reads. */
const LISTED = 200;

/**
 * The elements the walk has not stepped on (`data-testid="not-visited"`), as getStatistics lists them: edges,
 * then vertices, each in element order. The statistics count every element of the models, so these are exactly
 * the elements of visit count 0, and the page finds them in the visits it has.
 */
export class NotVisited {
  readonly element = document.createElement('ul');
  private shown = '';

  constructor() {
    this.element.dataset.testid = 'not-visited';
  }

  show(names: ElementNames, visits: ArrayLike<number>, size: number): void {
    const edges: number[] = [];
    const vertices: number[] = [];
    for (let e = 0; e < size; e++) if ((visits[e] ?? 0) === 0) (names.at(e)?.kind === 'vertex' ? vertices : edges).push(e);
    const unvisited = [...edges, ...vertices];
    // Read twenty times a second while a walk goes: redrawn only when it changed.
    const key = unvisited.join(',');
    if (key === this.shown) return;
    this.shown = key;
    if (unvisited.length === 0) return this.element.replaceChildren(line('none: every element was visited'));
    const lines = unvisited.slice(0, LISTED).map((index) => {
      const element = names.at(index);
      const li = line(`${element?.kind ?? 'element'} ${names.distinctLabel(index)}`);
      li.dataset.elementId = element?.id ?? '';
      li.dataset.kind = element?.kind ?? '';
      return li;
    });
    if (unvisited.length > LISTED) lines.push(line(`… and ${(unvisited.length - LISTED).toLocaleString('en-US')} more`));
    this.element.replaceChildren(...lines);
  }
}

function line(text: string): HTMLLIElement {
  const li = document.createElement('li');
  li.textContent = text;
  return li;
}
