import { heat, heatStroke } from './heat.js';
import { el, SVG } from './svg.js';

/** What the drawing shows, so that the legend explains that and nothing else. */
export interface LegendContent {
  /** A walk's graph (coloured by visits), not a draft's (marked by issues). */
  readonly walked: boolean;
  /** Edges not walked yet drawn thin and pale rather than dashed (a large graph). */
  readonly many: boolean;
  /** Vertices of one shared state linked across models. */
  readonly shared: boolean;
}

/**
 * The key to the drawing (`data-testid="legend"`), above it: the heat of visits from one to the most any
 * element has (the vertices' fills above, the edges' strokes below), an edge not walked yet, the element the walk stands on, shared states, the start; for a draft,
 * the outlines of its issues. Its swatches are drawn with the drawing's own classes, so they cannot drift from it.
 */
export class Legend {
  readonly element = el('div', 'legend');
  private readonly most = el('span', 'legend-most');

  constructor() {
    this.element.dataset.testid = 'legend';
    this.element.hidden = true;
  }

  show(content: LegendContent | undefined): void {
    this.element.hidden = content === undefined;
    if (content === undefined) return this.element.replaceChildren();
    const items = content.walked ? this.walkItems(content) : draftItems();
    if (content.shared) items.push(item(swatch('<line x1="2" y1="6" x2="26" y2="6" class="shared-link"/>'), 'same shared state'));
    items.push(item(swatch('<g class="edge"><circle cx="4" cy="6" r="3" class="start"/><path d="M4,6 L26,6"/></g>'), 'start'));
    this.element.replaceChildren(...items);
  }

  /** The most visits any element has: the deep red end of the heat scale. */
  setMost(most: number): void {
    this.most.textContent = `${most.toLocaleString('en-US')} ${most === 1 ? 'visit' : 'visits'}`;
    this.element.style.setProperty('--heat-low', heat(1, most));
    this.element.style.setProperty('--heat-mid', heat(Math.max(1, Math.sqrt(most)), most));
    this.element.style.setProperty('--heat-high', heat(most, most));
    this.element.style.setProperty('--heat-stroke-low', heatStroke(1, most));
    this.element.style.setProperty('--heat-stroke-high', heatStroke(most, most));
  }

  private walkItems(content: LegendContent): HTMLElement[] {
    const heatBar = el('span', 'heat-bar');
    const scale = el('span', '');
    scale.append('1 visit … ', this.most);
    return [
      item(heatBar, scale),
      item(swatch(`<g class="edge" data-visited="false"><path d="M2,6 L26,6"/></g>`, content.many ? 'many' : undefined), 'not walked yet'),
      item(swatch('<g class="vertex current"><rect x="2" y="1" width="24" height="10" rx="3" class="box"/></g>'), 'where the walk stands'),
    ];
  }
}

function draftItems(): HTMLElement[] {
  return [
    item(swatch('<g class="vertex" data-issue="error"><rect x="2" y="1" width="24" height="10" rx="3" class="box"/></g>'), 'an error names it'),
    item(swatch('<g class="vertex" data-issue="warning"><rect x="2" y="1" width="24" height="10" rx="3" class="box"/></g>'), 'a warning names it'),
  ];
}

function item(picture: Element, text: string | HTMLElement): HTMLElement {
  const node = el('span', 'legend-item');
  node.append(picture, text);
  return node;
}

/** A 28 × 12 picture of the drawing's SVG, its markup the page's own (no data from the walk). */
function swatch(markup: string, className?: string): SVGSVGElement {
  const node = document.createElementNS(SVG, 'svg');
  node.setAttribute('width', '28');
  node.setAttribute('height', '12');
  node.setAttribute('viewBox', '0 0 28 12');
  node.setAttribute('aria-hidden', 'true');
  if (className !== undefined) node.setAttribute('class', className);
  node.innerHTML = markup;
  return node;
}
