// Which events a response heard since its rules last ran, as bits: the judge runs a rule only when one
// of the events its meta listens to is among them (ALL_HEARD after a change beyond the events).
/** every rule of a response runs (a change beyond its events) */
export const ALL_HEARD = -1;
const EVENT_BITS: Record<string, number> = {
  render: 1,
  redirect: 2,
  impression: 4,
  clickthrough: 8,
  addtocart: 16,
};

/** An event name as a bit of `Response.heard` (another name: every bit, so every rule runs). */
export function eventBit(event: string): number {
  return EVENT_BITS[event] ?? ALL_HEARD;
}

/**
 * What the responses of one kind on a page heard of each other (the rules that read a page's other
 * responses run again when a sibling hears an event they listen to). Each event of the page told every
 * other response of its kind, one by one: a page of thousands of responses spent its time there. A
 * response now keeps the stamp of the log when its rules last ran, and reads what was heard since.
 */
export class SiblingLog {
  /** one more at each event heard */
  stamp = 0;
  /** each event's bit (ALL_HEARD for another event), with the stamp it was last heard at */
  private readonly latest = new Map<number, number>();

  hear(event: string): void {
    this.latest.set(eventBit(event), ++this.stamp);
  }

  /** The bits heard after `seen` (0 when nothing was). */
  since(seen: number): number {
    if (seen === this.stamp) return 0;
    let bits = 0;
    for (const [bit, at] of this.latest) if (at > seen) bits |= bit;
    return bits;
  }
}
