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

/**
 * the bit of each of `SiblingLog`'s places: each named event's (EVENT_BITS gives them 1, 2, 4, … in its
 * order, so a bit's place is its exponent), then any other event's
 */
const SLOT_BITS = [...Object.values(EVENT_BITS), ALL_HEARD];
const OTHER_SLOT = SLOT_BITS.length - 1;
/**
 * A log's stamps before it hears anything: written out, not made from SLOT_BITS, because V8 gives every
 * copy of a literal of constants the same elements until one is written, and most logs never hear an event
 * (a page of one response: 65 bytes a page less than a list made with `map`).
 */
const unheard = () => [0, 0, 0, 0, 0, 0];
if (unheard().length !== SLOT_BITS.length)
  throw new Error('SiblingLog: one stamp for each of SLOT_BITS');
const slotOf = (event: string): number => {
  const bit = eventBit(event);
  return bit === ALL_HEARD ? OTHER_SLOT : 31 - Math.clz32(bit);
};

/**
 * What the responses of one kind on a page heard of each other (the rules that read a page's other
 * responses run again when a sibling hears an event they listen to). Each event of the page told every
 * other response of its kind, one by one: a page of thousands of responses spent its time there. A
 * response now keeps the stamp of the log when its rules last ran, and reads what was heard since.
 * Every page has one for each kind it holds, so it is a few numbers, not a Map (a Map's table is ~250 bytes
 * even when it is empty: the log's and the page's table of logs were a fifth of a live page's memory).
 */
export class SiblingLog {
  /** one more at each event heard */
  stamp = 0;
  /** for each of SLOT_BITS, the stamp it was last heard at (0: never) */
  private readonly at = unheard();

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

/**
 * The log every response starts with, shared by all: nobody hears through it (its stamp stays 0). A page's
 * own log of a kind is made when one of its responses first hears a sibling (`Page.siblingsHear`), and the
 * responses of that kind move to it then; most pages hold one response and never make one.
 */
export const UNHEARD_LOG = new SiblingLog();
