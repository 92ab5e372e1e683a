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
}

function applies(t: Transition, feed: FeedTraits): boolean {
  return !t.needsRegeneration || feed.regeneration;
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
  if (!RESTING_STATES.includes(from)) return null;
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
  ) {
    super(
      `a feed in "${from}" cannot move to "${to}"; allowed from "${from}": ${allowed.length ? allowed.map((s) => `"${s}"`).join(', ') : 'none (wait for the current step to finish)'}`,
    );
    this.name = 'TransitionRefused';
  }
}
