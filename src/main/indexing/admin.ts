// The admin's controls of a feed (PATCH settings and injected faults, hand moves along the table). The
// shapes are checked where they arrive (the admin API's declared bodies); here what only the domain can
// judge (an interval, a move the table or a running parse refuses), with domain errors that name the
// value and the fix. HTTP maps them to statuses (src/main/http/routes/admin-feeds.ts).
import type { FeedState, FeedView, PatchedFeed } from '../../shared/indexing';
import { parseInterval } from '../accounts/config';
import { ConfigError } from '../config-error';
import { formatInterval } from '../durations';
import { clipped } from '../../shared/text';
import type { FeedEngine } from './feeds';
import type { FeedRecord } from './feed-db';
import {
  allowedTargets,
  canTransition,
  RESTING_STATES,
  restingRefusal,
  TransitionRefused,
} from './state-machine';

/** No feed with this siteId and id. */
export class FeedNotFound extends Error {
  override readonly name = 'FeedNotFound';
}

/** A setting's value the domain cannot take (an interval it cannot read). */
export class FeedSettingRefused extends Error {
  override readonly name = 'FeedSettingRefused';
  constructor(
    /** the setting refused, as the patch names it: `interval` */
    readonly setting: keyof FeedPatch,
    message: string,
  ) {
    super(message);
  }
}

/** A hand move the feed's run refuses now (its parse moved on, or its file failed). */
export class HandMoveConflict extends Error {
  override readonly name = 'HandMoveConflict';
}

/** The settings and faults a PATCH changes (the admin API's `patchFeed` body). */
export interface FeedPatch {
  /** "Never", the config's "24h"/"30m", or ISO 8601 "PT24H" */
  interval?: string;
  autopilot?: boolean;
  regeneration?: boolean;
  inject?: { nextIndexFails?: boolean; regenerationFails?: boolean };
}

function find(engine: FeedEngine, siteId: string, feedId: number): FeedRecord {
  const rec = engine.record(siteId, feedId);
  if (!rec) {
    const known = engine.records().map((r) => `${r.siteId}/${r.feedId}`);
    throw new FeedNotFound(
      `no feed ${clipped(siteId)}/${feedId}; the sandbox has ${known.join(', ') || 'no feeds'}`,
    );
  }
  return rec;
}

/** "Never", the config's "24h"/"30m", or ISO 8601 "PT24H" → ms | 'Never'. */
function interval(v: string): number | 'Never' {
  try {
    return parseInterval(v, 'interval', '');
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    // its message names the key: `interval: "…" is …`
    throw new FeedSettingRefused('interval', err.message);
  }
}

export function applyPatch(
  engine: FeedEngine,
  siteId: string,
  feedId: number,
  patch: FeedPatch,
): PatchedFeed {
  const rec = find(engine, siteId, feedId);
  // read everything before changing anything
  const next = { ...rec.overrides };
  const before = engine.settings(rec);
  const { config } = before;
  // each setting set by hand keeps what the config said then (feeds.ts, configEdited)
  const base = { ...next.configured };
  if (patch.interval !== undefined) {
    next.interval = interval(patch.interval);
    base.interval = config.interval;
  }
  if (patch.autopilot !== undefined) {
    next.autopilot = patch.autopilot;
    base.autopilot = config.autopilot;
  }
  if (patch.regeneration !== undefined) {
    next.regeneration = patch.regeneration;
    base.regeneration = config.regeneration;
  }
  if (Object.keys(base).length > 0) next.configured = base;
  const inject = { ...rec.inject, ...patch.inject };
  const changes: string[] = [];
  const injectedBefore = rec.inject;
  rec.overrides = next;
  rec.inject = inject;
  const after = engine.settings(rec);
  if (before.interval !== after.interval) {
    // as the interval is written everywhere else ("24h", "30m", "7d"), not "1440 min"
    changes.push(`interval ${formatInterval(after.interval)}`);
    engine.recountNext(rec);
  }
  if (before.autopilot !== after.autopilot)
    changes.push(after.autopilot ? 'autopilot on' : 'autopilot off (moves by hand only)');
  if (before.regeneration !== after.regeneration)
    changes.push(after.regeneration ? 'external regeneration on' : 'external regeneration off');
  if (
    injectedBefore.nextIndexFails !== inject.nextIndexFails ||
    injectedBefore.regenerationFails !== inject.regenerationFails
  )
    changes.push(
      `injected faults: next index fails ${inject.nextIndexFails ? 'yes' : 'no'}, regeneration fails ${inject.regenerationFails ? 'yes' : 'no'}`,
    );
  // a PATCH that changes nothing (a form sent again) is no event in the feed's life: no history entry
  if (changes.length > 0) engine.note(rec, 'hand', `settings changed: ${changes.join('; ')}`);
  engine.arm(rec);
  return { ...engine.view(rec), changed: changes };
}

export async function moveByHand(
  engine: FeedEngine,
  siteId: string,
  feedId: number,
  target: FeedState,
): Promise<FeedView> {
  const rec = find(engine, siteId, feedId);
  const s = engine.settings(rec);
  const traits = engine.traits(rec);
  if (!canTransition(rec.state, target, traits, 'hand'))
    throw new TransitionRefused(
      rec.state,
      target,
      allowedTargets(rec.state, traits),
      restingRefusal(rec, rec.state, target, traits) ?? undefined,
    );
  const now = engine.now;
  if (RESTING_STATES.includes(rec.state)) {
    const input = s.config.source.kind === 'cart' ? 'cart' : 'upload';
    engine.start(
      rec,
      { cause: 'hand', requestedBy: null, requestedAt: now, input },
      'started by hand',
      now,
      target,
    );
  } else if (rec.state === 'running' && (target === 'done' || target === 'error')) {
    const runId = rec.run?.id;
    const result = await engine.parseResult(rec);
    if (rec.state !== 'running' || rec.run?.id !== runId)
      throw new HandMoveConflict(
        `feed ${feedId} moved on while its file was being parsed (now "${rec.state}"); try again`,
      );
    if (target === 'done' && result.summary.error) {
      throw new HandMoveConflict(
        `feed ${feedId} cannot be done: its file failed (${result.summary.error}); move it to "error"`,
      );
    }
    engine.finishRunning(rec, result, engine.now, 'hand', target);
  } else if (target === 'paused') {
    engine.pause(rec, 'paused by hand', 'hand', now);
  } else if (rec.state === 'regen_running' && target === 'regen_error') {
    engine.failRegeneration(rec, now, 'hand', 'regeneration failed (moved by hand)');
  } else {
    engine.transition(
      rec,
      target,
      'hand',
      'hand',
      rec.state === 'paused' ? 'resumed by hand' : 'moved by hand',
      now,
    );
  }
  return engine.view(rec);
}
