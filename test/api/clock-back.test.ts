// When the sandbox clock goes back to real time — "Reset to real time", or a restart (the clock offset is
// not kept, each feed's times are) — a feed queued or indexing on the advanced clock goes on from the
// clock's time, over HTTP: its step ends at most its own duration from now, its next index comes back
// to the first of its schedule after its last index, and it moves on when the clock passes that end.
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are shaped by the assertions themselves */
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import {
  admin,
  advance,
  clockJustPastTheHour,
  PAST_A_DAYS_INDEXES,
  put,
  restartableSandboxes,
} from './indexing-helpers';

const DAY = 86_400_000;
const { start, stop, dataDir } = restartableSandboxes();

async function feed43(sb: Sandbox): Promise<{ now: number; feed: any }> {
  const res = await fetch(`${sb.url}/_sandbox/feeds/demo42/43`);
  return { now: Date.parse(res.headers.get('x-sandbox-now')!), feed: await res.json() };
}

/** Past a day's scheduled index, queue the cart feed 43 (regeneration first: regen_waiting, 30 s). */
async function queueOnAdvancedClock(sb: Sandbox): Promise<void> {
  expect((await advance(sb.url, PAST_A_DAYS_INDEXES)).status).toBe(200);
  // the clock's answer waits for the scheduled index's parse, and its end, which the clock has passed
  expect((await feed43(sb)).feed.state).toBe('done');
  expect((await put(sb.url, 'feedId=43')).status).toBe(200);
  const { now, feed } = await feed43(sb);
  expect(feed.state).toBe('regen_waiting');
  expect(Date.parse(feed.stepEndsAt) - now).toBeLessThanOrEqual(30_000);
}

/** The feed queued on the advanced clock moves on within its own step duration from the clock's time. */
async function expectWithinReach(sb: Sandbox): Promise<void> {
  const { now, feed } = await feed43(sb);
  expect(Math.abs(now - Date.now())).toBeLessThan(60_000); // real time again
  expect(feed.state).toBe('regen_waiting');
  const left = Date.parse(feed.stepEndsAt) - now;
  expect(left).toBeGreaterThan(0);
  expect(left).toBeLessThanOrEqual(30_000);
  // the scheduled index on the advanced clock finished ahead of the clock: the next index time is the
  // first of the schedule after it (the status API never shows one at or before the last index)
  const last = Date.parse(feed.lastIndexed);
  expect(last).toBeGreaterThan(now);
  expect(Date.parse(feed.nextIndexTime)).toBeGreaterThan(last);
  expect(Date.parse(feed.nextIndexTime) - last).toBeLessThanOrEqual(DAY);
  expect(feed.history.at(-1).detail).toMatch(/clock went back/);
  // passing the step's end moves it on: nothing waits for the day the clock had been moved
  expect((await admin(sb.url, 'POST', '/clock', { advance: 'PT31S' })).status).toBe(200);
  expect((await feed43(sb)).feed.state).toBe('regen_running');
}

describe('a feed queued on an advanced clock, after the clock goes back', () => {
  it('moves on from the clock time after "reset to real time"', async () => {
    const sb = await start(undefined, clockJustPastTheHour());
    await queueOnAdvancedClock(sb);
    const reset = await admin(sb.url, 'POST', '/clock', { reset: true });
    expect(reset.body.offsetMs).toBe(0);
    await expectWithinReach(sb);
    // the record of what happened is kept: lastIndexed of the scheduled index on the advanced clock
    expect(Date.parse((await feed43(sb)).feed.lastIndexed)).toBeGreaterThan(Date.now());
  });

  it('moves on from the clock time after a restart (the clock starts at real time)', async () => {
    const dir = dataDir();
    const first = await start(dir, clockJustPastTheHour());
    await queueOnAdvancedClock(first);
    await stop(first);
    const second = await start(dir);
    await expectWithinReach(second);
  });
});
