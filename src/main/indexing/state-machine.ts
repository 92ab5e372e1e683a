// The one transition table of the indexing states (DESIGN.md "Indexing states"). The bulk index API,
// the scheduler/autopilot and the admin's hand controls all ask this table before moving a feed.
import type { FeedState, IndexStatus } from '../../shared/indexing';

/**
 * What may cause a move:
 * - `start`: a bulk index request was accepted, or the scheduler reached nextIndexTime
 * - `step`: autopilot's timed progress (or the end of the parse) moves the feed on
 * - `pause`: a bulk index request arrived while the feed was running
 * - `resume`: only by hand
 */
export type Trigger = 'start' | 'step' | 'pause' | 'resume';

export interface Transition {
  from: FeedState;
  to: FeedState;
  triggers: readonly Trigger[];
  /** only for feeds with external regeneration */
  needsRegeneration?: boolean;
}

/** States a feed rests in; a start (request or schedule) is possible only from these. */
export const RESTING_STATES: readonly FeedState[] = ['done', 'error', 'regen_error'];

export const TRANSITIONS: readonly Transition[] = [
  // start: plain feeds go straight to waiting, feeds with external regeneration regenerate first
  { from: 'done', to: 'waiting', triggers: ['start'] },
  { from: 'error', to: 'waiting', triggers: ['start'] },
  // regen_error is a resting state too (the sandbox's choice): otherwise such a feed could never index again
  { from: 'regen_error', to: 'waiting', triggers: ['start'] },
  { from: 'done', to: 'regen_waiting', triggers: ['start'], needsRegeneration: true },
  { from: 'error', to: 'regen_waiting', triggers: ['start'], needsRegeneration: true },
  { from: 'regen_error', to: 'regen_waiting', triggers: ['start'], needsRegeneration: true },
  // the index itself
  { from: 'waiting', to: 'running', triggers: ['step'] },
  { from: 'running', to: 'done', triggers: ['step'] },
  { from: 'running', to: 'error', triggers: ['step'] },
  { from: 'running', to: 'paused', triggers: ['pause'] },
  { from: 'paused', to: 'running', triggers: ['resume'] },
  // external regeneration
  { from: 'regen_waiting', to: 'regen_running', triggers: ['step'] },
  { from: 'regen_running', to: 'regen_done', triggers: ['step'] },
  { from: 'regen_running', to: 'regen_error', triggers: ['step'] },
  { from: 'regen_done', to: 'waiting', triggers: ['step'] },
];

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
