/**
 * The time budget of one request (docs/behaviour.md, "Scripts"): the sum of the time every script of a load,
 * a step, a setData or a getData runs, however many scripts that is.
 *
 * The sandbox sees scripts, not requests, so it finds their edges itself. Every request of the service runs
 * synchronously, from the handler to the last script, so a request is a run of the event loop: the first
 * script after the event loop turned opens a new budget, and a microtask queued then marks the turn's end.
 * A walk driven in one synchronous loop (`walker offline`, a library `for … of`) never yields; there each
 * step opens a new budget that starts with the guards evaluated to choose it, so that a step is its guards
 * and its actions in both cases. The first step of a turn opens none: in a getNext the guards, the step and
 * the actions are one request already.
 *
 * A host may also ask scripts to yield (`SandboxOptions.yieldAfterMs`): past that much script time in one
 * request, however it splits into steps, the request stops so that its host runs it elsewhere.
 */
export class RequestBudget {
  private spentMs = 0;
  /** Script time of this turn in all, for the host's yield. */
  private turnMs = 0;
  /** The host's yield for this turn, read when it began; undefined for none. */
  yieldMs: number | undefined;
  /** Time of the guards evaluated since the last step of this turn: they choose the next step. */
  private guardsMs = 0;
  private chargingGuards = false;
  private inTurn = false;
  private steppedInTurn = false;
  /** The walk's step count when a script last ran: a step since then opens the step's budget. */
  private seenSteps: number;
  private readonly endTurn = (): void => {
    this.inTurn = false;
  };

  /**
   * `steps` counts the walk's steps. The budget reads it when a script is about to run rather than being told
   * of every step: a walk without scripts then pays nothing per step, and steps taken with no script between
   * them open one budget as they would one by one (nothing was charged in between).
   */
  constructor(
    readonly budgetMs: number,
    private readonly steps: () => number,
    private readonly yieldAfterMs: () => number | undefined = () => undefined,
  ) {
    this.seenSteps = steps();
  }

  /** A script is about to run; `guards` when it evaluates guards. */
  enter(guards: boolean): void {
    const steps = this.steps();
    if (steps !== this.seenSteps) {
      this.seenSteps = steps;
      this.stepped();
    }
    if (!this.inTurn) this.beginTurn();
    this.chargingGuards = guards;
  }

  /** The walk was restarted: its step count starts again, and that is no step. */
  rewind(): void {
    this.seenSteps = this.steps();
  }

  /** The walk took a step. */
  private stepped(): void {
    if (!this.inTurn) this.beginTurn();
    else if (this.steppedInTurn) this.spentMs = this.guardsMs;
    this.guardsMs = 0;
    this.steppedInTurn = true;
  }

  /**
   * Adds script time; says which is spent, the time before the host's yield or the budget, if either: the
   * yield first, since the request then runs again where the budget is whole. Guards evaluated after a step
   * of the same turn choose the next step, so they are charged to that step's budget.
   */
  charge(ms: number): 'budget' | 'yield' | undefined {
    this.turnMs += ms;
    let spent: boolean;
    if (this.chargingGuards && this.steppedInTurn) {
      this.guardsMs += ms;
      spent = this.guardsMs > this.budgetMs;
    } else {
      this.spentMs += ms;
      spent = this.spentMs > this.budgetMs;
    }
    if (this.yieldMs !== undefined && this.turnMs > this.yieldMs) return 'yield';
    return spent ? 'budget' : undefined;
  }

  private beginTurn(): void {
    this.inTurn = true;
    this.steppedInTurn = false;
    this.spentMs = 0;
    this.guardsMs = 0;
    this.turnMs = 0;
    this.yieldMs = this.yieldAfterMs();
    queueMicrotask(this.endTurn);
  }
}
