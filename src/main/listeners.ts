// A set of listeners told of one kind of change, each call guarded: a listener that throws is reported
// and the others are still told (the caller's own work, e.g. storing an event, never fails for it).

export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();

  /** `what` names the listeners in the report of one that failed, e.g. "event listener" */
  constructor(private readonly what: string) {}

  /** Returns the unsubscribe. */
  on(listener: (value: T) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }

  get size(): number {
    return this.set.size;
  }

  emit(value: T): void {
    for (const listener of this.set) {
      try {
        listener(value);
      } catch (err) {
        console.error(`search-sandbox: ${this.what} failed:`, err);
      }
    }
  }
}
