// A finding as every rule builds it (the timeline rules and the visit rules alike): its id, its message,
// its event ids (each once, the first ID_CAP) and how many there were.
//
// A finding's message is held as long as its page is kept, and a sandbox keeps 100,000 pages: a message
// found word for word on many pages (`10 of the 10 accepted events on this page were sent in production
// mode …`, 334 characters) is kept as one string. Values only: every message keeps its text.
import type { Severity, TimelineFindingDto } from '../../shared/timeline';
import { StringPool } from '../store/shared-strings';

/** Ids a finding (or a page's tally) names at most: findings stay small however noisy a page gets. */
export const ID_CAP = 50;

/** at most 4,096 distinct messages kept for sharing; when full it starts again */
const messages = new StringPool(4_096);

export function sharedMessage(message: string): string {
  return messages.share(message);
}

/** Build a finding of a rule at its declared severity; event ids are de-duplicated and capped. */
export function finding(
  meta: { id: string; defaultSeverity: Severity; guards?: readonly string[] },
  key: string,
  message: string,
  eventIds: Iterable<string>,
  extra: { responseId?: string; eventCount?: number } = {},
): TimelineFindingDto {
  const ids = [...new Set(eventIds)];
  const rule = meta.id;
  return {
    id: key ? `${rule}:${key}` : rule,
    rule,
    severity: meta.defaultSeverity,
    message: sharedMessage(message),
    eventIds: ids.slice(0, ID_CAP),
    eventCount: Math.max(extra.eventCount ?? 0, ids.length),
    ...(extra.responseId !== undefined && { responseId: extra.responseId }),
    // the behaviour it names: its rule's first (a response's kind may name another: the judge's)
    ...(meta.guards?.[0] !== undefined && { behaviour: meta.guards[0] }),
  };
}
