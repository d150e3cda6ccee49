/** How often the list of sessions is read again. */
const REFRESH_MS = 5000;

/**
 * The sessions of the service to choose from (`GET /walker/sessions`): the default one and every session of
 * `/walker/sessions`; choosing one opens `/?session=<id>`.
 */
export function sessionPicker(chosen: string): HTMLSelectElement {
  const select = document.createElement('select');
  select.dataset.testid = 'session-picker';
  const refresh = async (): Promise<void> => {
    let ids: Array<{ id: string; label: string }> = [];
    try {
      const response = await fetch('walker/sessions');
      const body = (await response.json()) as { sessions?: Array<{ id: string; models: Array<{ id: string; name?: string }>; steps: number }> };
      ids = (body.sessions ?? []).map((s) => ({ id: s.id, label: `${s.id} — ${s.models.map((m) => m.name ?? m.id).join(', ') || 'nothing loaded'}, ${s.steps} steps` }));
    } catch {
      // The service went away: keep what is listed.
      return;
    }
    const options = [{ id: 'default', label: 'default session (/walker)' }, ...ids];
    if (!options.some((o) => o.id === chosen)) options.push({ id: chosen, label: `${chosen} (gone)` });
    select.replaceChildren(
      ...options.map(({ id, label }) => {
        const option = document.createElement('option');
        option.value = id;
        option.textContent = label;
        option.selected = id === chosen;
        return option;
      }),
    );
  };
  select.addEventListener('change', () => {
    location.search = select.value === 'default' ? '' : `?session=${encodeURIComponent(select.value)}`;
  });
  void refresh();
  setInterval(() => void refresh(), REFRESH_MS);
  return select;
}
