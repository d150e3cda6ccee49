import type { DraftMessage, ViewMessage, WalkMessage } from '../server/view/messages.js';
import type { DraftPanel } from './draft-panel.js';
import type { GraphView } from './graph-view.js';
import type { Panel } from './panel.js';

/**
 * Follows a stream of the view (`.../events`): each message is applied as it comes. A graph is laid out and
 * drawn while the messages after it are applied: the figures go on changing, and the graph shows the latest
 * visits once drawn. The browser's EventSource reconnects by itself; a new stream starts with everything whole
 * again. `tell` hears what the reader should know: the connection lost, the session or
 * draft gone or never there ('' once all is well again).
 */
function follow(url: string, apply: (message: ViewMessage) => void, tell: (message: string) => void): EventSource {
  const source = new EventSource(url);
  let lost = false;
  source.onerror = () => {
    if (source.readyState === EventSource.CONNECTING) {
      lost = true;
      tell('The service does not answer: trying again…');
      return;
    }
    // Refused (a session or draft that is not there): the same route without /events says why.
    void fetch(url.replace(/\/events$/, ''))
      .then(async (response) => tell(((await response.json()) as { message?: string }).message ?? `${response.status} ${response.statusText}`))
      .catch(() => tell('The service cannot be reached.'));
  };
  source.onmessage = (event: MessageEvent<string>) => {
    const message = JSON.parse(event.data) as ViewMessage;
    if (lost) {
      lost = false;
      tell('');
    }
    if (message.kind === 'gone') {
      source.close();
      tell(message.message);
      return;
    }
    apply(message);
  };
  return source;
}

/** Shows a session's walk live. */
export function followWalk(url: string, graph: GraphView, panel: Panel): EventSource {
  let visits: number[] = [];
  return follow(
    url,
    (message) => {
      const { walk } = message as WalkMessage;
      if ((message as WalkMessage).graph !== undefined) {
        const shape = (message as WalkMessage).graph ?? null;
        void graph.draw(shape);
        panel.setGraph(shape);
      }
      if (walk === null) {
        panel.showWalk(null);
        return;
      }
      if (walk.visits !== undefined) visits = [...walk.visits];
      const changes = walk.visitChanges ?? [];
      for (let i = 0; i < changes.length; i += 2) visits[changes[i]] = changes[i + 1];
      graph.showVisits(visits, walk.current);
      panel.showWalk({ ...walk, visits });
    },
    (gone) => panel.say(gone),
  );
}

/** Shows a draft live: drawn anew at every revision, the elements its issues name marked. */
export function followDraft(url: string, graph: GraphView, panel: DraftPanel): EventSource {
  return follow(
    url,
    (message) => {
      const draft = message as DraftMessage;
      void graph.draw(draft.graph);
      const severities = new Map<string, 'error' | 'warning'>();
      for (const issue of draft.issues) {
        if (issue.element_id !== null && severities.get(issue.element_id) !== 'error') severities.set(issue.element_id, issue.severity);
      }
      graph.markIssues(severities);
      panel.show(draft);
    },
    (gone) => panel.say(gone),
  );
}
