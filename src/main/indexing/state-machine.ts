// The one transition table of the indexing states (docs/indexing.md, "States"). The bulk index API,
// the scheduler/autopilot and the admin's hand controls all ask this table before moving a feed.
import {
  TRANSITIONS,
  RESTING_STATES,
  type FeedState,
  type IndexStatus,
  type Transition,
  type Trigger,
} from '../../shared/indexing';

export { TRANSITIONS, RESTING_STATES, type Transition, type Trigger };

export interface FeedTraits {
  regeneration: boolean;
  /** interval Never: nothing starts the feed, not a request, the schedule or a hand */
  intervalNever: boolean;
}

/** A feed's traits from its settings (configured, with the admin's overrides). */
export function feedTraits(settings: {
  regeneration: boolean;
  interval: number | 'Never';
}): FeedTraits {
  return { regeneration: settings.regeneration, intervalNever: settings.interval === 'Never' };
}

function applies(t: Transition, feed: FeedTraits): boolean {
  if (t.needsRegeneration && !feed.regeneration) return false;
  if (t.withoutRegeneration && feed.regeneration) return false;
  return !(feed.intervalNever && t.triggers.includes('start'));
}

/** Is `from → to` in the table for this feed, for this trigger (any trigger when `trigger` is 'hand')? */
export function canTransition(
  from: FeedState,
  to: FeedState,
  feed: FeedTraits,
  trigger: Trigger | 'hand',
): boolean {
  return TRANSITIONS.some(
    (t) =>
      t.from === from &&
      t.to === to &&
      applies(t, feed) &&
      (trigger === 'hand' || t.triggers.includes(trigger)),
  );
}

/** Every state the admin may move this feed to by hand from `from`. */
export function allowedTargets(from: FeedState, feed: FeedTraits): FeedState[] {
  return TRANSITIONS.filter((t) => t.from === from && applies(t, feed)).map((t) => t.to);
}

/** Where a start (accepted request or scheduled run) takes a resting feed; null when it cannot start. */
export function startTarget(from: FeedState, feed: FeedTraits): FeedState | null {
  if (!RESTING_STATES.includes(from) || feed.intervalNever) return null;
  return feed.regeneration ? 'regen_waiting' : 'waiting';
}

/** What the real status endpoint reports: a paused index shows as `waiting`. */
export function reportedStatus(state: FeedState): IndexStatus {
  return state === 'paused' ? 'waiting' : state;
}

/** States an index run ends in: these send the requestedBy e-mail. */
export function isOutcome(state: FeedState): state is 'done' | 'error' | 'regen_error' {
  return state === 'done' || state === 'error' || state === 'regen_error';
}

export class TransitionRefused extends Error {
  constructor(
    readonly from: FeedState,
    readonly to: FeedState,
    readonly allowed: FeedState[],
    /** why this feed refuses the move the table has (its interval, its regeneration), with the fix */
    why?: string,
  ) {
    super(
      why
        ? `a feed in "${from}" cannot move to "${to}": ${why}`
        : `a feed in "${from}" cannot move to "${to}"; allowed from "${from}": ${allowed.length ? allowed.map((s) => `"${s}"`).join(', ') : 'none (wait for the current step to finish)'}`,
    );
    this.name = 'TransitionRefused';
  }
}

/**
 * Why a resting feed refuses a move for what it is (its interval Never, which leaves it no move at all, or
 * its regeneration), with the fix; null when its allowed targets say enough.
 */
export function restingRefusal(
  feed: { siteId: string; feedId: number },
  from: FeedState,
  to: FeedState,
  traits: FeedTraits,
): string | null {
  if (!RESTING_STATES.includes(from)) return null;
  const patch = `PATCH /_sandbox/feeds/${feed.siteId}/${feed.feedId}`;
  if (traits.intervalNever)
    return `feed ${feed.feedId} has interval "Never": it is not indexed, by request, by schedule or by hand; to index it, give it an interval: ${patch} {"interval":"24h"}, or pick one on the Feeds board`;
  if (to === 'waiting' && traits.regeneration)
    return `feed ${feed.feedId} has external regeneration, which every start runs first: move it to "regen_waiting"; to index without regenerating, turn it off: ${patch} {"regeneration":false}`;
  return null;
}
