import { el } from '../svg.js';
import type { Actions } from './actions.js';
import { request } from './draft-api.js';
import { elementOf, type DraftState } from './draft-state.js';
import type { Editor, ElementRef } from './editor.js';
import { checkDependency, checkNewId, checkProperties, checkWeight, linesOf, type Checked } from './field-checks.js';
import { patchChange } from './steps.js';

/** How long typing rests before a script is sent to be parsed. */
const CHECK_DELAY_MS = 150;

type ScriptKind = 'guard' | 'actions' | 'generator';

interface ScriptVerdict {
  readonly valid: boolean;
  readonly message?: string;
  readonly line?: number;
  readonly column?: number;
  readonly index?: number | null;
}

/** One field of the panel: its input, how it reads a value out of the text, and its error line. */
interface Field {
  readonly name: string;
  readonly input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
  readonly error: HTMLElement;
}

/** What the panel shows: a model, an element, several elements, or a form that adds one. */
export type PanelMode = 'subject' | 'add-vertex' | 'add-edge';

/**
 * The side panel (docs/editor.md): every field the draft API holds for what is selected — the model when
 * nothing is, a vertex, an edge — as `data-testid="field-<name>"`, each sent on change as one PATCH of that
 * member alone; a value the page can judge is judged first and shown at `field-error`, not sent. Guards,
 * actions and the generator are parsed as they are typed, by the service's own parser.
 */
export class SidePanel {
  readonly element: HTMLElement;
  mode: PanelMode = 'subject';
  private readonly form = el('div', 'fields');
  private readonly heading = el('h2', '');
  private subjectKey = '';
  private fields: Field[] = [];
  private readonly checks = new Map<string, Promise<ScriptVerdict>>();

  constructor(
    private readonly editor: Editor,
    private readonly actions: Actions,
  ) {
    this.element = el('section', 'editor-fields');
    this.element.setAttribute('aria-label', 'Fields of the selection');
    this.element.append(this.heading, this.form);
  }

  /** Shows the fields of what is selected; fields of the same subject keep what is being typed. */
  render(): void {
    const draft = this.editor.activeDraft;
    const selected = [...this.editor.selection.values()];
    const key = `${this.mode}\u0000${draft?.id ?? ''}\u0000${selected.map((r) => `${r.draftId}/${r.id}`).join(',')}`;
    // What is being typed stays; the subject's fields are shown anew once the focus leaves them.
    if (key === this.subjectKey && this.form.contains(document.activeElement)) return;
    this.subjectKey = key;
    this.fields = [];
    this.form.replaceChildren();
    if (draft === undefined) {
      this.heading.textContent = 'No model';
      return;
    }
    if (this.mode === 'add-vertex') return this.addVertexForm(draft);
    if (this.mode === 'add-edge') return this.addEdgeForm(draft, selected);
    if (selected.length > 1) {
      this.heading.textContent = `${selected.length} elements selected`;
      this.form.append(paragraph('Delete removes them all (a vertex with its edges); Ctrl+Z brings them back.'));
      return;
    }
    if (selected.length === 1) return this.elementFields(selected[0]);
    this.modelFields(draft);
  }

  /** Focuses the first field: the keyboard's way into the panel. */
  focusFirst(): void {
    this.fields.find((f) => !f.input.disabled)?.input.focus();
  }

