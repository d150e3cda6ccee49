import { andThen } from '../../core/awaitable.js';
import type { Step } from '../../core/machine/machine.js';
import type { WalkStatistics } from '../../core/machine/statistics.js';
import type { ModelFileJson } from '../../core/model/types.js';
import type { Awaitable, SessionLoadOptions, SessionLoadResult, SessionWalk, StepAnswer, WalkSummary, WalkView } from '../../core/session.js';
import type { StepSeen } from './messages.js';

/** The last steps of a walk, oldest first, in a ring of fixed size. */
export class RecentSteps {
  private readonly ring: (StepSeen | undefined)[];
  private next = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    this.ring = new Array<StepSeen | undefined>(capacity);
  }

  add(step: Step): void {
    this.ring[this.next] = { index: step.element, id: step.id, name: step.name, modelId: step.modelId };
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }

  clear(): void {
    this.ring.fill(undefined);
    this.next = 0;
    this.count = 0;
  }

  list(): StepSeen[] {
    const out: StepSeen[] = [];
    for (let i = this.count; i > 0; i--) out.push(this.ring[(this.next - i + this.capacity) % this.capacity] as StepSeen);
    return out;
  }
}

/**
 * A session's walk as a watched request sees it: everything goes to the walk itself ({@link inner}, set
 * before each request), and the steps it takes are noted on the way back. A load or restart starts the list
 * of steps afresh, as the walk itself starts afresh.
 */
export class ObservedWalk implements SessionWalk {
  inner!: SessionWalk;

  constructor(private readonly steps: RecentSteps) {}

  load(text: string, options?: SessionLoadOptions): Awaitable<SessionLoadResult> {
    return andThen(this.inner.load(text, options), (result) => {
      this.steps.clear();
      return result;
    });
  }

  next(): Awaitable<StepAnswer> {
    return andThen(this.inner.next(), (answer) => {
      this.steps.add(answer.step);
      return answer;
    });
  }

  restart(): Awaitable<void> {
    return andThen(this.inner.restart(), () => this.steps.clear());
  }

  hasNext(): Awaitable<boolean> {
    return this.inner.hasNext();
  }

  variables(): Awaitable<Array<[string, string]>> {
    return this.inner.variables();
  }

  setData(script: string): Awaitable<void> {
    return this.inner.setData(script);
  }

  fail(reason: string): Awaitable<void> {
    return this.inner.fail(reason);
  }

  stepCount(): Awaitable<number> {
    return this.inner.stepCount();
  }

  statistics(): Awaitable<WalkStatistics> {
    return this.inner.statistics();
  }

  modelFile(): Awaitable<ModelFileJson> {
    return this.inner.modelFile();
  }

  describe(): Awaitable<WalkSummary> {
    return this.inner.describe();
  }

  view(knownLoad?: number): Awaitable<WalkView> {
    return this.inner.view(knownLoad);
  }
}
