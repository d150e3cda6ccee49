import type { CoverageFigures, ReportMessage } from '../server/view/messages.js';
import type { GraphView } from './graph-view.js';
import { LAST_STEPS_SHOWN, type Panel } from './panel.js';

/**
 * A report of `walker offline --report`: the walk at its end, and a slider that replays its path step by
 * step — the heat map, the step count, the coverage and the element of each moment. Statuses, variables and
 * requirements stay those of the end, and the panel says so once. A run's report marks its failed step: the
 * element ringed in red, its line in the last steps, its place on the slider, and the failure above it.
 */
export function showReport(report: ReportMessage, graph: GraphView, panel: Panel): HTMLElement {
  void graph.draw(report.graph);
  panel.setGraph(report.graph);
  const { path, failed } = report;
  if (failed !== undefined) graph.markIssues(new Map([[elementId(report, failed.element), 'error']]));
  const failedStep = failed === undefined ? {} : { failedStep: failed.step };
  const isVertex = new Uint8Array(report.graph.size);
  for (const model of report.graph.models) for (const v of model.vertices) isVertex[v.index] = 1;
  const totals = { vertices: report.walk.statistics.totalNumberOfVertices, edges: report.walk.statistics.totalNumberOfEdges };
  const visits = new Array<number>(report.graph.size).fill(0);
  const visited = { vertices: 0, edges: 0 };
  let at = 0;
  /** Moves the counts from step `at` to step `to` of the path, one step at a time either way. */
  const move = (to: number): void => {
    for (; at < to; at++) count(path[at], +1);
    for (; at > to; at--) count(path[at - 1], -1);
  };
  const count = (element: number, by: 1 | -1): void => {
    const before = visits[element];
    visits[element] += by;
    if ((before === 0) !== (visits[element] === 0)) visited[isVertex[element] === 1 ? 'vertices' : 'edges'] += by;
  };

  const slider = document.createElement('input');
  slider.type = 'range';
  slider.min = '0';
  slider.max = String(path.length);
  slider.value = String(path.length);
  slider.dataset.testid = 'replay-slider';
  const position = document.createElement('span');
  position.dataset.testid = 'replay-position';
  const show = (): void => {
    const to = Number(slider.value);
    move(to);
    const here = failed?.step === to;
    position.textContent = `step ${to} of ${path.length}${report.pathComplete ? '' : ` (the first ${path.length} of ${report.walk.steps} steps)`}${here ? ': failed here' : ''}`;
    position.classList.toggle('failed', here);
    if (to === path.length && report.pathComplete) {
      const atTheEnd = report.walk.visits ?? visits;
      graph.showVisits(atTheEnd, report.walk.current);
      panel.showWalk({ ...report.walk, visits: atTheEnd, ...failedStep });
      return;
    }
    const statistics: CoverageFigures = {
      ...report.walk.statistics,
      totalNumberOfVisitedVertices: visited.vertices,
      totalNumberOfVisitedEdges: visited.edges,
      totalNumberOfUnvisitedVertices: totals.vertices - visited.vertices,
      totalNumberOfUnvisitedEdges: totals.edges - visited.edges,
      vertexCoverage: percentage(visited.vertices, totals.vertices),
      edgeCoverage: percentage(visited.edges, totals.edges),
    };
    const lastSteps = path.slice(Math.max(0, to - LAST_STEPS_SHOWN), to).map((index) => ({ index, id: '', name: '', modelId: '' }));
    graph.showVisits(visits, to === 0 ? -1 : path[to - 1]);
    const { statuses, variables, variablesUnavailable, failure } = report.walk;
    const unavailable = variablesUnavailable === undefined ? {} : { variablesUnavailable };
    panel.showWalk({ steps: to, current: to === 0 ? -1 : path[to - 1], statistics, statuses, variables, ...unavailable, ...(failure === undefined ? {} : { failure }), ...failedStep, lastSteps, visits, partial: true });
  };
  slider.addEventListener('input', show);
  const stepBy = (by: number) => () => {
    slider.value = String(Math.min(path.length, Math.max(0, Number(slider.value) + by)));
    show();
  };
  const controls = document.createElement('div');
  controls.className = 'replay';
  controls.append(button('◀', 'replay-back', stepBy(-1)), slider, button('▶', 'replay-forward', stepBy(1)), position);
  if (failed !== undefined) {
    // A tick on the slider where the failure is, and a way back to it from anywhere in the replay.
    const ticks = document.createElement('datalist');
    ticks.id = 'replay-failed-step';
    ticks.append(new Option('', String(failed.step)));
    slider.setAttribute('list', ticks.id);
    const note = document.createElement('p');
    note.className = 'report-failure';
    note.dataset.testid = 'report-failure';
    note.textContent = `Failed: ${failed.text} `;
    const goTo = () => {
      slider.value = String(failed.step);
      show();
    };
    note.append(button(`go to step ${failed.step}`, 'replay-to-failure', goTo));
    controls.append(ticks, note);
  }
  show();
  return controls;
}

/** The id of the element at an index, as the drawing marks its elements. */
function elementId(report: ReportMessage, index: number): string {
  for (const model of report.graph.models) for (const e of [...model.vertices, ...model.edges]) if (e.index === index) return e.id;
  return '';
}

/** `floor(100 * part / total)`, 0 when the total is 0: the statistics' own rule. */
function percentage(part: number, total: number): number {
  return total === 0 ? 0 : Math.floor((100 * part) / total);
}

function button(text: string, testid: string, onClick: () => void): HTMLButtonElement {
  const node = document.createElement('button');
  node.type = 'button';
  node.textContent = text;
  node.dataset.testid = testid;
  node.addEventListener('click', onClick);
  return node;
}
