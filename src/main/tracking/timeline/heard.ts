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
  return Object.hasOwn(EVENT_BITS, event) ? EVENT_BITS[event]! : ALL_HEARD;
}

/** the bit of each of `SiblingLog`'s places: the five named events, then any other */
const SLOT_BITS = [1, 2, 4, 8, 16, ALL_HEARD] as const;
const slotOf = (event: string): number => {
  const bit = eventBit(event);
  return bit === ALL_HEARD ? 5 : 31 - Math.clz32(bit);
};

/**
 * What the responses of one kind on a page heard of each other (the rules that read a page's other
 * responses run again when a sibling hears an event they listen to). Each event of the page told every
 * other response of its kind, one by one: a page of thousands of responses spent its time there. A
 * response now keeps the stamp of the log when its rules last ran, and reads what was heard since.
 * Every page has one for each kind it holds, so it is six numbers, not a Map (a Map's table is ~250 bytes
 * even when it is empty: two of them were a quarter of a live page's memory).
 */
export class SiblingLog {
  /** one more at each event heard */
  stamp = 0;
  /** for each of SLOT_BITS, the stamp it was last heard at (0: never) */
  private readonly at = [0, 0, 0, 0, 0, 0];

  hear(event: string): void {
    this.at[slotOf(event)] = ++this.stamp;
  }

  /** The bits heard after `seen` (0 when nothing was). */
  since(seen: number): number {
    if (seen === this.stamp) return 0;
    let bits = 0;
    for (let i = 0; i < SLOT_BITS.length; i++) if (this.at[i]! > seen) bits |= SLOT_BITS[i]!;
    return bits;
  }
}
