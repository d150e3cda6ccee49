import type { Change } from './draft-api.js';

/** One edit as undo and redo replay it: the requests that take the draft back, and those that make it again. */
export interface Step {
  readonly draftId: string;
  readonly label: string;
  readonly undo: readonly Change[];
  readonly redo: readonly Change[];
}

/**
 * The editor's undo and redo (Ctrl+Z, Ctrl+Shift+Z). The draft API keeps only the current revision, so undo
 * sends the requests that give back the content of the revision before: the revision number goes on, the
 * model is the earlier one. A new edit forgets what could be redone.
 */
export class History {
  private readonly done: Step[] = [];
  private readonly undone: Step[] = [];

  record(step: Step): void {
    this.done.push(step);
    this.undone.length = 0;
  }

  /** Joins the last step with this one (the parts of one edit: a delete of several elements, a move of several). */
  extend(step: Step): void {
    const last = this.done.at(-1);
    if (last === undefined || last.draftId !== step.draftId) return this.record(step);
    this.done[this.done.length - 1] = { ...last, undo: [...step.undo, ...last.undo], redo: [...last.redo, ...step.redo] };
  }

  get canUndo(): boolean {
    return this.done.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  takeUndo(): Step | undefined {
    const step = this.done.pop();
    if (step !== undefined) this.undone.push(step);
    return step;
  }

  takeRedo(): Step | undefined {
    const step = this.undone.pop();
    if (step !== undefined) this.done.push(step);
    return step;
  }

  /** A draft was reloaded under the editor (another editor changed it): its steps no longer apply. */
  forget(draftId: string): void {
    for (const list of [this.done, this.undone]) {
      for (let i = list.length - 1; i >= 0; i--) if (list[i].draftId === draftId) list.splice(i, 1);
    }
  }
}