  private modelFields(draft: DraftState): void {
    this.heading.textContent = `Model ${draft.modelId}`;
    const send = (body: Record<string, unknown>, label: string) => this.editor.edit(draft.id, patchChange('model', '', body), label);
    const f = draft.fields;
    this.text('name', 'Name', f.name ?? '', (v) => send({ name: v === '' ? null : v }, 'the model name'));
    this.script('generator', 'Generator', f.generator ?? '', 'generator', (v) => send({ generator: v === '' ? null : v }, 'the generator'));
    const elements = [...draft.vertices.keys(), ...draft.edges.keys()];
    this.select('start-element', 'Start element', f.start_element_id ?? '', [['', '(none: the start edge)'], ...elements.map((id) => [id, id] as [string, string])], (v) =>
      send({ start_element_id: v === '' ? null : v }, 'the start element'),
    );
    this.script('actions', 'Actions (one a line)', f.actions.join('\n'), 'actions', (v) => send({ actions: linesOf(v) }, 'the model actions'));
    this.area('requirements', 'Requirements (one a line)', f.requirements.join('\n'), (v) => send({ requirements: linesOf(v) }, 'the model requirements'));
    this.checked('predefined-path', 'Predefined path (edge ids)', f.predefined_path_edge_ids.join(' '), (text) => {
      const ids = text.split(/[\s,]+/).filter((id) => id !== '');
      const unknown = ids.find((id) => !draft.edges.has(id));
      return unknown === undefined ? { ok: true, value: ids } : { ok: false, error: `'${unknown}' is no edge of this model.` };
    }, (ids) => send({ predefined_path_edge_ids: ids }, 'the predefined path'));
    this.properties(f.properties, (value) => send({ properties: value }, 'the model properties'));
  }

  private elementFields(ref: ElementRef): void {
    const draft = this.editor.draft(ref.draftId);
    const element = draft === undefined ? undefined : elementOf(draft, ref.id);
    if (draft === undefined || element === undefined) return;
    const send = (body: Record<string, unknown>, label: string) => this.editor.edit(draft.id, patchChange(element.kind, ref.id, body), `${label} of ${ref.id}`);
    this.heading.textContent = `${element.kind === 'vertex' ? 'Vertex' : 'Edge'} ${ref.id}`;
    this.readOnly('id', 'Id', ref.id);
    this.text('name', 'Name', element.data.name, (v) => send({ name: v === '' ? null : v }, 'the name'));
    if (element.kind === 'vertex') {
      this.text('shared-state', 'Shared state', element.data.shared_state ?? '', (v) => send({ shared_state: v === '' ? null : v }, 'the shared state'));
    } else {
      const e = element.data;
      const vertices = [...draft.vertices.values()].map((v) => [v.id, v.name] as [string, string]);
      this.select('source', 'Source', e.source_vertex_id ?? '', [['', '(none: a start edge)'], ...vertices], (v) => send({ source_vertex_id: v === '' ? null : v }, 'the source'));
      this.select('target', 'Target', e.target_vertex_id, vertices, (v) => send({ target_vertex_id: v }, 'the target'));
      this.script('guard', 'Guard', e.guard ?? '', 'guard', (v) => send({ guard: v === '' ? null : v }, 'the guard'));
      this.checked('weight', 'Weight (0 to 1)', e.weight === null ? '' : String(e.weight), checkWeight, (v) => send({ weight: v }, 'the weight'));
      this.checked('dependency', 'Dependency (0 to 100)', e.dependency === null ? '' : String(e.dependency), checkDependency, (v) => send({ dependency: v }, 'the dependency'));
    }
    this.script('actions', 'Actions (one a line)', element.data.actions.join('\n'), 'actions', (v) => send({ actions: linesOf(v) }, 'the actions'));
    this.area('requirements', 'Requirements (one a line)', element.data.requirements.join('\n'), (v) => send({ requirements: linesOf(v) }, 'the requirements'));
    this.properties(element.data.properties, (value) => send({ properties: value }, 'the properties'));
  }

  private addVertexForm(draft: DraftState): void {
    this.heading.textContent = `Add a vertex to ${draft.modelId}`;
    const id = this.input('id', 'Id (empty: chosen for you)', '');
    const name = this.input('name', 'Name', '');
    this.submit('Add the vertex', async () => {
      const checked = checkNewId(id.input.value, (v) => ownerOf(draft, v));
      if (!checked.ok) return fail(id, checked.error);
      const count = draft.vertices.size;
      const made = await this.actions.addVertex(draft, { x: (count % 4) * 200, y: 40 + Math.floor(count / 4) * 100 }, {
        ...(checked.value === undefined ? {} : { id: checked.value }),
        ...(name.input.value === '' ? {} : { name: name.input.value }),
      });
      if (made !== undefined) this.mode = 'subject';
    });
  }

