// Each entry of a feed's history names who or what made it, over HTTP: what the sandbox did by itself (a
// restart, the clock going back, a reset to the fixtures) is the sandbox's, never "by hand", which is kept
// for a person's moves, and a data directory holding such entries starts again.
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

const { start, stop, dataDir } = restartableSandboxes();

async function history(sb: Sandbox, feedId: number): Promise<any[]> {
  const { status, body } = await admin(sb.url, 'GET', `/feeds/demo42/${feedId}`);
  expect(status).toBe(200);
  return body.history;
}

/** A day ahead, past its scheduled index: feed 43 queued (regen_waiting) on the advanced clock. */
async function queueOnAdvancedClock(sb: Sandbox): Promise<void> {
  expect((await advance(sb.url, PAST_A_DAYS_INDEXES)).status).toBe(200);
  expect((await admin(sb.url, 'GET', '/feeds/demo42/43')).body.state).toBe('done');
  expect((await put(sb.url, 'feedId=43')).status).toBe(200);
}

const clockNotes = (entries: any[]) => entries.filter((e) => /clock went back/.test(e.detail));

describe('what the sandbox did by itself is the sandbox cause', () => {
  it('the clock going back ("reset to real time") moves feeds on as the sandbox, not by hand', async () => {
    const sb = await start(undefined, clockJustPastTheHour());
    await queueOnAdvancedClock(sb);
    expect((await admin(sb.url, 'POST', '/clock', { reset: true })).status).toBe(200);
    const notes = clockNotes(await history(sb, 43));
    expect(notes.length).toBeGreaterThan(0);
    for (const note of notes) expect(note).toMatchObject({ kind: 'note', cause: 'sandbox' });
  });

  it('a restart says what it moved as the sandbox, and a data directory holding such entries starts again', async () => {
    const dir = dataDir();
    const first = await start(dir, clockJustPastTheHour());
    await queueOnAdvancedClock(first);
    await stop(first);
    const second = await start(dir);
    const notes = clockNotes(await history(second, 43));
    expect(notes.length).toBeGreaterThan(0);
    for (const note of notes) expect(note).toMatchObject({ cause: 'sandbox' });
    await stop(second);
    const third = await start(dir);
    expect(clockNotes(await history(third, 43))).toEqual(notes);
  });

  it('"reset all" creates the feeds from the config as the sandbox; a hand move stays by hand', async () => {
    const sb = await start();
    const moved = await admin(sb.url, 'POST', '/feeds/demo42/42/transition', { to: 'waiting' });
    expect(moved.body.history.at(-1)).toMatchObject({ kind: 'transition', cause: 'hand' });
    expect((await admin(sb.url, 'POST', '/reset', { what: 'all' })).status).toBe(200);
    for (const feedId of [42, 43, 44]) {
      const created = (await history(sb, feedId)).find((e) =>
        /created from the config/.test(e.detail),
      );
      expect(created).toMatchObject({ kind: 'note', cause: 'sandbox' });
    }
  });
});
