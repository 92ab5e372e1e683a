// How an event's id is made from its seq: the journal's reader tells a damaged record by it.

/** The id of the event with sequence number `seq`: "ev_" and the seq in nine digits (more past 999,999,999). */
export function eventId(seq: number): string {
  return `ev_${String(seq).padStart(9, '0')}`;
}

/** The seq an id was made from, or null when `id` is not one the sandbox makes. */
export function seqOfId(id: string): number | null {
  const m = /^ev_(\d+)$/.exec(id);
  return m ? Number(m[1]) : null;
}
