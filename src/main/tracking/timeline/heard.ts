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
