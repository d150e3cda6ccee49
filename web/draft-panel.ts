import type { DraftMessage } from '../server/view/messages.js';

/** Beside a draft's graph: its revision, whether it validates, and every issue of its validation. */
export class DraftPanel {
  readonly element = document.createElement('aside');
  private readonly revision = document.createElement('span');
  private readonly verdict = document.createElement('p');
  private readonly issues = document.createElement('ul');

  constructor() {
    this.element.className = 'panel';
    this.revision.dataset.testid = 'draft-revision';
    this.verdict.dataset.testid = 'draft-valid';
    this.issues.dataset.testid = 'draft-issues';
    const title = document.createElement('p');
    title.append('Revision ', this.revision);
    const heading = document.createElement('h2');
    heading.textContent = 'Validation';
    this.element.append(title, this.verdict, heading, this.issues);
  }

  show(message: DraftMessage): void {
    this.revision.textContent = String(message.revision);
    this.verdict.textContent = message.valid ? 'The draft validates: it loads as it is.' : 'The draft does not validate yet.';
    this.verdict.dataset.valid = String(message.valid);
    const items = message.issues.map((issue) => {
      const li = document.createElement('li');
      li.dataset.code = issue.code;
      li.dataset.severity = issue.severity;
      li.textContent = `${issue.severity}: ${issue.message}`;
      return li;
    });
    this.issues.replaceChildren(...items);
  }

  say(message: string): void {
    this.verdict.textContent = message;
  }
}
