import type { ReportMessage } from '../server/view/messages.js';
import { DraftPanel } from './draft-panel.js';
import { startEditor } from './editor/editor-page.js';
import { GraphView } from './graph-view.js';
import { followDraft, followWalk } from './live.js';
import { loggedIn } from './login.js';
import { Panel } from './panel.js';
import { sessionPicker } from './picker.js';
import { showReport } from './report.js';
import { inlineWorker, servedWorker } from './workers.js';

/**
 * The page (docs/view.md): a report when the page carries one inline (`walker offline --report`), else the
 * service's view — `/?draft=<id>` a draft, `/?session=<id>` a session, `/` the default session — or its
 * editor (docs/editor.md), `/?edit`, `/?draft=<id>&edit` and `/?session=<id>&edit`, once logged in to a service with a token.
 */
async function main(): Promise<void> {
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
  if (!(await loggedIn(body))) return;
  const query = new URLSearchParams(location.search);
  if (query.has('edit')) return startEditor(header, body, query.getAll('draft'), query.get('session') ?? undefined);
  const draft = query.get('draft');
  const graph = new GraphView(servedWorker, draft !== null);
  if (draft !== null) {
    const panel = new DraftPanel();
    header.append(caption(`Draft ${draft}`), editLink(`?draft=${encodeURIComponent(draft)}&edit`, 'Edit this draft'));
    body.append(graph.element, panel.element);
    followDraft(`walker/view/drafts/${encodeURIComponent(draft)}/events`, graph, panel);
    return;
  }
  const session = query.get('session') ?? 'default';
  const panel = new Panel();
  header.append(sessionPicker(session), editLink(`?session=${encodeURIComponent(session)}&edit`, 'Edit the models of this walk as new drafts'));
  body.append(graph.element, panel.element);
  const url = session === 'default' ? 'walker/view/session/events' : `walker/view/sessions/${encodeURIComponent(session)}/events`;
  followWalk(url, graph, panel);
}

/** The view's way into the editor (docs/editor.md). */
function editLink(href: string, title: string): HTMLElement {
  const edit = document.createElement('a');
  edit.href = href;
  edit.textContent = 'Edit';
  edit.title = title;
  edit.className = 'edit-link';
  edit.dataset.testid = 'edit-link';
  return edit;
}

function caption(text: string): HTMLElement {
  const node = document.createElement('span');
  node.className = 'caption';
  node.textContent = text;
  return node;
}

void main();
