import { el } from './svg.js';

/**
 * The box that follows the pointer over the drawing and says what the element under it is: its lines come
 * from `describe`, asked again whenever {@link refresh} is called, so that a count shown stays the count of the
 * moment.
 */
export class Tooltip {
  private readonly box = el('div', 'tooltip');
  /** The element index under the pointer, -1 for none. */
  private over = -1;

  constructor(
    private readonly host: HTMLElement,
    private readonly describe: (index: number) => readonly string[],
  ) {
    this.box.dataset.testid = 'tooltip';
    this.box.setAttribute('role', 'tooltip');
    this.box.hidden = true;
    host.append(this.box);
    host.addEventListener('pointerover', this.onOver);
    host.addEventListener('pointermove', this.onMove);
    host.addEventListener('pointerleave', () => this.hide());
    host.addEventListener('pointerdown', () => this.hide());
  }

  /** The drawing changed under the pointer: say it again. */
  refresh(): void {
    if (this.over >= 0) this.render();
  }

  hide(): void {
    this.over = -1;
    this.box.hidden = true;
  }

  private readonly onOver = (event: PointerEvent): void => {
    if (event.buttons !== 0) return;
    const g = (event.target as Element).closest?.('[data-element-id]') as SVGGElement | null;
    if (g === null) return this.hide();
    this.over = Number(g.dataset.index);
    this.render();
    this.place(event);
  };

  private readonly onMove = (event: PointerEvent): void => {
    if (this.over >= 0) this.place(event);
  };

  private render(): void {
    const [title, ...rest] = this.describe(this.over);
    const heading = el('strong', '');
    heading.textContent = title ?? '';
    this.box.replaceChildren(heading, ...rest.map((line) => Object.assign(el('div', ''), { textContent: line })));
    this.box.hidden = false;
  }

  /** Beside the pointer, kept inside the pane. */
  private place(event: PointerEvent): void {
    const bounds = this.host.getBoundingClientRect();
    const x = Math.min(event.clientX - bounds.left + 14, bounds.width - this.box.offsetWidth - 4);
    const y = event.clientY - bounds.top + 18 + this.box.offsetHeight > bounds.height ? event.clientY - bounds.top - this.box.offsetHeight - 10 : event.clientY - bounds.top + 18;
    this.box.style.left = `${Math.max(4, x)}px`;
    this.box.style.top = `${Math.max(4, y)}px`;
  }
}
