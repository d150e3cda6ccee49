import type { CoverageFigures, GraphShape, StepSeen } from '../server/view/messages.js';

/** What the panel beside the graph shows of a walk at one moment. */
export interface WalkFigures {
  readonly steps: number;
  readonly current: number;
  readonly statistics: CoverageFigures;
  readonly statuses: readonly string[];
  readonly variables: ReadonlyArray<readonly [string, string]>;
  readonly lastSteps: readonly StepSeen[];
  readonly failure?: string;
  /** A moment of a report's replay before its end: statuses, variables and requirements are known at the end only. */
  readonly partial?: boolean;
}

/** An element by its index: what the panel names. */
interface Named {
  readonly id: string;
  readonly name: string;
  readonly modelId: string;
}

/**
 * The figures beside the graph: the step count, edge and vertex coverage, the element the walk stands on (the
 * stable `data-testid` hooks of docs/view.md), the models' statuses, the variables, the last steps and the
 * requirements; for a draft, its revision and validation issues.
 */
export class Panel {
  readonly element = document.createElement('aside');
  private readonly stepCount = hook('step-count');
  private readonly edgeCoverage = hook('edge-coverage');
  private readonly vertexCoverage = hook('vertex-coverage');
  private readonly current = hook('current-element');
  private readonly models = list('model-statuses');
  private readonly variables = list('variables');
  private readonly lastSteps = list('last-steps', 'ol');
  private readonly requirements = list('requirements');
  private readonly note = document.createElement('p');
  private named: Named[] = [];
  private modelNames: string[] = [];

  constructor() {
    this.element.className = 'panel';
    this.note.className = 'note';
    this.note.dataset.testid = 'note';
    const figures = document.createElement('dl');
    figures.className = 'figures';
    figures.append(
      ...term('Steps', this.stepCount),
      ...term('Edge coverage', this.edgeCoverage, '%'),
      ...term('Vertex coverage', this.vertexCoverage, '%'),
      ...term('Current element', this.current),
    );
    this.element.append(
      this.note,
      figures,
      heading('Models'),
      this.models,
      heading('Variables'),
      this.variables,
      heading('Last steps'),
      this.lastSteps,
      heading('Requirements'),
      this.requirements,
    );
  }

  /** The graph whose elements the figures name. */

  setGraph(graph: GraphShape | null): void {
    this.named = [];
    for (const model of graph?.models ?? []) {
      for (const v of model.vertices) this.named[v.index] = { id: v.id, name: v.name, modelId: model.id };
      for (const e of model.edges) this.named[e.index] = { id: e.id, name: e.name, modelId: model.id };
    }
    this.modelNames = (graph?.models ?? []).map((m) => m.name ?? m.id);
  }

  /** A line above the figures: what is shown, or why nothing more will come. */
  say(message: string): void {
    this.note.textContent = message;
  }

  showWalk(figures: WalkFigures | null): void {
    const s = figures?.statistics;
    this.stepCount.textContent = String(figures?.steps ?? 0);
    this.edgeCoverage.textContent = String(s?.edgeCoverage ?? 0);
    this.vertexCoverage.textContent = String(s?.vertexCoverage ?? 0);
    const at = figures === null ? undefined : this.named[figures.current];
    this.current.textContent = at === undefined ? '–' : label(at);
    this.current.dataset.elementId = at?.id ?? '';
    this.current.dataset.modelId = at?.modelId ?? '';
    // Newest first: the step just taken heads the list.
    const steps = [...(figures?.lastSteps ?? [])].reverse().map((step) => {
      const element = this.named[step.index] ?? step;
      const li = item(label(element));
      li.dataset.elementId = element.id;
      li.title = `${element.id} in ${element.modelId}`;
      return li;
    });
    this.lastSteps.replaceChildren(...steps);
    if (figures?.partial === true) {
      for (const target of [this.models, this.variables, this.requirements]) fill(target, [AT_THE_END]);
      return;
    }
    fill(this.models, (figures?.statuses ?? []).map((status, m) => `${this.modelNames[m] ?? m}: ${status.replace('_', ' ')}`));
    if (figures?.failure !== undefined) this.models.append(item(`failed: ${figures.failure}`));
    const variables = figures?.variables ?? [];
    fill(this.variables, variables.length === 0 ? ['none'] : variables.map(([name, value]) => `${name} = ${value}`));
    this.showRequirements(s);
  }

  private showRequirements(s: CoverageFigures | undefined): void {
    if (s?.totalNumberOfRequirement === undefined) {
      fill(this.requirements, ['none']);
      return;
    }
    const keys = (items: readonly { requirementKey?: string; RequirementKey?: string }[] | undefined) =>
      (items ?? []).map((i) => i.requirementKey ?? i.RequirementKey ?? '').join(', ') || '–';
    const rows: Array<[string, number, string]> = [
      ['passed', s.totalNumberOfPassedRequirement ?? 0, keys(s.requirementsPassed)],
      ['failed', s.totalNumberOfFailedRequirement ?? 0, keys(s.requirementsFailed)],
      ['not covered', s.totalNumberOfUncoveredRequirement ?? 0, keys(s.requirementsNotCovered)],
    ];
    fill(this.requirements, []);
    for (const [name, count, which] of rows) {
      const li = item(`${name}: ${count} (${which})`);
      li.dataset.requirements = name.replace(' ', '-');
      this.requirements.append(li);
    }
  }
}

/** How many of the last steps a report's replay lists, as the service's view does. */
export const LAST_STEPS_SHOWN = 20;

const AT_THE_END = 'known at the end of the walk';

/** An element as the panel names it: by its name, by its id when it has none (the id is the element's data). */
function label(element: Named): string {
  return element.name === '' ? element.id : element.name;
}

function hook(testid: string): HTMLElement {
  const node = document.createElement('span');
  node.dataset.testid = testid;
  return node;
}

function term(name: string, value: HTMLElement, unit = ''): HTMLElement[] {
  const dt = document.createElement('dt');
  dt.textContent = name;
  const dd = document.createElement('dd');
  dd.append(value, unit);
  return [dt, dd];
}

function heading(text: string): HTMLElement {
  const h = document.createElement('h2');
  h.textContent = text;
  return h;
}

function list(testid: string, tag: 'ul' | 'ol' = 'ul'): HTMLUListElement {
  const node = document.createElement(tag) as HTMLUListElement;
  node.dataset.testid = testid;
  return node;
}

function item(text: string): HTMLLIElement {
  const li = document.createElement('li');
  li.textContent = text;
  return li;
}

function fill(target: HTMLElement, lines: readonly string[]): void {
  target.replaceChildren(...lines.map(item));
}