  private addEdgeForm(draft: DraftState, selected: readonly ElementRef[]): void {
    this.heading.textContent = `Add an edge to ${draft.modelId}`;
    const vertices = [...draft.vertices.values()].map((v) => [v.id, v.name] as [string, string]);
    const from = selected.find((r) => r.draftId === draft.id && draft.vertices.has(r.id))?.id ?? '';
    const id = this.input('id', 'Id (empty: chosen for you)', '');
    const name = this.input('name', 'Name', '');
    const source = this.choice('source', 'Source', from, [['', '(none: a start edge)'], ...vertices]);
    const target = this.choice('target', 'Target', vertices[0]?.[0] ?? '', vertices);
    this.submit('Add the edge', async () => {
      const checked = checkNewId(id.input.value, (v) => ownerOf(draft, v));
      if (!checked.ok) return fail(id, checked.error);
      if (target.input.value === '') return fail(target, 'an edge needs a target vertex: add a vertex first.');
      const made = await this.actions.addEdge(draft, source.input.value === '' ? null : source.input.value, target.input.value, {
        ...(checked.value === undefined ? {} : { id: checked.value }),
        ...(name.input.value === '' ? {} : { name: name.input.value }),
      });
      if (made !== undefined) this.mode = 'subject';
    });
  }

  private submit(label: string, act: () => Promise<void>): void {
    const row = el('div', 'field-buttons');
    const add = el('button', '');
    add.type = 'button';
    add.textContent = label;
    add.dataset.testid = 'confirm-add';
    const cancel = el('button', '');
    cancel.type = 'button';
    cancel.textContent = 'Cancel';
    cancel.dataset.testid = 'cancel-add';
    add.addEventListener('click', () => void act().then(() => this.editor.onChange()));
    cancel.addEventListener('click', () => {
      this.mode = 'subject';
      this.editor.onChange();
    });
    for (const field of this.fields) {
      field.input.addEventListener('keydown', (event) => {
        if ((event as KeyboardEvent).key === 'Enter') {
          event.preventDefault();
          add.click();
        }
      });
    }
    row.append(add, cancel);
    this.form.append(row);
  }

  private field(name: string, label: string, input: Field['input']): Field {
    const row = el('div', 'field');
    const caption = el('label', '');
    const id = `field-${name}-${Math.random().toString(36).slice(2, 8)}`;
    caption.htmlFor = id;
    caption.textContent = label;
    input.id = id;
    input.dataset.testid = `field-${name}`;
    const error = el('p', 'field-error');
    error.dataset.testid = 'field-error';
    error.id = `${id}-error`;
    error.setAttribute('role', 'alert');
    error.hidden = true;
    input.setAttribute('aria-describedby', error.id);
    row.append(caption, input, error);
    this.form.append(row);
    const field = { name, input, error };
    this.fields.push(field);
    return field;
  }

  private input(name: string, label: string, value: string): Field {
    const input = el('input', '');
    input.type = 'text';
    input.value = value;
    return this.field(name, label, input);
  }

  private choice(name: string, label: string, value: string, options: ReadonlyArray<[string, string]>): Field {
    const select = el('select', '');
    for (const [v, text] of options) {
      const option = el('option', '');
      option.value = v;
      option.textContent = v === text || v === '' ? text : `${text} (${v})`;
      select.append(option);
    }
    select.value = value;
    return this.field(name, label, select);
  }

  private readOnly(name: string, label: string, value: string): void {
    const field = this.input(name, label, value);
    (field.input as HTMLInputElement).readOnly = true;
  }

  private text(name: string, label: string, value: string, send: (value: string) => Promise<boolean>): void {
    const field = this.input(name, label, value);
    field.input.addEventListener('change', () => void send(field.input.value));
  }

