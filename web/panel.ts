import type { CoverageFigures, GraphShape, StepSeen } from '../server/view/messages.js';
import { ElementNames } from './names.js';
import { NotVisited } from './not-visited.js';

/** What the panel beside the graph shows of a walk at one moment. */
export interface WalkFigures {
  readonly steps: number;
  readonly current: number;
  readonly statistics: CoverageFigures;
  readonly statuses: readonly string[];
  readonly variables: ReadonlyArray<readonly [string, string]>;
  /** Why the variables could not be read, when they could not: they are shown as unavailable. */
  readonly variablesUnavailable?: string;
  readonly lastSteps: readonly StepSeen[];
  /** Visit count per element index, whole. */
  readonly visits: ArrayLike<number>;
  readonly failure?: string;
  /** The 1-based step whose test failed (a run's report): its line in the last steps is marked. */
  readonly failedStep?: number;
  /** A moment of a report's replay before its end: the statuses, variables and requirements given are the end's. */
  readonly partial?: boolean;
}

/**
 * The figures beside the graph: the step count, edge and vertex coverage with the visited and total counts,
 * the element the walk stands on (the stable `data-testid` hooks of docs/view.md), the models' statuses, the
 * variables, the last steps, the requirements and the elements not visited.
 */
export class Panel {
  readonly element = document.createElement('aside');
  private readonly stepCount = hook('step-count');
  private readonly edgeCoverage = hook('edge-coverage');
  private readonly vertexCoverage = hook('vertex-coverage');
  private readonly edgesVisited = hook('edges-visited');
  private readonly edgesTotal = hook('edges-total');
  private readonly verticesVisited = hook('vertices-visited');
  private readonly verticesTotal = hook('vertices-total');
  private readonly notVisited = new NotVisited();
  private readonly current = hook('current-element');
  private readonly models = list('model-statuses');
  private readonly variables = list('variables');
  private readonly lastSteps = list('last-steps', 'ol');
  private readonly requirements = list('requirements');
  private readonly note = document.createElement('p');
  /** Said once, during a replay: which figures are not of the moment shown. */
  private readonly endNote = document.createElement('p');
  private names = new ElementNames(null);
  private modelNames: string[] = [];
  private size = 0;

  constructor() {
    this.element.className = 'panel';
    this.note.className = 'note';
    this.note.dataset.testid = 'note';
    this.endNote.className = 'end-note';
    this.endNote.dataset.testid = 'end-note';
    this.endNote.textContent = 'Models, variables and requirements: as at the end of the walk.';
    this.endNote.hidden = true;
    for (const atTheEnd of [this.models, this.variables, this.requirements]) atTheEnd.classList.add('at-the-end');
    const figures = document.createElement('dl');
    figures.className = 'figures';
    figures.append(
      ...term('Steps', this.stepCount),
      ...term('Edge coverage', this.edgeCoverage, '% · ', this.edgesVisited, ' of ', this.edgesTotal),
      ...term('Vertex coverage', this.vertexCoverage, '% · ', this.verticesVisited, ' of ', this.verticesTotal),
      ...term('Current element', this.current),
    );
    this.element.append(
      this.note,
      figures,
      this.endNote,
      heading('Models'),
      this.models,
      heading('Variables'),
      this.variables,
      heading('Last steps'),
      this.lastSteps,
      heading('Requirements'),
      this.requirements,
      heading('Not visited'),
      this.notVisited.element,
    );
  }

  /** The graph whose elements the figures name. */

  setGraph(graph: GraphShape | null): void {
    this.names = new ElementNames(graph);
    this.size = graph?.size ?? 0;
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
    this.edgesVisited.textContent = String(s?.totalNumberOfVisitedEdges ?? 0);
    this.edgesTotal.textContent = String(s?.totalNumberOfEdges ?? 0);
    this.verticesVisited.textContent = String(s?.totalNumberOfVisitedVertices ?? 0);
    this.verticesTotal.textContent = String(s?.totalNumberOfVertices ?? 0);
    this.notVisited.show(this.names, figures?.visits ?? [], figures === null ? 0 : this.size);
    const at = figures === null ? undefined : this.names.at(figures.current);
    this.current.textContent = at === undefined ? '–' : this.names.label(at.index);
    this.current.dataset.elementId = at?.id ?? '';
    this.current.dataset.modelId = at?.modelId ?? '';
    this.showSteps(figures?.lastSteps ?? [], figures?.steps ?? 0, figures?.failedStep);
    this.endNote.hidden = figures?.partial !== true;
    this.element.classList.toggle('replaying', figures?.partial === true);
    fill(this.models, (figures?.statuses ?? []).map((status, m) => `${this.modelNames[m] ?? m}: ${status.replace('_', ' ')}`));
    if (figures?.failure !== undefined) this.models.append(item(`failed: ${figures.failure}`));
    this.showVariables(figures?.variables ?? [], figures?.variablesUnavailable);
    this.showRequirements(s);
  }

  /** The variables, or why they could not be read (a getter past the script limits): the list says so. */
  private showVariables(variables: ReadonlyArray<readonly [string, string]>, unavailable: string | undefined): void {
    if (unavailable !== undefined) fill(this.variables, [`unavailable: ${unavailable}`]);
    else fill(this.variables, variables.length === 0 ? ['none'] : variables.map(([name, value]) => `${name} = ${value}`));
    this.variables.dataset.unavailable = String(unavailable !== undefined);
  }

  /**
   * The last steps, newest first. The service notes steps only while someone watches (docs/view.md): steps
   * taken before this page began watching are said to be missing rather than left to look like none.
   */
  private showSteps(lastSteps: readonly StepSeen[], steps: number, failedStep?: number): void {
    const lines = [...lastSteps].reverse().map((step, back) => {
      const element = this.names.at(step.index);
      const li = item(element === undefined ? step.name || step.id : this.names.label(step.index));
      if (steps - back === failedStep) {
        li.classList.add('failed');
        li.dataset.failed = 'true';
      }
      li.dataset.elementId = element?.id ?? step.id;
      li.title = `${element?.id ?? step.id} in ${element?.modelId ?? step.modelId}`;
      return li;
    });
    const unlisted = steps - lastSteps.length;
    if (unlisted > 0 && lastSteps.length < LAST_STEPS_SHOWN) {
      const note = item(
        lastSteps.length === 0
          ? `None listed: the ${unlisted.toLocaleString('en-US')} steps so far came before this page began watching, and steps are noted only while someone watches.`
          : `… and ${unlisted.toLocaleString('en-US')} earlier, taken before this page began watching: steps are noted only while someone watches.`,
      );
      note.className = 'unlisted';
      note.dataset.testid = 'unlisted-steps';
      lines.push(note);
    }
    this.lastSteps.replaceChildren(...lines);
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

function hook(testid: string): HTMLElement {
  const node = document.createElement('span');
  node.dataset.testid = testid;
  return node;
}

function term(name: string, ...value: Array<HTMLElement | string>): HTMLElement[] {
  const dt = document.createElement('dt');
  dt.textContent = name;
  const dd = document.createElement('dd');
  dd.append(...value);
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
