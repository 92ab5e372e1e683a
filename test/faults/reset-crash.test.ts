// A reset of everything (`{"what":"all"}`: events, search responses, feeds, uploads, catalogs, outbox)
// stopped by kill -9 after each change it makes to the data directory, one run per change: the restarted
// sandbox shows everything as it was before the reset, or everything as after it, never a part of each;
// and once the reset was answered 200, everything as after it. Each run starts on a copy of one data
// directory filled once (by a sandbox stopped as a user stops it), so that the runs differ only in where
// the reset was stopped.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  beacon,
  crashableSandbox,
  filledDataDir,
  json,
  pageLoads,
  render,
  runCleanups,
} from './fault-helpers';
import { startSandbox } from '../helpers/sandbox';

afterEach(runCleanups);

const FEED = readFileSync(path.resolve(__dirname, '../../fixtures/search/outdoor-products.csv'));
const AUTH = `Basic ${Buffer.from('demo42:demo-secret-key').toString('base64')}`;
const PAGES = ['p-1', 'p-2', 'p-3'];

interface Feed {
  state: string;
  products: number;
  lastRun: unknown;
}

/** What a reset of everything forgets, as the sandbox at `url` shows it. */
async function forgettable(url: string) {
  const feed = await json<Feed>(fetch(`${url}/_sandbox/feeds/demo42/42`));
  const { responses } = await json<{ responses: unknown[] }>(
    fetch(`${url}/_sandbox/search/responses?siteId=demo42`),
  );
  const { messages } = await json<{ messages: unknown[] }>(fetch(`${url}/_sandbox/outbox`));
  return {
    events: (await pageLoads(url)).length,
    responses: responses.length,
    products: feed.products,
    lastRun: feed.lastRun !== null,
    mails: messages.length,
  };
}

const AFTER = { events: 0, responses: 0, products: 0, lastRun: false, mails: 0 };

/** Events, a search response, and feed 42 indexed from an upload, with its mail to its requester. */
async function fill(url: string): Promise<void> {
  for (const page of PAGES) expect((await beacon(url, render(page))).status).toBe(200);
  const search = await fetch(`${url}/api/search/search.json?siteId=demo42&q=tent&beacon=true`);
  expect(search.status).toBe(200);
  const form = new FormData();
  form.append('feedFile', new Blob([FEED]), 'outdoor-products.csv');
  const uploaded = await fetch(`${url}/api/index/feed?feedId=42&requestedBy=dev%40shop.example`, {
    method: 'POST',
    headers: { authorization: AUTH },
    body: form,
  });
  expect(uploaded.status).toBe(200);
  for (let i = 0; i < 50; i++) {
    const feed = await json<Feed>(fetch(`${url}/_sandbox/feeds/demo42/42`));
    if (feed.state === 'done') return;
    expect(feed.state).not.toBe('error');
    await fetch(`${url}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ advance: 'PT5M' }),
    });
  }
  throw new Error('feed 42 did not finish its index');
}

/**
 * A reset of everything in a sandbox killed just before its change number `at` (from 0), or, `fails`,
 * whose change number `at` fails (EIO) and which is killed once it answered: whether it was answered
 * (null: the process died first), what a restart shows, and how many changes the reset made.
 */
async function crashedReset(at: number, fails = false) {
  const first = await crashableSandbox(filled.data, 'reset-crash-', at, fails);
  const before = await forgettable(first.url);
  expect(before).toEqual(filled.before);
  first.arm();
  const answered = await fetch(`${first.url}/_sandbox/reset`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ what: 'all' }),
  }).then(
    (res) => res.status,
    () => null, // the connection died with the process
  );
  const changes = await first.stop();
  const data = first.data;
  // restarted in this process: the start reads the data directory as the CLI's does, without a process's
  // start to pay for at every change
  const second = await startSandbox({ dataDir: data });
  let restarted: typeof before;
  try {
    restarted = await forgettable(second.url);
    // what the reset wrote aside, and its record, are gone: put in place or removed
    expect(readdirSync(data).filter((name) => /\.reset-|^reset\.json$/.test(name))).toEqual([]);
  } finally {
    await second.close();
  }
  return { answered, before, restarted, changes };
}

/** The data directory every run starts from, and what its sandbox showed before it stopped. */
const filled = { data: '', before: AFTER };
let removeFilled = () => {};
afterAll(() => removeFilled());

beforeAll(async () => {
  const made = await filledDataDir('reset-crash-filled-', async (url) => {
    await fill(url);
    const before = await forgettable(url);
    expect(before).toMatchObject({ events: PAGES.length, lastRun: true, mails: 1 });
    expect(before.responses).toBeGreaterThan(0);
    expect(before.products).toBeGreaterThan(0);
    return before;
  });
  Object.assign(filled, { data: made.data, before: made.filled });
  removeFilled = made.remove;
}, 60_000);

describe('a reset of everything stopped by kill -9', () => {
  it('restarts as before it or as after it, at every change it makes; as after it once answered', async () => {
    const outcomes: string[] = [];
    for (let at = 0; ; at++) {
      const { answered, before, restarted, changes } = await crashedReset(at);
      const shown = restarted.events === 0 ? 'after' : 'before';
      outcomes.push(`killed before change ${at} of ${changes}: answered ${answered}, ${shown}`);
      expect(restarted, outcomes.join('\n')).toEqual(shown === 'after' ? AFTER : before);
      if (answered !== null) {
        expect(answered, outcomes.join('\n')).toBe(200);
        expect(restarted, outcomes.join('\n')).toEqual(AFTER);
        expect(at).toBeGreaterThan(0);
        break;
      }
    }
    console.log(outcomes.join('\n'));
  }, 180_000);
});

describe('a reset of everything whose change to the data directory fails (EIO), then kill -9', () => {
  it('restarts as before it or as after it, at every change; as after it once answered 200', async () => {
    const outcomes: string[] = [];
    for (let at = 0; ; at++) {
      const { answered, before, restarted, changes } = await crashedReset(at, true);
      const shown = restarted.events === 0 ? 'after' : 'before';
      outcomes.push(`change ${at} of ${changes} failed: answered ${answered}, ${shown}`);
      expect(restarted, outcomes.join('\n')).toEqual(shown === 'after' ? AFTER : before);
      // a failure is answered 503, and only a reset that was answered 200 must show as done
      expect([200, 503], outcomes.join('\n')).toContain(answered);
      if (answered === 200) expect(restarted, outcomes.join('\n')).toEqual(AFTER);
      if (at >= changes) break; // no change of the reset failed: all of them were tried
    }
    console.log(outcomes.join('\n'));
  }, 180_000);
});
