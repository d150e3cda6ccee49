import { readFileSync } from 'node:fs';
import type { Machine } from '../../core/machine/machine.js';
import { graphShape, walkProgress } from '../../core/machine/walk-view.js';
import { missingAssets, webAssetsDirectory } from './assets.js';
import type { ReportMessage, StepSeen } from './messages.js';
import { walkMessage } from './walk-message.js';
import { LAST_STEPS, REPORT_PATH_LIMIT } from './limits.js';

/**
 * A walk's report (docs/view.md): the graph, the walk as it ended — visits, figures, variables — and the
 * element of every step (the first {@link REPORT_PATH_LIMIT}), in the view's message shape.
 */
export function reportMessage(machine: Machine, path: readonly number[], title: string): ReportMessage {
  const graph = graphShape(machine.graph);
  const progress = { ...walkProgress(machine), variables: variablesOf(machine) };
  const lastSteps = path.slice(-LAST_STEPS).map((index) => stepSeen(machine, index));
  const { walk } = walkMessage({ session: 'offline', load: 1, graph, progress, lastSteps });
  return { kind: 'report', title, seed: machine.seed, graph, walk: walk as NonNullable<typeof walk>, path, pathComplete: path.length === machine.steps };
}

/**
 * The report as one HTML page with everything inline — the view's script and stylesheet and the data — so
 * that it opens from a file with no server and no network; its Content-Security-Policy forbids any request.
 * Throws when the view's files are not built.
 */
export function reportPage(message: ReportMessage, assets = webAssetsDirectory()): string {
  const missing = missingAssets(assets);
  if (missing !== undefined) throw new Error(missing);
  // Inside <script> and <style>, only a closing tag of the element ends it early: break those, nothing else changes.
  const script = readFileSync(`${assets}app.js`, 'utf8').replace(/<\/(script)/gi, '<\\/$1');
  const style = readFileSync(`${assets}app.css`, 'utf8').replace(/<\/(style)/gi, '<\\/$1');
  const data = JSON.stringify(message).replace(/</g, '\\u003c');
  const policy = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";
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
    `<script>${script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The variables at the end; none when a walk that failed in a script cannot show them any more. */
function variablesOf(machine: Machine): Array<[string, string]> {
  try {
    return machine.variables();
  } catch {
    return [];
  }
}

function stepSeen(machine: Machine, index: number): StepSeen {
  const { id, name, modelId } = machine.stepOf(index);
  return { index, id, name, modelId };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
}
