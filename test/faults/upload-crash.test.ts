// An upload (POST /api/index/feed with feedFile) stopped by kill -9 before each change it makes to the data
// directory, one run per change (and, in a second pass, with that change failing instead): the restarted
// sandbox's feed indexes the upload of its last acknowledged request, or, when the process stopped after
// the request was stored, the new one, with the history saying so; never the new bytes under the old
// request (before, an upload killed between replacing the feed's file and storing its state did that, and
// the next PUT indexed the file whose client was told the connection failed). No upload file that the
// feed's state does not name stays in uploads/.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BASIC, crashableSandbox, filledDataDir, json, runCleanups } from './fault-helpers';
import { startSandbox } from '../helpers/sandbox';

afterEach(runCleanups);

const A = 'id,name,price\nA1,first upload,1\n';
const B = 'id,name,price\nB1,second upload,2\nB2,second upload,3\n';

interface Feed {
  state: string;
  history: Array<{ kind: string; requestedBy?: string | null }>;
}

const feed = (url: string) => json<Feed>(fetch(`${url}/_sandbox/feeds/demo42/42`));

function clock(url: string, advance: string): Promise<Response> {
  return fetch(`${url}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ advance }),
  });
}

function upload(url: string, text: string, name: string, requestedBy: string): Promise<Response> {
  const form = new FormData();
  form.append('feedFile', new Blob([text]), name);
  return fetch(`${url}/api/index/feed?feedId=42&requestedBy=${encodeURIComponent(requestedBy)}`, {
    method: 'POST',
    headers: { authorization: BASIC },
    body: form,
  });
}

/** The clock moved on until feed 42's queued run ended: its catalog's product ids. */
async function indexed(url: string): Promise<string[]> {
  for (let i = 0; i < 50; i++) {
    const { state } = await feed(url);
    if (state === 'done') break;
    expect(state).not.toBe('error');
    await clock(url, 'PT5M');
  }
  const { products } = await json<{ products: Array<{ uid: string }> }>(
    fetch(`${url}/_sandbox/feeds/demo42/42/catalog?limit=10`),
  );
  return products.map((p) => p.uid);
}

/** What feed 42 indexes after a restart (a PUT re-indexes the kept upload, unless B's run is queued). */
async function restartedSource(data: string) {
  const sandbox = await startSandbox({ dataDir: data });
  try {
    const { state, history } = await feed(sandbox.url);
    if (state === 'done') {
      // past the hour of the last accepted request (the clock starts at real time again)
      await clock(sandbox.url, 'PT3H');
      const put = await fetch(`${sandbox.url}/api/index/feed?feedId=42`, {
        method: 'PUT',
        headers: { authorization: BASIC },
      });
      expect(put.status).toBe(200);
    }
    const bRequested = history.some(
      (h) => h.kind === 'request' && h.requestedBy === 'b@shop.example',
    );
    return { ids: await indexed(sandbox.url), bRequested };
  } finally {
    await sandbox.close();
  }
}

/** The upload files in the data directory besides the one feed 42's state names. */
function unnamedUploads(data: string): string[] {
  const { feeds } = JSON.parse(readFileSync(path.join(data, 'indexing.json'), 'utf8')) as {
    feeds: Array<{ feedId: number; upload?: { file: string } | null }>;
  };
  const named = feeds.find((f) => f.feedId === 42)?.upload?.file;
  return readdirSync(path.join(data, 'uploads')).filter((f) => f !== named);
}

/**
 * Upload B in a sandbox killed just before its change number `at` (from 0), or, `fails`, whose change
 * number `at` fails (EIO) and which is killed once it answered: the answer (null: the process died
 * first), what a restart indexes, and how many changes the upload made.
 */
async function crashedUpload(at: number, fails = false) {
  const first = await crashableSandbox(filled.data, 'upload-crash-', at, fails);
  // past A's hour, before anything is armed: B is accepted
  expect((await clock(first.url, 'PT2H')).status).toBe(200);
  first.arm();
  const answered = await upload(first.url, B, 'B.csv', 'b@shop.example').then(
    (res) => res.status,
    () => null, // the connection died with the process
  );
  const changes = await first.stop();
  const restarted = await restartedSource(first.data);
  return { answered, restarted, changes, unnamed: unnamedUploads(first.data) };
}

/** The data directory every run starts from: feed 42 indexed from upload A (acknowledged). */
const filled = { data: '' };
let removeFilled = () => {};
afterAll(() => removeFilled());

beforeAll(async () => {
  const made = await filledDataDir('upload-crash-filled-', async (url) => {
    expect((await upload(url, A, 'A.csv', 'a@shop.example')).status).toBe(200);
    expect(await indexed(url)).toEqual(['A1']);
  });
  filled.data = made.data;
  removeFilled = made.remove;
}, 60_000);

/** One run's line, and its checks: A without B's request, or B with it; B once answered 200. */
function judged(run: Awaited<ReturnType<typeof crashedUpload>>, what: string): string {
  const { answered, restarted, unnamed } = run;
  const shown = restarted.ids.join(',') === 'A1' ? 'A' : 'B';
  const line = `${what}: answered ${answered}, restarted with ${shown}, left ${unnamed.join(' ') || 'nothing'}`;
  expect(restarted, line).toEqual(
    shown === 'A' ? { ids: ['A1'], bRequested: false } : { ids: ['B1', 'B2'], bRequested: true },
  );
  if (answered === 200) expect(shown, line).toBe('B');
  else if (answered !== null) expect(shown, line).toBe('A');
  expect(unnamed, line).toEqual([]);
  return line;
}

describe('an upload stopped by kill -9', () => {
  it('restarts with the last acknowledged upload, or the new one once stored, at every change it makes', async () => {
    const lines: string[] = [];
    for (let at = 0; ; at++) {
      const run = await crashedUpload(at);
      lines.push(judged(run, `killed before change ${at} of ${run.changes}`));
      if (run.answered !== null) break;
    }
    console.log(lines.join('\n'));
  }, 180_000);
});

describe('an upload whose change to the data directory fails (EIO), then kill -9', () => {
  it('is refused (503) with the feed as before, or answered 200 with the new upload, at every change', async () => {
    const lines: string[] = [];
    for (let at = 0; ; at++) {
      const run = await crashedUpload(at, true);
      lines.push(judged(run, `change ${at} of ${run.changes} failed`));
      expect([200, 503], lines.join('\n')).toContain(run.answered);
      if (at >= run.changes) break; // no change of the upload failed: all of them were tried
    }
    console.log(lines.join('\n'));
  }, 180_000);
});
