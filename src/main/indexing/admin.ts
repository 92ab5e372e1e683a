// The admin's controls of a feed (PATCH settings and injected faults, hand moves along the table),
// validated with messages that name the field, the value and the fix.
import { FEED_STATES, type FeedState, type FeedView } from '../../shared/indexing';
import { parseInterval } from '../accounts/config';
import { ConfigError } from '../config-error';
import { parseIsoDuration } from '../durations';
import type { FeedEngine } from './feeds';
import type { FeedRecord } from './feed-db';
import { allowedTargets, canTransition, RESTING_STATES, TransitionRefused } from './state-machine';

/** A refused admin request: `status` is the HTTP status to answer with. */
export class AdminError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
    this.name = 'AdminError';
  }
}

const PATCH_KEYS = ['interval', 'autopilot', 'regeneration', 'inject'];
const INJECT_KEYS = ['nextIndexFails', 'regenerationFails'];

function find(engine: FeedEngine, siteId: string, feedId: number): FeedRecord {
  const rec = engine.record(siteId, feedId);
  if (!rec) {
    const known = engine.records().map((r) => `${r.siteId}/${r.feedId}`);
    throw new AdminError(
      404,
      `no feed ${siteId}/${feedId}; the sandbox has ${known.join(', ') || 'no feeds'}`,
    );
  }
  return rec;
}

function bool(v: unknown, field: string): boolean {
  if (typeof v !== 'boolean')
    throw new AdminError(400, `${field}: ${JSON.stringify(v)} must be true or false`);
  return v;
}

/** "Never", the config's "24h"/"30m", or ISO 8601 "PT24H" → ms | 'Never'. */
function interval(v: unknown): number | 'Never' {
  if (typeof v === 'string') {
    const iso = parseIsoDuration(v);
    if (iso !== null && iso > 0) return iso;
    try {
      return parseInterval(v, 'interval', '');
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
    }
  }
  throw new AdminError(
    400,
    `interval: ${JSON.stringify(v)} is not an interval; use "Never", a duration like "24h", "30m", "7d", or ISO 8601 like "PT24H"`,
  );
}

export function applyPatch(
  engine: FeedEngine,
  siteId: string,
  feedId: number,
  body: unknown,
): FeedView {
  const rec = find(engine, siteId, feedId);
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new AdminError(
      400,
      `the body must be a JSON object with any of ${PATCH_KEYS.join(', ')}, e.g. {"autopilot": false}`,
    );
  }
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b))
    if (!PATCH_KEYS.includes(k))
      throw new AdminError(400, `${k}: unknown field; PATCH takes ${PATCH_KEYS.join(', ')}`);
  // validate everything before changing anything
  const next = { ...rec.overrides };
  if (b.interval !== undefined) next.interval = interval(b.interval);
  if (b.autopilot !== undefined) next.autopilot = bool(b.autopilot, 'autopilot');
  if (b.regeneration !== undefined) next.regeneration = bool(b.regeneration, 'regeneration');
  const inject = { ...rec.inject };
  if (b.inject !== undefined) {
    if (!b.inject || typeof b.inject !== 'object' || Array.isArray(b.inject))
      throw new AdminError(400, `inject: must be an object like {"nextIndexFails": true}`);
    for (const [k, v] of Object.entries(b.inject)) {
      if (!INJECT_KEYS.includes(k))
        throw new AdminError(400, `inject.${k}: unknown fault; use ${INJECT_KEYS.join(' or ')}`);
      inject[k as keyof typeof inject] = bool(v, `inject.${k}`);
    }
  }
  const changes: string[] = [];
  const before = engine.settings(rec);
  rec.overrides = next;
  rec.inject = inject;
  const after = engine.settings(rec);
  if (before.interval !== after.interval) {
    changes.push(
      `interval ${after.interval === 'Never' ? 'Never' : `${after.interval / 60_000} min`}`,
    );
    if (after.interval === 'Never') rec.nextIndexTime = null;
    else {
      const now = engine.now;
      let t = (rec.lastIndexed ?? now) + after.interval;
      while (t <= now) t += after.interval;
      rec.nextIndexTime = t;
    }
  }
  if (before.autopilot !== after.autopilot)
    changes.push(after.autopilot ? 'autopilot on' : 'autopilot off (moves by hand only)');
  if (before.regeneration !== after.regeneration)
    changes.push(after.regeneration ? 'external regeneration on' : 'external regeneration off');
  if (b.inject !== undefined)
    changes.push(
      `injected faults: next index fails ${inject.nextIndexFails ? 'yes' : 'no'}, regeneration fails ${inject.regenerationFails ? 'yes' : 'no'}`,
    );
  engine.note(
    rec,
    'hand',
    changes.length ? `settings changed: ${changes.join('; ')}` : 'settings unchanged',
  );
  engine.arm(rec);
  return engine.view(rec);
}

export async function moveByHand(
  engine: FeedEngine,
  siteId: string,
  feedId: number,
  body: unknown,
): Promise<FeedView> {
  const rec = find(engine, siteId, feedId);
  const to = (body as { to?: unknown } | null)?.to;
  if (typeof to !== 'string' || !(FEED_STATES as readonly string[]).includes(to)) {
    throw new AdminError(
      400,
      `to: ${JSON.stringify(to)} is not a feed state; use one of ${FEED_STATES.join(', ')}, e.g. {"to": "running"}`,
    );
  }
  const target = to as FeedState;
  const s = engine.settings(rec);
  const traits = { regeneration: s.regeneration };
  if (!canTransition(rec.state, target, traits, 'hand'))
    throw new TransitionRefused(rec.state, target, allowedTargets(rec.state, traits));
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
      throw new AdminError(
        409,
        `feed ${feedId} moved on while its file was being parsed (now "${rec.state}"); try again`,
      );
    if (target === 'done' && result.summary.error) {
      throw new AdminError(
        409,
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
