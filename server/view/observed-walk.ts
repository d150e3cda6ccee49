import { andThen } from '../../core/awaitable.js';
import type { Step } from '../../core/machine/machine.js';
import { WALK_OPERATIONS, type Awaitable, type SessionWalk, type StepAnswer, type WalkOperation } from '../../core/session.js';
import { walkForwarder, type WalkOperationName } from '../../core/walk-proxy.js';
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
 * before each request), and the steps it takes are noted on the way back. What an operation does to the list
 * is its `observed` in `WALK_OPERATIONS` (core/session.ts): a load or restart starts it afresh, as the walk itself starts
 * afresh, and a step adds itself.
 */
export class ObservedWalk extends walkForwarder<SessionWalk>() implements SessionWalk {
  inner!: SessionWalk;

  constructor(private readonly steps: RecentSteps) {
    super();
  }

  override forward(op: WalkOperationName, first: unknown, second: unknown): Awaitable<unknown> {
    const answer = (this.inner[op] as (first: unknown, second: unknown) => Awaitable<unknown>).call(this.inner, first, second);
    const observed = (WALK_OPERATIONS[op] as WalkOperation).observed;
    if (observed === undefined) return answer;
    return andThen(answer, (settled) => {
      if (observed === 'step') this.steps.add((settled as StepAnswer).step);
      else this.steps.clear();
      return settled;
    });
  }
}
