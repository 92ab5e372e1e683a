// An accepted upload whose kept copy left the data directory before its run read it (removed by hand, or
// unreadable): the start-up and the feed's history say the sandbox's copy is missing, naming its file, and
// the run fails saying so. Before, the run said no file had ever been uploaded, blaming the client.
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are shaped by the assertions themselves */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../../src/main/clock';
import { startSandbox, testConfig } from '../helpers/sandbox';
import { admin, fixture, restartableSandboxes, START, upload } from './indexing-helpers';

const { start, stop, dataDir } = restartableSandboxes();
const clock = () => new SandboxClock({ frozen: true, start: START });
/** The kept copy of feed 42's upload: the file its record in indexing.json names. */
const KEPT = (dir: string) => {
  const { feeds } = JSON.parse(readFileSync(path.join(dir, 'indexing.json'), 'utf8')) as {
    feeds: Array<{ feedId: number; upload: { file: string } }>;
  };
  return path.join(dir, 'uploads', feeds.find((f) => f.feedId === 42)!.upload.file);
};

/** Feed 42 with an upload accepted and queued, the sandbox stopped before its run read it. */
async function queuedUpload(): Promise<string> {
  const dir = dataDir();
  const sb = await start(dir, clock());
  const res = await upload(sb.url, 'feedId=42', fixture('products.csv'), 'products.csv');
  expect(res.status).toBe(200);
  expect((await admin(sb.url, 'GET', '/feeds/demo42/42')).body.state).toBe('waiting');
  await stop(sb);
  return dir;
}

/** The clock moved on until the feed's run ended: its state then. */
async function runEnds(url: string): Promise<any> {
  for (let i = 0; i < 40; i++) {
    const feed = (await admin(url, 'GET', '/feeds/demo42/42')).body;
    if (feed.state === 'done' || feed.state === 'error') return feed;
    await admin(url, 'POST', '/clock', { advance: 'PT5M' });
  }
  throw new Error('the run of feed 42 did not end');
}

describe('an accepted upload whose kept copy is gone', () => {
  it('is named at start and in the history, and its run fails saying the sandbox lost its copy', async () => {
    const dir = await queuedUpload();
    rmSync(KEPT(dir));
    const sb = await start(dir, clock());
    const said = `the upload its queued run will index (products.csv) is not in the data directory: ${KEPT(dir)} is missing; upload the file again`;
    expect(sb.core.warnings()).toContain(`feed 42 of demo42: ${said}`);
    const feed = await runEnds(sb.url);
    expect(feed.history.map((h: any) => h.detail)).toContain(said);
    expect(feed.state).toBe('error');
    expect(feed.lastRun.error).toBe(
      `the uploaded feed file is not in the data directory: ${KEPT(dir)} is missing (the sandbox's copy, not your file): upload it again (POST /api/index/feed with feedFile)`,
    );
    // uploaded again (past the hour a feed takes one request in), it indexes
    await admin(sb.url, 'POST', '/clock', { advance: 'PT1H' });
    expect(
      (await upload(sb.url, 'feedId=42', fixture('products.csv'), 'products.csv')).status,
    ).toBe(200);
    expect((await runEnds(sb.url)).state).toBe('done');
  });

  it('is said once in the history, not again when a reset of another site starts the kept feeds again', async () => {
    const dir = await queuedUpload();
    rmSync(KEPT(dir));
    const demo = testConfig().accounts.find((a) => a.siteId === 'demo42')!;
    const sb = await startSandbox(
      { dataDir: dir, accounts: [demo, { ...demo, siteId: 'other1' }] },
      { clock: clock() },
    );
    try {
      const reset = await fetch(`${sb.url}/_sandbox/reset?siteId=other1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ what: 'all' }),
      });
      expect(reset.status).toBe(200);
      const feed = (await admin(sb.url, 'GET', '/feeds/demo42/42')).body;
      const lost = feed.history.filter((h: any) => /not in the data directory/.test(h.detail));
      expect(lost).toHaveLength(1);
    } finally {
      await sb.close();
    }
  });

  it('unreadable (a directory where the file was) is named with its error', async () => {
    const dir = await queuedUpload();
    rmSync(KEPT(dir));
    mkdirSync(KEPT(dir));
    const sb = await start(dir, clock());
    expect(sb.core.warnings().join('\n')).toContain(
      `is not in the data directory: ${KEPT(dir)} could not be read (EISDIR); upload the file again`,
    );
  });

  it('kept as it was, the run indexes it and nothing is said', async () => {
    const dir = await queuedUpload();
    const sb = await start(dir, clock());
    expect(sb.core.warnings().join('\n')).not.toMatch(/not in the data directory/);
    expect((await runEnds(sb.url)).state).toBe('done');
  });
});
