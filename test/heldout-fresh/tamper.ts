// What an integration mistake does to the client's beacons on their way out: drop some, change a copy of
// others, or send them to another endpoint. Faults install these on a visit (`Visit.transforms`); the
// clean journey never does.
import type { Message, Served, Visit } from '../heldout/client';

export type Tamper = (m: Message) => Message | Message[] | null;

/** Beacons of one endpoint (`category/event`), optionally only those about one responseId. */
export function on(endpoint: string, responseId?: string): (m: Message) => boolean {
  return (m) =>
    `${m.category}/${m.event}` === endpoint &&
    (responseId === undefined || m.body.data?.responseId === responseId);
}

export function dataOf(m: Message): Record<string, unknown> {
  return m.body.data ?? {};
}

function copy(m: Message): Message {
  return JSON.parse(JSON.stringify(m)) as Message;
}

/** Drops the beacons `which` picks. */
export function drop(v: Visit, which: (m: Message) => boolean): void {
  v.transforms.push((m) => (which(m) ? null : m));
}

/** Changes a copy of each beacon `which` picks. */
export function edit(v: Visit, which: (m: Message) => boolean, change: (m: Message) => void): void {
  v.transforms.push((m) => {
    if (!which(m)) return m;
    const c = copy(m);
    change(c);
    return c;
  });
}

/** Sends each beacon `which` picks to another category (the event stays). */
export function reroute(v: Visit, which: (m: Message) => boolean, category: string): void {
  edit(v, which, (m) => {
    m.category = category;
  });
}

/** Sends each beacon `which` picks twice: the second copy `later` ms after the first. */
export function twice(v: Visit, which: (m: Message) => boolean, later: number): void {
  v.transforms.push((m) => {
    if (!which(m)) return m;
    const again = copy(m);
    again.sentAt += later;
    again.body.context.timestamp = new Date(
      Date.parse(again.body.context.timestamp) + later,
    ).toISOString();
    return [m, again];
  });
}

/**
 * Impressions the integration queues itself (its own observer or template), one tile each, through the
 * beacon's queue: of `r`'s tiles, under `r`'s responseId unless another is named.
 */
export function impress(
  v: Visit,
  r: Served,
  uids: string[],
  o: { responseId?: string; category?: string } = {},
): void {
  for (const uid of uids)
    v.enqueue(o.category ?? r.kind, 'impression', {
      ...(r.tag !== undefined && { tag: r.tag }),
      responseId: o.responseId ?? r.id,
      results: [v.item(r, uid)],
      banners: [],
    });
}