  private select(name: string, label: string, value: string, options: ReadonlyArray<[string, string]>, send: (value: string) => Promise<boolean>): void {
    const field = this.choice(name, label, value, options);
    field.input.addEventListener('change', () => void send(field.input.value));
  }

  private area(name: string, label: string, value: string, send: (value: string) => Promise<boolean>): Field {
    const area = el('textarea', '');
    area.rows = Math.min(6, Math.max(2, value.split('\n').length));
    area.value = value;
    const field = this.field(name, label, area);
    area.addEventListener('change', () => void send(area.value));
    return field;
  }

  /** A field whose text the page judges before sending: an error is shown there, and nothing is sent. */
  private checked<T>(name: string, label: string, value: string, check: (text: string) => Checked<T>, send: (value: T) => Promise<boolean>): void {
    const field = this.input(name, label, value);
    field.input.addEventListener('change', () => {
      const result = check(field.input.value);
      if (!result.ok) return fail(field, result.error);
      clear(field);
      void send(result.value);
    });
  }

  private properties(value: Record<string, unknown>, send: (value: Record<string, unknown>) => Promise<boolean>): void {
    const area = el('textarea', '');
    area.rows = 3;
    area.value = Object.keys(value).length === 0 ? '' : JSON.stringify(value);
    const field = this.field('properties', 'Properties (a JSON object)', area);
    area.addEventListener('change', () => {
      const result = checkProperties(area.value);
      if (!result.ok) return fail(field, result.error);
      clear(field);
      void send(result.value);
    });
  }

  /** A guard, actions or a generator: parsed by the service as typed; sent on change only if it parses. */
  private script(name: string, label: string, value: string, kind: ScriptKind, send: (value: string) => Promise<boolean>): void {
    const input = kind === 'guard' || kind === 'generator' ? el('input', '') : el('textarea', '');
    if (input instanceof HTMLInputElement) input.type = 'text';
    else input.rows = Math.min(6, Math.max(2, value.split('\n').length));
    input.value = value;
    input.spellcheck = false;
    const field = this.field(name, label, input);
    let timer = 0;
    const check = (): Promise<ScriptVerdict> => {
      const text = input.value;
      const source = kind === 'actions' ? linesOf(text) : text;
      let verdict = this.checks.get(`${kind}\u0000${text}`);
      if (verdict === undefined) {
        verdict = text.trim() === '' ? Promise.resolve({ valid: true }) : request<ScriptVerdict>('POST', 'walker/drafts/script-check', { kind, source });
        this.checks.set(`${kind}\u0000${text}`, verdict);
      }
      return verdict.then((v) => {
        if (input.value !== text) return v;
        if (v.valid) clear(field);
        else fail(field, `${kind === 'actions' && typeof v.index === 'number' ? `action ${v.index + 1}, ` : ''}line ${v.line}, column ${v.column}: ${v.message}`);
        return v;
      });
    };
    input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = window.setTimeout(() => void check().catch(() => undefined), CHECK_DELAY_MS);
    });
    input.addEventListener('change', () => {
      clearTimeout(timer);
      void check()
        .then((verdict) => (verdict.valid ? send(input.value) : false))
        .catch((error: Error) => fail(field, `could not be checked: ${error.message}`));
    });
  }
}

function ownerOf(draft: DraftState, id: string): string | undefined {
  if (draft.vertices.has(id)) return 'a vertex';
  if (draft.edges.has(id)) return 'an edge';
  return undefined;
}

function fail(field: Field, message: string): void {
  field.error.textContent = message;
  field.error.hidden = false;
  field.input.setAttribute('aria-invalid', 'true');
}

function clear(field: Field): void {
  field.error.textContent = '';
  field.error.hidden = true;
  field.input.removeAttribute('aria-invalid');
}

function paragraph(text: string): HTMLElement {
  const p = el('p', '');
  p.textContent = text;
  return p;
}
