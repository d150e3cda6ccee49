import type { DraftIssue, DraftMessage } from '../../server/view/messages.js';
import { draftUrl, request, RequestFailed, sendChange, type Change } from './draft-api.js';
import { fromExport, type DraftState, type ExportedModel } from './draft-state.js';
import { History, type Step } from './history.js';
import { applyAnswer, inverseOf } from './steps.js';

/** An element of one of the drafts: selections and the side panel name elements so. */
export interface ElementRef {
  readonly draftId: string;
  readonly id: string;
}

export function refKey(ref: ElementRef): string {
  return `${ref.draftId}\u0000${ref.id}`;
}

/** What the editor tells the reader: a change that failed, one that lost a race, another editor's change. */
export interface Notice {
  readonly kind: 'error' | 'conflict' | 'info';
  readonly message: string;
  /** A change that was not applied, which the reader may send again. */
  readonly retry?: { readonly draftId: string; readonly change: Change; readonly label: string };
}

/**
 * The drafts an editor holds (docs/editor.md), kept as the service last answered them. Every edit is one
 * request of the draft API, sent with `If-Match` at the revision held: one at a time, in order, so that
 * quick edits (arrow keys) each name the revision the one before made. A change that lost the race (412) is
 * not applied: the draft is read again and the change offered again, never dropped silently.
 */
export class Editor {
  readonly drafts: DraftState[] = [];
  /** The draft that new elements go to and the panel shows when nothing is selected. */
  active = 0;
  readonly selection = new Map<string, ElementRef>();
  readonly issues = new Map<string, readonly DraftIssue[]>();
  readonly history = new History();
  notice: Notice | null = null;
  /** Called after anything shown changed. */
  onChange: () => void = () => {};
  private queue: Promise<unknown> = Promise.resolve();
  private pending = 0;
  private readonly streams = new Map<string, EventSource>();
  /** Per draft, the last message of its stream: the revision the service is at, and its validation. */
  private readonly latest = new Map<string, DraftMessage>();

  get busy(): boolean {
    return this.pending > 0;
  }

  draft(id: string): DraftState | undefined {
    return this.drafts.find((d) => d.id === id);
  }

  get activeDraft(): DraftState | undefined {
    return this.drafts[this.active];
  }

  /** Opens a draft of the service: reads it, and follows its validation. */
  async open(draftId: string): Promise<DraftState> {
    const draft = await this.read(draftId);
    this.drafts.push(draft);
    this.follow(draftId);
    if (this.drafts.length > 1) this.validateTogether();
    this.onChange();
    return draft;
  }

  /** Makes a new draft and opens it. */
  async create(fields: Record<string, unknown> = {}): Promise<DraftState> {
    const made = await request<{ draft_id: string }>('POST', 'walker/drafts', fields);
    const draft = await this.open(made.draft_id);
    this.active = this.drafts.indexOf(draft);
    return draft;
  }

  /** Sends one edit and records how to undo it; resolves true once applied, false when refused (noticed). */
  edit(draftId: string, change: Change, label: string, join = false): Promise<boolean> {
    return this.enqueue(async () => {
      const draft = this.draft(draftId);
      if (draft === undefined) return false;
      const before: DraftState = { ...draft, vertices: new Map(draft.vertices), edges: new Map(draft.edges) };
      const answer = await this.send(draft, change, label);
      if (answer === undefined) return false;
      const step: Step = { draftId, label, ...inverseOf(before, change, answer) };
      if (join) this.history.extend(step);
      else this.history.record(step);
      return true;
    });
  }

  undo(): Promise<boolean> {
    return this.enqueue(() => this.replay(this.history.takeUndo(), 'undo'));
  }

  redo(): Promise<boolean> {
    return this.enqueue(() => this.replay(this.history.takeRedo(), 'redo'));
  }

  /** Sends a change that was refused again, at the revision now held. */
  retry(): Promise<boolean> {
    const retry = this.notice?.retry;
    if (retry === undefined) return Promise.resolve(false);
    this.notice = null;
    return this.edit(retry.draftId, retry.change, retry.label);
  }

  say(notice: Notice | null): void {
    this.notice = notice;
    this.onChange();
  }

  select(refs: Iterable<ElementRef>, add = false): void {
    if (!add) this.selection.clear();
    for (const ref of refs) {
      this.selection.set(refKey(ref), ref);
      const index = this.drafts.findIndex((d) => d.id === ref.draftId);
      if (index >= 0) this.active = index;
    }
    this.onChange();
  }

  toggle(ref: ElementRef): void {
    const key = refKey(ref);
    if (this.selection.has(key)) this.selection.delete(key);
    else this.selection.set(key, ref);
    this.onChange();
  }

  /**
   * Lets go of a draft: no stream follows it and nothing of it is kept. Done before the draft is deleted on
   * the service, so that no request of the editor (a stream reconnecting, a joint validation) asks for it after.
   */
  drop(draftId: string): void {
    const index = this.drafts.findIndex((d) => d.id === draftId);
    if (index >= 0) this.drafts.splice(index, 1);
    this.streams.get(draftId)?.close();
    this.streams.delete(draftId);
    this.latest.delete(draftId);
    this.issues.delete(draftId);
    this.history.forget(draftId);
    for (const [key, ref] of this.selection) if (ref.draftId === draftId) this.selection.delete(key);
    this.active = Math.min(this.active, Math.max(0, this.drafts.length - 1));
  }

  /** Stops following the drafts' streams. */
  close(): void {
    for (const stream of this.streams.values()) stream.close();
    this.streams.clear();
  }

