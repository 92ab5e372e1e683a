// The sandbox clock admin API: read, advance by ISO 8601 durations, set, reset, the 400s, and that
// advancing fires scheduled work (a feed's nextIndexTime) and moves X-Sandbox-Now.
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are shaped by the assertions themselves */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type { StreamMessage } from '../../src/shared/stream';
import { startSandbox } from '../helpers/sandbox';
import { admin, AUTH, START, startFrozen } from './indexing-helpers';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startFrozen();
});
afterAll(async () => {
  await sb.close();
});

describe('/_sandbox/clock', () => {
  it('reads the sandbox time', async () => {
    const res = await fetch(`${sb.url}/_sandbox/clock`);
    expect(res.headers.get('x-sandbox-now')).toBe(new Date(START).toISOString());
    expect((await res.json()) as any).toEqual({
      now: new Date(START).toISOString(),
      offsetMs: expect.any(Number),
      frozen: true,
    });
  });

  it.each([
    ['PT61M', 61 * 60_000],
    ['PT1H30M', 90 * 60_000],
    ['P1D', 86_400_000],
    ['PT0.5S', 500],
    ['P1W', 7 * 86_400_000],
    ['P1DT2H', 26 * 3_600_000],
    ['P366D', 366 * 86_400_000],
  ])('advances by %s', async (duration, ms) => {
    const before = sb.core.clock.now();
    const res = await admin(sb.url, 'POST', '/clock', { advance: duration });
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.now)).toBe(before + ms);
  });

  it('sets an instant, pushes a clock message, and stamps responses with the new time', async () => {
    const pushed: StreamMessage[] = [];
    const off = sb.core.bus.on((m) => void (m.type === 'clock' && pushed.push(m)));
    const res = await fetch(`${sb.url}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ set: '2027-01-02T03:04:05Z' }),
    });
    off();
    expect(res.headers.get('x-sandbox-now')).toBe('2027-01-02T03:04:05.000Z');
    expect(((await res.json()) as any).now).toBe('2027-01-02T03:04:05.000Z');
    expect(pushed.at(-1)?.data).toMatchObject({ now: '2027-01-02T03:04:05.000Z', frozen: true });
    const health = await fetch(`${sb.url}/_sandbox/health`);
    expect(health.headers.get('x-sandbox-now')).toBe('2027-01-02T03:04:05.000Z');
  });

  it.each([
    [{ advance: '61 minutes' }, /advance: "61 minutes" is not an ISO 8601 duration/],
    // durations the clock does not take are ISO 8601 durations still: the answer says which it takes
    [
      { advance: 'P1Y' },
      /^advance: "P1Y" is a duration in years, which the sandbox clock does not take: their length varies\. Use weeks, days, hours, minutes and seconds, e\.g\. "P365D" or "PT61M"$/,
    ],
    [{ advance: 'P1M' }, /^advance: "P1M" is a duration in months, .* e\.g\. "P30D" or "PT61M"$/],
    [{ advance: 'P1Y2MT3H' }, /"P1Y2MT3H" is a duration in years and months, /],
    [{ advance: 'PT' }, /not an ISO 8601 duration/],
    [{ advance: 3600 }, /advance: 3600 is not an ISO 8601 duration/],
    [{ set: 'tomorrow' }, /set: "tomorrow" is not an ISO 8601 instant/],
    [{ set: '2026-13-45T99:00:00Z' }, /is not an ISO 8601 instant/],
    // days that do not exist, and no offset (it was read in the server's time zone)
    [
      { set: '2026-02-30T04:00:00Z' },
      /set: "2026-02-30T04:00:00Z" is not an ISO 8601 instant with its offset/,
    ],
    [{ set: '2026-11-22T04:00:00' }, /set: "2026-11-22T04:00:00" is not an ISO 8601 instant/],
    [{ set: '2026-11-22T24:00:00Z' }, /is not an ISO 8601 instant/],
    // a move past what the clock takes at once: P99999999D held the server for good
    [
      { advance: 'P99999999D' },
      /^advance: "P99999999D" is more than 366 days ahead of the sandbox time \(.*\): the clock moves forward at most 366 days at a time/,
    ],
    [{ advance: 'P367D' }, /more than 366 days ahead/],
    [{ set: '2030-01-02T03:04:05Z' }, /^set: "2030-01-02T03:04:05Z" is more than 366 days ahead/],
    [{ set: '1999-12-31T23:59:59Z' }, /is outside the years 2000 to 2099/],
    [{ reset: false }, /reset: false must be true/],
    [{ advance: 'PT1M', set: '2026-11-21T00:00:00Z' }, /advance and set together/],
    [{ rewind: 'PT1M' }, /rewind: unknown field/],
    [{}, /send exactly one of/],
    [[], /the body must be a JSON object, not an array/],
  ])('answers 400 for %j', async (body, message) => {
    const res = await admin(sb.url, 'POST', '/clock', body);
    expect(res.status).toBe(400);
    // the field refused is named, as every admin body's is (the body itself when it is the problem)
    const field = Array.isArray(body) ? undefined : Object.keys(body);
    const parameter = field?.length === 1 ? `body.${field[0]}` : 'body';
    expect(res.body).toEqual({
      error: 'BadRequest',
      parameter,
      message: expect.stringMatching(message),
    });
  });

  it('fires scheduled indexes when advanced past nextIndexTime', async () => {
    await admin(sb.url, 'POST', '/clock', { set: new Date(START).toISOString() });
    await sb.core.reset({ what: 'all' });
    expect(sb.core.indexing.feed('demo42', 43)!.nextIndexTime).toBe('2026-11-22T04:00:00.000Z');
    await admin(sb.url, 'POST', '/clock', { advance: 'PT23H24M' }); // 04:36 + 23:24 = 04:00 next day
    const feed = sb.core.indexing.feed('demo42', 43)!;
    expect(feed.state).toBe('regen_waiting');
    expect(feed.history.at(-1)).toMatchObject({
      at: '2026-11-22T04:00:00.000Z',
      cause: 'scheduler',
    });
  });

  it('answers a move once the steps it reached are taken: an upload indexes to done, each step at its own time', async () => {
    await admin(sb.url, 'POST', '/clock', { set: new Date(START).toISOString() });
    await sb.core.reset({ what: 'all' });
    // big enough that its parse takes a while of real time (40,000 products)
    const rows = Array.from({ length: 40_000 }, (_, i) => `p${i},Item ${i},${i % 100}.50`);
    const form = new FormData();
    form.append('feedFile', new Blob([`id,name,price\n${rows.join('\n')}\n`]), 'big.csv');
    const res = await fetch(`${sb.url}/api/index/feed?feedId=42`, {
      method: 'POST',
      headers: { authorization: AUTH },
      body: form,
    });
    expect(res.status).toBe(200);
    expect((await admin(sb.url, 'POST', '/clock', { advance: 'PT10M' })).status).toBe(200);
    // read as a user reads it, right after the answer: the file was parsed (real time) and the run ended
    const { body: feed } = await admin(sb.url, 'GET', '/feeds/demo42/42');
    expect(feed).toMatchObject({ state: 'done', parsing: null, lastRun: { outcome: 'done' } });
    expect(feed.products).toBe(40_000);
    const moves = feed.history
      .filter((h: any) => h.kind === 'transition')
      .map((h: any) => [h.to, h.at]);
    // waiting 30 s, running 30 s + 2 ms per product: at their own sandbox times, not the clock's end
    expect(moves).toEqual([
      ['waiting', '2026-11-21T04:36:00.000Z'],
      ['running', '2026-11-21T04:36:30.000Z'],
      ['done', new Date(START + 60_000 + 2 * feed.products).toISOString()],
    ]);
  });
});

describe('reset to real time', () => {
  it('unfreezes the clock and drops the offset', async () => {
    const live = await startSandbox();
    try {
      await admin(live.url, 'POST', '/clock', { advance: 'P2D' });
      expect(live.core.clock.offset).toBeGreaterThanOrEqual(2 * 86_400_000 - 1000);
      const res = await admin(live.url, 'POST', '/clock', { reset: true });
      expect(res.status).toBe(200);
      expect(res.body.frozen).toBe(false);
      expect(Math.abs(res.body.offsetMs)).toBeLessThan(1000);
      expect(Math.abs(Date.parse(res.body.now) - Date.now())).toBeLessThan(1000);
    } finally {
      await live.close();
    }
  });
});
