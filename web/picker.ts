/** How often the list of sessions is read again while nobody reaches for it. */
const REFRESH_MS = 5000;

/** A session as `GET /walker/sessions` lists it: what the picker shows of it. */
interface SessionSummary {
  readonly id: string;
  readonly models: ReadonlyArray<{ readonly id: string; readonly name?: string }>;
  readonly steps: number;
}

/**
 * The sessions of the service to choose from (`GET /walker/sessions`): the default one and every session of
 * `/walker/sessions`; choosing one opens `/?session=<id>`. The list is read again when the pointer or the
 * focus comes to it, so that it opens on the sessions as they are, and every few seconds otherwise.
 */
export function sessionPicker(chosen: string): HTMLSelectElement {
  const select = document.createElement('select');
  select.dataset.testid = 'session-picker';
  let asked = 0;
  const refresh = async (): Promise<void> => {
    const ask = ++asked;
    let options: SessionOption[];
    try {
      options = await sessionOptions();
    } catch {
      // The service went away: keep what is listed.
      return;
    }
    // An answer overtaken by a later one is dropped: the later one is newer.
    if (ask !== asked) return;
    if (!options.some((o) => o.id === chosen)) options.push({ id: chosen, label: `${shortId(chosen)} (gone)` });
    select.replaceChildren(
      ...options.map(({ id, label }) => {
        const option = document.createElement('option');
        option.value = id;
        option.textContent = label;
        option.title = id;
        option.selected = id === chosen;
        return option;
      }),
    );
  };
  select.addEventListener('change', () => {
    location.search = select.value === 'default' ? '' : `?session=${encodeURIComponent(select.value)}`;
  });
  select.addEventListener('pointerenter', () => void refresh());
  select.addEventListener('focus', () => void refresh());
  void refresh();
  // Not while the reader has the list in hand: a list redrawn under the pointer closes or jumps.
  setInterval(() => {
    if (document.activeElement !== select) void refresh();
  }, REFRESH_MS);
  return select;
}

/** A session to choose: its id (`default` for the walk of `/walker`) and how a list names it. */
export interface SessionOption {
  readonly id: string;
  readonly label: string;
}

/** The default session and every session of `GET /walker/sessions`, as lists show them; throws when the service cannot be reached. */
export async function sessionOptions(): Promise<SessionOption[]> {
  const response = await fetch('walker/sessions');
  const sessions = ((await response.json()) as { sessions?: SessionSummary[] }).sessions ?? [];
  return [{ id: 'default', label: 'default session (/walker)' }, ...sessions.map((s) => ({ id: s.id, label: label(s) }))];
}

function label(session: SessionSummary): string {
  const models = session.models.map((m) => m.name ?? m.id).join(', ') || 'nothing loaded';
  return `${shortId(session.id)} — ${models}, ${session.steps.toLocaleString('en-US')} ${session.steps === 1 ? 'step' : 'steps'}`;
}

/** A session's id as the picker shows it: each UUID in it cut to its first eight digits (the whole id is the option's title). */
export function shortId(id: string): string {
  return id.replace(/\b([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '$1…');
}
