import type { DraftMessage, GraphShape, ViewMessage, WalkMessage } from '../server/view/messages.js';
import type { DraftPanel } from './draft-panel.js';
import type { GraphView } from './graph-view.js';
import type { Panel, WalkFigures } from './panel.js';

/** How long the page waits before it asks again for a stream the service refused while what it shows is there. */
const REFUSED_RETRY_MS = 5_000;

/**
 * Follows a stream of the view (`.../events`): each message is applied as it comes. A graph is laid out and
 * drawn while the messages after it are applied: the figures go on changing, and the graph shows the latest
 * visits once drawn. The browser's EventSource reconnects by itself; a new stream starts with everything whole
 * again. A stream refused while the session or draft is there (the service serves as many streams as it may)
 * is asked for again a little later. `tell` hears what the reader should know: the connection lost, the
 * session or draft gone or never there ('' once all is well again).
 */
function follow(url: string, apply: (message: ViewMessage) => void, tell: (message: string) => void, told = false): void {
  const source = new EventSource(url);
  /** Something is said that the first message makes untrue. */
  let lost = told;
  source.onerror = () => {
    if (source.readyState === EventSource.CONNECTING) {
      lost = true;
      tell('The service does not answer: trying again…');
      return;
    }
    // Refused: the same route without /events says why, when the session or draft is not there.
    void fetch(url.replace(/\/events$/, ''))
      .then(async (response) => {
        if (!response.ok) return tell(((await response.json()) as { message?: string }).message ?? `${response.status} ${response.statusText}`);
        tell('The service has as many live views open as it serves: trying again in a few seconds…');
        setTimeout(() => follow(url, apply, tell, true), REFUSED_RETRY_MS);
      })
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
}

/**
 * Shows a session's walk live. A large graph does not come in the stream (docs/view.md): a message with
 * `graphBytes` says that a load has one, which is read once from the route without /events, and drawn if the
 * walk is still at that load when it comes.
 */
export function followWalk(url: string, graph: GraphView, panel: Panel): void {
  let visits: number[] = [];
  let load = -1;
  let shown: WalkFigures | null = null;
  const setGraph = (shape: GraphShape | null): void => {
    void graph.draw(shape);
    panel.setGraph(shape);
    if (shown !== null) panel.showWalk(shown);
  };
  const fetchGraph = async (of: number): Promise<void> => {
    const message = (await (await fetch(url.replace(/\/events$/, ''))).json()) as WalkMessage;
    if (message.load === of && load === of && message.graph !== undefined) setGraph(message.graph);
  };
  follow(
    url,
    (message) => {
      const { walk, graph: shape, graphBytes } = message as WalkMessage;
      load = (message as WalkMessage).load;
      if (shape !== undefined) setGraph(shape);
      else if (graphBytes !== undefined) void fetchGraph(load).catch(() => panel.say('The graph of the walk could not be read: reload the page.'));
      if (walk === null) {
        shown = null;
        panel.showWalk(null);
        return;
      }
      if (walk.visits !== undefined) visits = [...walk.visits];
      const changes = walk.visitChanges ?? [];
      for (let i = 0; i < changes.length; i += 2) visits[changes[i]] = changes[i + 1];
      graph.showVisits(visits, walk.current);
      shown = { ...walk, visits };
      panel.showWalk(shown);
    },
    (gone) => panel.say(gone),
  );
}

/** Shows a draft live: drawn anew at every revision, the elements its issues name marked. */
export function followDraft(url: string, graph: GraphView, panel: DraftPanel): void {
  follow(
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