  private async replay(step: Step | undefined, what: 'undo' | 'redo'): Promise<boolean> {
    if (step === undefined) return false;
    const draft = this.draft(step.draftId);
    if (draft === undefined) return false;
    for (const change of what === 'undo' ? step.undo : step.redo) {
      if ((await this.send(draft, change, `${what} of ${step.label}`, false)) === undefined) return false;
    }
    this.onChange();
    return true;
  }

  /** One request at the revision held; its answer applied. A refusal is noticed and answers undefined. */
  private async send(draft: DraftState, change: Change, label: string, offerRetry = true): Promise<Record<string, unknown> | undefined> {
    try {
      const answer = await sendChange<Record<string, unknown>>(draft.id, draft.revision, change);
      applyAnswer(draft, change, answer);
      this.syncIssues(draft.id);
      for (const key of [...this.selection.keys()]) {
        const ref = this.selection.get(key) as ElementRef;
        if (ref.draftId === draft.id && !draft.vertices.has(ref.id) && !draft.edges.has(ref.id)) this.selection.delete(key);
      }
      this.onChange();
      return answer;
    } catch (error) {
      if (!(error instanceof RequestFailed)) {
        this.say({ kind: 'error', message: `${label}: the service cannot be reached (${(error as Error).message}); nothing was changed.` });
        return undefined;
      }
      if (error.status === 412) {
        await this.reload(draft.id);
        const now = this.draft(draft.id)?.revision;
        this.say({
          kind: 'conflict',
          message: `Not saved: ${label}. Another editor changed the draft first; it is shown as it is now (revision ${now}). Apply your change again, or leave it.`,
          ...(offerRetry ? { retry: { draftId: draft.id, change, label } } : {}),
        });
        return undefined;
      }
      this.say({ kind: 'error', message: `Not saved: ${label}. ${error.message}` });
      return undefined;
    }
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    this.pending++;
    const run = this.queue.then(task).finally(() => {
      this.pending--;
      if (this.pending === 0) this.catchUp();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Reads a draft again, as it stands: another client changed it, or a change of ours lost a race. */
  private async reload(draftId: string): Promise<void> {
    const index = this.drafts.findIndex((d) => d.id === draftId);
    if (index < 0) return;
    const fresh = await this.read(draftId);
    this.drafts[index] = fresh;
    this.history.forget(draftId);
    this.syncIssues(draftId);
    for (const [key, ref] of this.selection) if (ref.draftId === draftId && !fresh.vertices.has(ref.id) && !fresh.edges.has(ref.id)) this.selection.delete(key);
    this.onChange();
  }

  private async read(draftId: string): Promise<DraftState> {
    const { model, revision } = await request<{ model: { models: ExportedModel[] }; revision: number }>('GET', draftUrl(draftId));
    return fromExport(draftId, revision, model.models[0]);
  }

  /** Follows the draft's view stream (docs/view.md): its validation, and the revisions other clients make. */
  private follow(draftId: string): void {
    const source = new EventSource(`walker/view/drafts/${encodeURIComponent(draftId)}/events`);
    this.streams.set(draftId, source);
    source.onmessage = (event: MessageEvent<string>) => {
      const message = JSON.parse(event.data) as DraftMessage | { kind: 'gone'; message: string };
      if (message.kind === 'gone') {
        source.close();
        this.say({ kind: 'error', message: message.message });
        return;
      }
      this.latest.set(draftId, message);
      if (this.syncIssues(draftId)) this.onChange();
      if (!this.busy) this.catchUp();
    };
  }

  /**
   * Shows the validation the stream gave for the revision held, if it gave one. Several drafts are judged
   * together instead, as one model file ({@link validateTogether}): alone, a model entered only through a
   * shared state would have no start.
   */
  private syncIssues(draftId: string): boolean {
    if (this.drafts.length > 1) {
      this.validateTogether();
      return false;
    }
    const message = this.latest.get(draftId);
    const draft = this.draft(draftId);
    if (message === undefined || draft === undefined || message.revision !== draft.revision) return false;
    this.issues.set(draftId, message.issues);
    return true;
  }

  private judging: Promise<void> | undefined;
  private judgeAgain = false;

  /** One joint validation at a time; asked again while one runs, one more follows it. */
  private validateTogether(): void {
    if (this.judging !== undefined) {
      this.judgeAgain = true;
      return;
    }
    const drafts = [...this.drafts];
    this.judging = request<{ issues: Array<DraftIssue & { model_id: string | null }>; revisions: number[] }>('POST', 'walker/drafts/joint-validation', {
      draft_ids: drafts.map((d) => d.id),
    })
      .then(({ issues, revisions }) => {
        if (drafts.some((d, i) => this.draft(d.id)?.revision !== revisions[i])) this.judgeAgain = true;
        for (const draft of drafts) {
          // An issue of the file as a whole is shown with the first model.
          this.issues.set(draft.id, issues.filter((i) => i.model_id === draft.modelId || (i.model_id === null && draft === drafts[0])));
        }
        this.onChange();
      })
      .catch(() => undefined)
      .finally(() => {
        this.judging = undefined;
        if (this.judgeAgain) {
          this.judgeAgain = false;
          this.validateTogether();
        }
      });
  }

  /** Reads again every draft whose stream announced a revision the editor has not seen. */
  private catchUp(): void {
    for (const [draftId, { revision }] of this.latest) {
      const draft = this.draft(draftId);
      if (draft === undefined || revision <= draft.revision) continue;
      void this.enqueue(async () => {
        await this.reload(draftId);
        this.say({ kind: 'info', message: `Another editor changed the draft ${draft.modelId}: it is shown at revision ${this.draft(draftId)?.revision}.` });
      });
    }
  }
}
