import type { DraftIssue } from '../../server/view/messages.js';
import { el } from '../svg.js';
import { Actions } from './actions.js';
import { EditorCanvas } from './canvas.js';
import { draftUrl, request, RequestFailed } from './draft-api.js';
import { sessionOptions } from '../picker.js';
import { fromExport, type ExportedModel } from './draft-state.js';
import { Editor, type ElementRef } from './editor.js';
import { SHORTCUTS } from './shortcuts.js';
import { SidePanel } from './side-panel.js';
import { addEdgeChange, addVertexChange, patchChange } from './steps.js';

/** How far an arrow key moves the selected vertices, and with Shift. */
const NUDGE = 10;
const NUDGE_FAR = 50;

/**
 * The editor (docs/editor.md) at `/?edit` (a new empty draft), `/?draft=<id>&edit` (several `draft`s side
 * by side) and `/?session=<id>&edit` (new drafts of a session's models): the drawing, the toolbar and the side
 * panel, every change a request of the draft API.
 */
export async function startEditor(header: HTMLElement, body: HTMLElement, draftIds: readonly string[], session?: string): Promise<void> {
  const editor = new Editor();
  const actions = new Actions(editor);
  const canvas = new EditorCanvas(editor, actions);
  const panel = new SidePanel(editor, actions);
  const root = el('div', 'editor');
  root.dataset.testid = 'editor';
  const toolbar = el('div', 'editor-toolbar');
  toolbar.setAttribute('role', 'toolbar');
  toolbar.setAttribute('aria-label', 'Editor');
  const notice = el('div', 'editor-notice');
  notice.dataset.testid = 'notice';
  notice.setAttribute('role', 'status');
  notice.setAttribute('aria-live', 'polite');
  const side = el('aside', 'panel editor-panel');
  const revision = el('span', 'revision');
  revision.dataset.testid = 'revision';
  const drafts = el('select', '');
  drafts.dataset.testid = 'active-draft';
  drafts.setAttribute('aria-label', 'The model new elements go to');
  const issues = issuesSection();
  side.append(panel.element, issues.element, shortcutList());
  const pane = el('div', 'editor-pane');
  pane.append(toolbar, notice, canvas.element);
  root.append(pane, side);
  body.append(root);
  const caption = el('span', 'caption');
  caption.textContent = 'Editor';
  header.append(caption);

  const button = (label: string, testid: string, title: string, act: () => unknown): HTMLButtonElement => {
    const node = el('button', '');
    node.type = 'button';
    node.textContent = label;
    node.title = title;
    node.setAttribute('aria-label', title);
    node.dataset.testid = testid;
    node.addEventListener('click', () => void act());
    return node;
  };
  const form = (mode: 'add-vertex' | 'add-edge'): void => {
    panel.mode = mode;
    canvas.edgeMode = mode === 'add-edge';
    editor.onChange();
    panel.focusFirst();
  };
  const undoButton = button('Undo', 'undo', 'Undo (Ctrl+Z)', () => editor.undo());
  const redoButton = button('Redo', 'redo', 'Redo (Ctrl+Shift+Z)', () => editor.redo());
  const deleteButton = button('Delete', 'delete', 'Delete the selection (Delete)', () => actions.deleteSelection());
  const retry = button('Apply again', 'retry', 'Send the change that was not saved again', () => editor.retry());
  const fileInput = el('input', 'file');
  fileInput.type = 'file';
  fileInput.accept = '.json,.graphml,.xml';
  fileInput.dataset.testid = 'open-file';
  fileInput.setAttribute('aria-label', 'Open a model file (JSON or yEd GraphML) as new drafts');
  fileInput.addEventListener('change', () => {
    const file = fileInput.files?.[0];
    if (file !== undefined) void openFile(file).finally(() => (fileInput.value = ''));
  });
  const sessionChoice = el('select', '');
  sessionChoice.dataset.testid = 'open-session';
  sessionChoice.setAttribute('aria-label', "Open a running session's models as new drafts");
  const listSessions = async (): Promise<void> => {
    const options = await sessionOptions().catch(() => []);
    sessionChoice.replaceChildren(
      Object.assign(el('option', ''), { textContent: 'From a session…', value: '' }),
      ...options.map(({ id, label }) => Object.assign(el('option', ''), { textContent: label, value: id, title: id })),
    );
  };
  sessionChoice.addEventListener('focus', () => void listSessions());
  sessionChoice.addEventListener('pointerenter', () => void listSessions());
  sessionChoice.addEventListener('change', () => {
    const id = sessionChoice.value;
    sessionChoice.value = '';
    if (id !== '') void openSession(id);
  });
  const walkLink = el('a', 'walk-link');
  walkLink.dataset.testid = 'walk-link';
  walkLink.hidden = true;
  walkLink.target = '_blank';
  toolbar.append(
    button('+ Vertex', 'add-vertex', 'Add a vertex (N)', () => form('add-vertex')),
    button('+ Edge', 'add-edge', 'Add an edge (E); drag from a vertex to another', () => form('add-edge')),
    deleteButton,
    undoButton,
    redoButton,
    el('span', 'separator'),
    drafts,
    button('+ Model', 'add-model', 'Add a model beside the others, a new draft', () => addModel()),
    fileInput,
    sessionChoice,
    el('span', 'separator'),
    button('JSON', 'export-json', 'Download the models as one JSON model file', () => download('json')),
    button('GraphML', 'export-graphml', 'Download the models as one yEd GraphML file', () => download('graphml')),
    button('DOT', 'export-dot', 'Download the models as a Graphviz drawing', () => download('dot')),
    button('Walk', 'walk', 'Walk the models in a new session, and watch it', () => walk()),
    walkLink,
    labelled('Revision ', revision),
  );
  drafts.addEventListener('change', () => {
    editor.active = drafts.selectedIndex;
    editor.select([]);
  });

  editor.onChange = () => {
    canvas.render();
    panel.render();
    const draft = editor.activeDraft;
    revision.textContent = draft === undefined ? '' : String(draft.revision);
    undoButton.disabled = !editor.history.canUndo;
    redoButton.disabled = !editor.history.canRedo;
    deleteButton.disabled = editor.selection.size === 0;
    const names = editor.drafts.map((d) => d.fields.name ?? d.modelId);
    if ([...drafts.options].map((o) => o.textContent).join('\n') !== names.join('\n')) {
      drafts.replaceChildren(...names.map((name) => Object.assign(el('option', ''), { textContent: name })));
    }
    drafts.selectedIndex = editor.active;
    const said = editor.notice;
    notice.hidden = said === null;
    notice.dataset.kind = said?.kind ?? '';
    notice.replaceChildren(said?.message ?? '');
    if (said?.retry !== undefined) notice.append(' ', retry);
    if (said !== null) notice.append(' ', button('Dismiss', 'dismiss', 'Dismiss this message', () => editor.say(null)));
    issues.show(editor.drafts.flatMap((d) => (editor.issues.get(d.id) ?? []).map((issue) => ({ issue, draftId: d.id, model: d.modelId }))), (ref) => editor.select([ref]));
  };

  const urlOf = (): void => {
    const query = new URLSearchParams();
    for (const draft of editor.drafts) query.append('draft', draft.id);
    query.set('edit', '');
    history.replaceState(null, '', `?${query.toString().replace(/edit=$/, 'edit')}`);
  };
  const addModel = async (): Promise<void> => {
    await editor.create();
    urlOf();
  };

  /** Every model of the editor as one model file, each as its draft's export. */
  const modelFile = async (): Promise<{ models: ExportedModel[] }> => {
    const models: ExportedModel[] = [];
    for (const draft of editor.drafts) models.push(...(await request<{ model: { models: ExportedModel[] } }>('GET', draftUrl(draft.id))).model.models);
    return { models };
  };

  const download = async (format: 'json' | 'graphml' | 'dot'): Promise<void> => {
    try {
      const file = await modelFile();
      const text = format === 'json' ? `${JSON.stringify(file, null, 2)}\n` : (await request<{ text: string }>('POST', 'walker/drafts/convert', { text: JSON.stringify(file), format })).text;
      const name = `${editor.drafts.length === 1 ? (editor.drafts[0]?.modelId ?? 'model') : 'models'}.${format === 'graphml' ? 'graphml' : format}`;
      const link = el('a', '');
      link.href = URL.createObjectURL(new Blob([text], { type: format === 'json' ? 'application/json' : 'text/plain' }));
      link.download = name;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch (error) {
      editor.say({ kind: 'error', message: `The export failed: ${(error as Error).message}` });
    }
  };

  const walk = async (): Promise<void> => {
    try {
      const only = editor.drafts.length === 1 ? editor.drafts[0] : undefined;
      const body = only === undefined ? JSON.stringify(await modelFile()) : { draft: only.id, revision: only.revision };
      const session = await request<{ id: string }>('POST', 'walker/sessions', body);
      const url = `./?session=${encodeURIComponent(session.id)}`;
      walkLink.href = url;
      walkLink.textContent = `Watch the walk ${session.id.slice(0, 8)}`;
      walkLink.hidden = false;
      window.open(url, '_blank');
    } catch (error) {
      editor.say({ kind: 'error', message: `The walk did not start: ${(error as Error).message}` });
    }
  };

  /** Opens a model file as new drafts, one a model: its elements sent one request each, in the file's order. */
  const openFile = async (file: File): Promise<void> => {
    try {
      const converted = await request<{ model: { models: ExportedModel[] } }>('POST', 'walker/drafts/convert', { text: await file.text(), file_name: file.name });
      await openModels(converted.model.models);
    } catch (error) {
      editor.say({ kind: 'error', message: `${file.name} did not open: ${(error as Error).message}` });
    }
  };
  /** Opens the models a session walks (its `getModel`; `default` is the walk of `/walker`) as new drafts. */
  const openSession = async (id: string): Promise<void> => {
    const url = id === 'default' ? 'walker/getModel' : `walker/sessions/${encodeURIComponent(id)}/getModel`;
    try {
      const answer = await request<{ result: string; error?: string; model?: { models: ExportedModel[] } }>('GET', url);
      // The execution endpoints answer a refusal with HTTP 200 and `nok`, as GraphWalker does.
      if (answer.result !== 'ok' || answer.model === undefined) throw new Error(answer.error ?? 'the service answered no model');
      await openModels(answer.model.models);
    } catch (error) {
      editor.say({ kind: 'error', message: `The models of session ${id} did not open: ${(error as Error).message}` });
    }
  };
  /**
   * New drafts, one a model, in place of the empty draft the editor started with. The empty ones leave the
   * editor before the first model comes, so that no request of the editor names them once they are deleted;
   * should the opening fail, they come back.
   */
  const openModels = async (models: readonly ExportedModel[]): Promise<void> => {
    if (models.length === 0) throw new Error('it has no models');
    const empty = editor.drafts.filter((d) => d.revision === 0 && d.vertices.size === 0).map((d) => d.id);
    for (const id of empty) editor.drop(id);
    try {
      for (const model of models) await importModel(model);
    } catch (error) {
      for (const id of empty) await editor.open(id).catch(() => undefined);
      throw error;
    }
    for (const id of empty) void request('DELETE', draftUrl(id)).catch(() => undefined);
    editor.active = Math.max(0, editor.drafts.length - models.length);
    urlOf();
    editor.onChange();
  };
  const importModel = async (model: ExportedModel): Promise<void> => {
    // Read as the draft API names things, then sent element by element in the file's order.
    const read = fromExport('', 0, model);
    const { start_element_id: startId, predefined_path_edge_ids: path, ...fields } = read.fields;
    const taken = editor.drafts.some((d) => d.modelId === model.id);
    const draft = await editor.create({ ...fields, ...(taken ? {} : { model_id: model.id }) });
    for (const vertex of read.vertices.values()) await editor.edit(draft.id, addVertexChange(vertex), 'open a vertex');
    for (const edge of read.edges.values()) await editor.edit(draft.id, addEdgeChange(edge), 'open an edge');
    if (startId !== null || path.length > 0) {
      await editor.edit(draft.id, patchChange('model', '', { start_element_id: startId, predefined_path_edge_ids: path }), 'open the start element');
    }
  };
  canvas.element.addEventListener('dragover', (event) => event.preventDefault());
  canvas.element.addEventListener('drop', (event) => {
    event.preventDefault();
    const file = event.dataTransfer?.files[0];
    if (file !== undefined) void openFile(file);
  });

  document.addEventListener('keydown', (event) => keyboard(event));
  const keyboard = (event: KeyboardEvent): void => {
    const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLSelectElement;
    const ctrl = event.ctrlKey || event.metaKey;
    if (event.key === 'Escape') {
      // From a field, back to the drawing (leaving the field sends it, as Tab does); from the drawing, clear.
      if (typing) return canvas.svg.focus();
      panel.mode = 'subject';
      canvas.edgeMode = false;
      editor.select([]);
      return;
    }
    if (typing) return;
    const key = event.key.toLowerCase();
    if (ctrl && key === 'z') {
      event.preventDefault();
      void (event.shiftKey ? editor.redo() : editor.undo());
    } else if (ctrl && key === 'y') {
      event.preventDefault();
      void editor.redo();
    } else if (ctrl && key === 'a') {
      event.preventDefault();
      const draft = editor.activeDraft;
      if (draft !== undefined) editor.select([...draft.vertices.keys(), ...draft.edges.keys()].map((id) => ({ draftId: draft.id, id })));
    } else if (ctrl || event.altKey) {
      return;
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      void actions.deleteSelection();
    } else if (key === 'n') {
      event.preventDefault();
      form('add-vertex');
    } else if (key === 'e') {
      event.preventDefault();
      form('add-edge');
    } else if (key === 'f') {
      event.preventDefault();
      panel.focusFirst();
    } else if (event.key.startsWith('Arrow')) {
      const step = event.shiftKey ? NUDGE_FAR : NUDGE;
      const [dx, dy] = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[event.key] ?? [0, 0];
      const places = [...editor.selection.values()].flatMap((ref: ElementRef) => {
        const at = canvas.placeOf(ref);
        return at === undefined ? [] : [{ ref, at: { x: at.x + dx, y: at.y + dy } }];
      });
      if (places.length === 0) return;
      event.preventDefault();
      void actions.move(places);
    }
  };

  try {
    for (const id of draftIds) await editor.open(id);
    if (session !== undefined) await openSession(session);
    if (editor.drafts.length === 0) await editor.create();
    urlOf();
  } catch (error) {
    const message = error instanceof RequestFailed ? error.message : `The service cannot be reached: ${(error as Error).message}`;
    editor.say({ kind: 'error', message });
  }
  editor.onChange();
}

function labelled(text: string, value: HTMLElement): HTMLElement {
  const span = el('span', 'labelled');
  span.append(text, value);
  return span;
}

/** The validation issues of every draft, listed; each one selects the element it names. */
function issuesSection(): { element: HTMLElement; show(list: ReadonlyArray<{ issue: DraftIssue; draftId: string; model: string }>, select: (ref: ElementRef) => void): void } {
  const element = el('section', 'editor-issues');
  element.setAttribute('aria-label', 'Validation');
  const heading = el('h2', '');
  heading.textContent = 'Validation';
  const verdict = el('p', '');
  verdict.dataset.testid = 'draft-valid';
  const list = el('ul', '');
  list.dataset.testid = 'issues';
  element.append(heading, verdict, list);
  return {
    element,
    show(issues, select) {
      const errors = issues.filter((i) => i.issue.severity === 'error').length;
      verdict.dataset.valid = String(errors === 0);
      verdict.textContent = errors === 0 ? 'The models validate: they load as they are.' : `${errors} error${errors === 1 ? '' : 's'}: the models do not load yet.`;
      list.replaceChildren(
        ...issues.map(({ issue, draftId, model }) => {
          const li = el('li', '');
          li.dataset.code = issue.code;
          li.dataset.severity = issue.severity;
          if (issue.element_id !== null) {
            li.dataset.elementId = issue.element_id;
            const go = el('button', 'link');
            go.type = 'button';
            go.textContent = issue.element_id;
            go.setAttribute('aria-label', `Select ${issue.element_id}`);
            go.addEventListener('click', () => select({ draftId, id: issue.element_id as string }));
            li.append(`${issue.severity} in ${model} at `, go, `: ${issue.message}`);
          } else li.append(`${issue.severity} in ${model}: ${issue.message}`);
          return li;
        }),
      );
    },
  };
}

function shortcutList(): HTMLElement {
  const details = el('details', 'shortcuts');
  details.dataset.testid = 'shortcuts';
  details.open = true;
  const summary = el('summary', '');
  summary.textContent = 'Keyboard';
  const list = el('dl', '');
  for (const [keys, what] of SHORTCUTS) {
    const dt = el('dt', '');
    const kbd = el('kbd', '');
    kbd.textContent = keys;
    dt.append(kbd);
    const dd = el('dd', '');
    dd.textContent = what;
    list.append(dt, dd);
  }
  details.append(summary, list);
  return details;
}
