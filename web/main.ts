import type { ReportMessage } from '../server/view/messages.js';
import { DraftPanel } from './draft-panel.js';
import { GraphView } from './graph-view.js';
import { followDraft, followWalk } from './live.js';
import { Panel } from './panel.js';
import { sessionPicker } from './picker.js';
import { showReport } from './report.js';
import { inlineWorker, servedWorker } from './workers.js';

/**
 * The page (docs/view.md): a report when the page carries one inline (`walker offline --report`), else the
 * service's view — `/?draft=<id>` a draft, `/?session=<id>` a session, `/` the default session.
 */
function main(): void {
  const root = document.getElementById('app') as HTMLElement;
  const header = document.createElement('header');
  const title = document.createElement('h1');
  title.textContent = 'walker';
  header.append(title);
  const body = document.createElement('main');
  root.append(header, body);

  const inline = document.getElementById('walker-report');
  if (inline !== null) {
    const report = JSON.parse(inline.textContent ?? '') as ReportMessage;
    const graph = new GraphView(inlineWorker());
    const panel = new Panel();
    header.append(caption(`Report of ${report.title}, seed ${report.seed}`));
    body.append(graph.element, panel.element);
    header.append(showReport(report, graph, panel));
    return;
  }
  const query = new URLSearchParams(location.search);
  const draft = query.get('draft');
  const graph = new GraphView(servedWorker, draft !== null);
  if (draft !== null) {
    const panel = new DraftPanel();
    header.append(caption(`Draft ${draft}`));
    body.append(graph.element, panel.element);
    followDraft(`walker/view/drafts/${encodeURIComponent(draft)}/events`, graph, panel);
    return;
  }
  const session = query.get('session') ?? 'default';
  const panel = new Panel();
  header.append(sessionPicker(session));
  body.append(graph.element, panel.element);
  const url = session === 'default' ? 'walker/view/session/events' : `walker/view/sessions/${encodeURIComponent(session)}/events`;
  followWalk(url, graph, panel);
}

function caption(text: string): HTMLElement {
  const node = document.createElement('span');
  node.className = 'caption';
  node.textContent = text;
  return node;
}

main();
