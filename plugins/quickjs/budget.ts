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
 */
export class RequestBudget {
  private spentMs = 0;
  /** Time of the guards evaluated since the last step of this turn: they choose the next step. */
  private guardsMs = 0;
  private chargingGuards = false;
  private inTurn = false;
  private steppedInTurn = false;
  private readonly endTurn = (): void => {
    this.inTurn = false;
  };

  constructor(readonly budgetMs: number) {}

  /** A script is about to run; `guards` when it evaluates guards. */
  enter(guards: boolean): void {
    if (!this.inTurn) this.beginTurn();
    this.chargingGuards = guards;
  }

  /** The walk took a step. */
  stepped(): void {
    if (!this.inTurn) this.beginTurn();
    else if (this.steppedInTurn) this.spentMs = this.guardsMs;
    this.guardsMs = 0;
    this.steppedInTurn = true;
  }

  /**
   * Adds script time; true once the budget is spent. Guards evaluated after a step of the same turn choose
   * the next step, so they are charged to that step's budget.
   */
  charge(ms: number): boolean {
    if (this.chargingGuards && this.steppedInTurn) {
      this.guardsMs += ms;
      return this.guardsMs > this.budgetMs;
    }
    this.spentMs += ms;
    return this.spentMs > this.budgetMs;
  }

  private beginTurn(): void {
    this.inTurn = true;
    this.steppedInTurn = false;
    this.spentMs = 0;
    this.guardsMs = 0;
    queueMicrotask(this.endTurn);
  }
}
