import { readFileSync } from 'node:fs';
import type { Machine } from '../../core/machine/machine.js';
import { graphShape, seenVariables, walkProgress } from '../../core/machine/walk-view.js';
import { missingAssets, webAssetsDirectory } from './assets.js';
import { placedInFile, type FailedStep, type ReportMessage, type StepSeen } from './messages.js';
import { walkState } from './walk-message.js';
import { LAST_STEPS } from './limits.js';

/**
 * A walk's report (docs/view.md): the graph, the walk as it ended — visits, figures, variables — and the
 * element of every step (the first `REPORT_PATH_LIMIT`), in the view's message shape; a run's report also
 * names the step that failed.
 */
export function reportMessage(machine: Machine, path: readonly number[], title: string, failed?: FailedStep): ReportMessage {
  const graph = graphShape(machine.graph);
  const progress = { ...walkProgress(machine), ...seenVariables(() => machine.variables()) };
  const lastSteps = path.slice(-LAST_STEPS).map((index) => stepSeen(machine, index));
  const walk = walkState({ session: 'offline', load: 1, graph, progress, lastSteps });
  return { kind: 'report', title, seed: machine.seed, graph, walk: walk as NonNullable<typeof walk>, path, pathComplete: path.length === machine.steps, ...(failed === undefined ? {} : { failed }) };
}

/** The id of the script element that carries ELK's worker (web/workers.ts reads it). */
const WORKER_ID = 'walker-layout-worker';

/**
 * The report as one HTML page with everything inline — the view's script and stylesheet, the data, and ELK's
 * layout worker when a model needs a layout — so that it opens from a file with no server and no network; its
 * Content-Security-Policy forbids any request (the worker starts from a blob the page makes of its own text).
 * Throws when the view's files are not built.
 */
export function reportPage(message: ReportMessage, assets = webAssetsDirectory()): string {
  const missing = missingAssets(assets);
  if (missing !== undefined) throw new Error(missing);
  const script = inlineScript(readFileSync(`${assets}app.js`, 'utf8'));
  // Inside <style>, only a closing tag of the element ends it early: break those, nothing else changes.
  const style = readFileSync(`${assets}app.css`, 'utf8').replace(/<\/(style)/gi, '<\\/$1');
  const data = JSON.stringify(message).replace(/</g, '\\u003c');
  // ELK is most of a page's weight: a report whose models are all placed by their files needs none of it.
  const layout = message.graph.models.every(placedInFile) ? [] : [`<script type="text/plain" id="${WORKER_ID}">${inlineScript(readFileSync(`${assets}elk-worker.js`, 'utf8'))}</script>`];
  const policy = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; worker-src blob:";
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${policy}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>walker report: ${escapeHtml(message.title)}</title>`,
    '<link rel="icon" href="data:,">',
    `<style>${style}</style>`,
    '</head>',
    '<body>',
    '<div id="app"></div>',
    `<script type="application/json" id="walker-report">${data}</script>`,
    ...layout,
    `<script>${script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function stepSeen(machine: Machine, index: number): StepSeen {
  const { id, name, modelId } = machine.stepOf(index);
  return { index, id, name, modelId };
}

/** Script text to put inside <script>: only a closing tag of the element would end it early, so those are broken. */
function inlineScript(text: string): string {
  return text.replace(/<\/(script)/gi, '<\\/$1');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
}
