import type { GraphShape } from '../server/view/messages.js';

/** An element of the graph, by its index, as the page names it. */
export interface NamedElement {
  readonly index: number;
  readonly id: string;
  /** `""` when the model gives it none. */
  readonly name: string;
  readonly modelId: string;
  /** The model's name, else its id. */
  readonly modelName: string;
  readonly kind: 'vertex' | 'edge';
  readonly guard?: string;
  readonly sharedState?: string;
}

/**
 * The names of a graph's elements by index, for every place the page names one (the panel's steps and
 * current element, the tooltip): an unnamed edge as "source → target" rather than its id (often a UUID),
 * and, when several models are drawn, the element's model before it, since their elements share names.
 */
export class ElementNames {
  private readonly elements: NamedElement[] = [];
  private readonly severalModels: boolean;
  /** How many elements read the same, by label: those that share one are told apart by their ids. */
  private labelCounts: Map<string, number> | undefined;

  constructor(graph: GraphShape | null) {
    const models = graph?.models ?? [];
    this.severalModels = models.length > 1;
    for (const model of models) {
      const modelName = model.name ?? model.id;
      for (const v of model.vertices) {
        this.elements[v.index] = { index: v.index, id: v.id, name: v.name, modelId: model.id, modelName, kind: 'vertex', ...(v.sharedState === undefined ? {} : { sharedState: v.sharedState }) };
      }
      for (const e of model.edges) {
        const name = e.name !== '' ? e.name : `${this.vertexName(e.source, 'start')} → ${this.vertexName(e.target, '?')}`;
        this.elements[e.index] = { index: e.index, id: e.id, name, modelId: model.id, modelName, kind: 'edge', ...(e.guard === undefined ? {} : { guard: e.guard }) };
      }
    }
  }

  /** The element at `index`, undefined for none (-1 before the first step, or an index of another graph). */
  at(index: number): NamedElement | undefined {
    return index >= 0 ? this.elements[index] : undefined;
  }

  /** How the element reads in a list: its name (or "source → target", or its id), after its model's name when there are several. */
  label(index: number): string {
    const element = this.at(index);
    if (element === undefined) return '–';
    const name = element.name === '' ? element.id : element.name;
    return this.severalModels ? `${element.modelName} › ${name}` : name;
  }

  /** {@link label}, and the element's id after it when another element reads the same (two edges e_Quit). */
  distinctLabel(index: number): string {
    if (this.labelCounts === undefined) {
      this.labelCounts = new Map();
      for (const element of this.elements) {
        if (element === undefined) continue;
        const label = this.label(element.index);
        this.labelCounts.set(label, (this.labelCounts.get(label) ?? 0) + 1);
      }
    }
    const label = this.label(index);
    const element = this.at(index);
    return element !== undefined && (this.labelCounts.get(label) ?? 0) > 1 ? `${label} (${element.id})` : label;
  }

  private vertexName(index: number, none: string): string {
    const vertex = this.elements[index];
    if (vertex === undefined) return none;
    return vertex.name === '' ? vertex.id : vertex.name;
  }
}
