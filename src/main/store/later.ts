// Work that must not delay the answers of this turn of the event loop (the group commit's beacon answers)
// but must not wait long either: it runs on the next turn, at most `perTurn` steps per turn.

export class Later {
  private scheduled: NodeJS.Immediate | null = null;
  private readonly waiting: Array<() => void> = [];
  private stopped = false;

  constructor(
    /** is there work to do? */
    private readonly due: () => boolean,
    /** one bounded step of it */
    private readonly step: () => void,
    private readonly perTurn: number,
  ) {}

  /** Run the work on a later turn (once, however often it is asked for meanwhile). */
  schedule(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = setImmediate(() => {
      this.scheduled = null;
      for (let steps = 0; this.due() && !this.stopped; steps++) {
        if (steps === this.perTurn) return this.schedule();
        this.step();
      }
      for (const resolve of this.waiting.splice(0)) resolve();
    });
  }

  /** Resolves once no work is scheduled. */
  done(): Promise<void> {
    if (!this.scheduled) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** No more work (the owner closed); waiters are let go. */
  stop(): void {
    this.stopped = true;
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = null;
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}
