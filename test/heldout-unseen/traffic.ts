// What a fault does to a journey's traffic: transforms of the beacons on their way out and hand-written
// calls that bypass the controllers, shared by the unseen set's journeys.
import { Visit, product, type Message, type Served } from '../heldout/client';

/** The fault a journey plays (see faults.ts), null for the clean journey. */
export type Flag = string | null;

export type Transform = (m: Message) => Message | Message[] | null;

export function on(v: Visit, f: Transform): void {
  v.transforms.push(f);
}

/** A copy of a beacon, for transforms that change it. */
export function copy(m: Message): Message {
  return JSON.parse(JSON.stringify(m)) as Message;
}

export function data(m: Message): Record<string, unknown> {
  return m.body.data ?? {};
}

export function results(m: Message): Array<Record<string, unknown>> {
  return (data(m).results as Array<Record<string, unknown>> | undefined) ?? [];
}

/** An impression of tiles sent by hand (bypassing the controller's once-per-uid flags). */
export function impressByHand(v: Visit, r: Served, uids: string[], responseId = r.id): void {
  for (const uid of uids)
    v.enqueue(r.kind, 'impression', {
      ...(r.tag !== undefined && { tag: r.tag }),
      responseId,
      results: [v.item(r, uid)],
      banners: [],
    });
}

export const tile = (uid: string) => {
  const p = product(uid);
  return { type: 'product', uid: p.uid, parentId: '', sku: p.sku };
};

/** A second browser tab of the same shopper: same userId and sessionId, its own page loads. */
export function secondTab(v: Visit): Visit {
  return new Visit(v.world, { start: v.t, userId: v.userId, sessionId: v.sessionId });
}
