// A setting set by hand (PATCH) against the config file's: it stays across restarts while the config says
// what it said when it was set, and gives way, said in the feed's history, once the config's value was
// edited (the user who edits the config and restarts means it). The feed's view shows both values.
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are shaped by the assertions themselves */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../../src/main/clock';
import type { SandboxConfig } from '../../src/main/config';
import { testConfig } from '../helpers/sandbox';
import { admin, restartableSandboxes, START } from './indexing-helpers';
import { startSandbox } from '../helpers/sandbox';

const { stop, dataDir } = restartableSandboxes();

/** The demo accounts with feed 42's interval (and autopilot) as a config file would give them. */
function accounts(interval: number, autopilot = true): Partial<SandboxConfig> {
  const base = testConfig().accounts;
  return {
    accounts: base.map((a) => ({
      ...a,
      feeds: a.feeds.map((f) => (f.id === 42 ? { ...f, interval, autopilot } : f)),
    })),
  };
}

const H = 3_600_000;
const feed42 = async (url: string) => (await admin(url, 'GET', '/feeds/demo42/42')).body;

describe('a feed setting set by hand, then the config edited', () => {
  it('stays while the config says what it said; gives way once the config value changed, and says so', async () => {
    const dir = dataDir();
    const clock = () => new SandboxClock({ frozen: true, start: START });
    let sb = await startSandbox({ dataDir: dir, ...accounts(24 * H) }, { clock: clock() });
    const patched = await admin(sb.url, 'PATCH', '/feeds/demo42/42', {
      interval: '30m',
      autopilot: false,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      interval: '30m',
      autopilot: false,
      configured: { interval: '24h', autopilot: true, regeneration: false },
    });
    await stop(sb);

    // the same config: the hand's values stay, nothing said
    sb = await startSandbox({ dataDir: dir, ...accounts(24 * H) }, { clock: clock() });
    let feed = await feed42(sb.url);
    expect(feed).toMatchObject({ interval: '30m', autopilot: false });
    expect(JSON.stringify(feed.history)).not.toMatch(/set by hand when the config said/);
    await stop(sb);

    // the config's interval edited to 6h (its autopilot as it was): the interval gives way, autopilot stays
    sb = await startSandbox({ dataDir: dir, ...accounts(6 * H) }, { clock: clock() });
    feed = await feed42(sb.url);
    expect(feed).toMatchObject({
      interval: '6h',
      autopilot: false,
      configured: { interval: '6h', autopilot: true },
    });
    expect(feed.history.map((h: any) => h.detail)).toContain(
      'interval 30m was set by hand when the config said 24h; the config now says 6h, which applies (PATCH sets it by hand again)',
    );
    expect(Date.parse(feed.nextIndexTime) - START).toBeLessThanOrEqual(6 * H);
    await stop(sb);

    // and again: what gave way stays given way; autopilot, still as the config said it, stays by hand
    sb = await startSandbox({ dataDir: dir, ...accounts(6 * H) }, { clock: clock() });
    feed = await feed42(sb.url);
    expect(feed).toMatchObject({ interval: '6h', autopilot: false });
    expect(
      feed.history.filter((h: any) => /set by hand when the config said/.test(h.detail)),
    ).toHaveLength(1);
    await stop(sb);
  });

  it('kept by an older version (no record of what the config said) stays set by hand', async () => {
    const dir = dataDir();
    const clock = () => new SandboxClock({ frozen: true, start: START });
    let sb = await startSandbox({ dataDir: dir, ...accounts(24 * H) }, { clock: clock() });
    expect((await admin(sb.url, 'PATCH', '/feeds/demo42/42', { interval: '30m' })).status).toBe(
      200,
    );
    await stop(sb);
    const file = path.join(dir, 'indexing.json');
    const db = JSON.parse(readFileSync(file, 'utf8'));
    const rec = db.feeds.find((f: any) => f.siteId === 'demo42' && f.feedId === 42);
    expect(rec.overrides.configured).toEqual({ interval: 24 * H });
    delete rec.overrides.configured;
    writeFileSync(file, JSON.stringify(db));

    sb = await startSandbox({ dataDir: dir, ...accounts(6 * H) }, { clock: clock() });
    const feed = await feed42(sb.url);
    expect(feed).toMatchObject({ interval: '30m', configured: { interval: '6h' } });
    await stop(sb);
  });
});
