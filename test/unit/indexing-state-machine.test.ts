// The one transition table: every allowed move and every refused one, per trigger and per feed kind.
import { describe, expect, it } from 'vitest';
import { FEED_STATES, type FeedState } from '../../src/shared/indexing';
import {
  allowedTargets,
  canTransition,
  isOutcome,
  reportedStatus,
  startTarget,
  TransitionRefused,
  type Trigger,
} from '../../src/main/indexing/state-machine';

type Move = [from: FeedState, to: FeedState, trigger: Trigger];

// The design's table of indexing states, written out once more by hand so a change to the table is a visible decision.
// A feed without external regeneration starts in waiting; one with it always regenerates first (by hand too).
const PLAIN_STARTS: Move[] = [
  ['done', 'waiting', 'start'],
  ['error', 'waiting', 'start'],
  ['regen_error', 'waiting', 'start'],
];
const STEPS: Move[] = [
  ['waiting', 'running', 'step'],
  ['running', 'done', 'step'],
  ['running', 'error', 'step'],
  ['running', 'paused', 'pause'],
  ['paused', 'running', 'resume'],
  ['regen_waiting', 'regen_running', 'step'],
  ['regen_running', 'regen_done', 'step'],
  ['regen_running', 'regen_error', 'step'],
  ['regen_done', 'waiting', 'step'],
];
const REGEN_ONLY: Move[] = [
  ['done', 'regen_waiting', 'start'],
  ['error', 'regen_waiting', 'start'],
  ['regen_error', 'regen_waiting', 'start'],
];
const TRIGGERS: Trigger[] = ['start', 'step', 'pause', 'resume'];

const KINDS = [false, true].flatMap((regeneration) =>
  [false, true].map((intervalNever) => ({ regeneration, intervalNever })),
);

describe('indexing transition table', () => {
  for (const traits of KINDS) {
    const { regeneration, intervalNever } = traits;
    // interval Never: nothing starts the feed (not a request, the schedule or a hand); a run under way goes on
    const starts = intervalNever ? [] : regeneration ? REGEN_ONLY : PLAIN_STARTS;
    const allowed = [...starts, ...STEPS];
    const kind = `${regeneration ? 'feed with external regeneration' : 'plain feed'}${intervalNever ? ', interval Never' : ''}`;
    describe(kind, () => {
      it('allows exactly the listed moves, each only for its own trigger', () => {
        for (const from of FEED_STATES) {
          for (const to of FEED_STATES) {
            for (const trigger of TRIGGERS) {
              const expected = allowed.some(
                ([f, t, tr]) => f === from && t === to && tr === trigger,
              );
              expect(
                canTransition(from, to, traits, trigger),
                `${from} → ${to} on ${trigger}`,
              ).toBe(expected);
            }
          }
        }
      });

      it('lets the admin make any listed move by hand, and no other', () => {
        for (const from of FEED_STATES) {
          const targets = allowed.filter(([f]) => f === from).map(([, t]) => t);
          expect(allowedTargets(from, traits).sort(), from).toEqual([...targets].sort());
          for (const to of FEED_STATES)
            expect(canTransition(from, to, traits, 'hand'), `${from} → ${to} by hand`).toBe(
              targets.includes(to),
            );
        }
      });
    });
  }

  it('starts resting feeds in waiting, or in regen_waiting when the feed regenerates first', () => {
    for (const from of ['done', 'error', 'regen_error'] as const) {
      expect(startTarget(from, { regeneration: false, intervalNever: false })).toBe('waiting');
      expect(startTarget(from, { regeneration: true, intervalNever: false })).toBe('regen_waiting');
      expect(startTarget(from, { regeneration: false, intervalNever: true })).toBeNull();
    }
    for (const from of [
      'waiting',
      'running',
      'paused',
      'regen_waiting',
      'regen_running',
      'regen_done',
    ] as const) {
      expect(startTarget(from, { regeneration: true, intervalNever: false })).toBeNull();
      expect(startTarget(from, { regeneration: false, intervalNever: false })).toBeNull();
    }
  });

  it('reports a paused index as waiting and every other state as itself', () => {
    for (const s of FEED_STATES) expect(reportedStatus(s)).toBe(s === 'paused' ? 'waiting' : s);
  });

  it('names the outcomes that send the requestedBy e-mail', () => {
    expect(FEED_STATES.filter(isOutcome).sort()).toEqual(['done', 'error', 'regen_error']);
  });

  it('explains a refused move with the allowed targets', () => {
    const err = new TransitionRefused(
      'waiting',
      'done',
      allowedTargets('waiting', { regeneration: false, intervalNever: false }),
    );
    expect(err.allowed).toEqual(['running']);
    expect(err.message).toContain('"waiting" cannot move to "done"');
    expect(err.message).toContain('"running"');
    expect(new TransitionRefused('regen_done', 'done', []).message).toContain('none');
  });
});
