// Durability: a sandbox process killed with SIGKILL while clients are sending keeps every event it
// answered 200 to; the restarted process finds them all in its journal.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RULES } from '../../src/main/tracking/timeline/rule-list';
import type { RecordedEvent } from '../../src/shared/events';
import { postBeacon, startSandbox, tempDir } from '../helpers/sandbox';
import { spawnCli, type CliProcess } from './cli-process';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const CLIENTS = 8;
const KILL_AFTER = 300;

function render(responseId: string) {
  return {
    context: {
      timestamp: new Date().toISOString(),
      pageUrl: 'http://localhost:5173/search?q=durable',
      userId: 'u-durable',
      sessionId: 's-durable',
      pageLoadId: `p-${responseId}`,
      initiator: 'durability-test',
    },
    data: { responseId },
  };
}

async function start(dataDir: string, cwd: string): Promise<CliProcess> {
  const cli = spawnCli(['serve', '--port', '0', '--data', dataDir], cwd);
  cleanups.push(() => cli.kill());
  await cli.ready;
  return cli;
}

describe('durability', () => {
  it('keeps every acknowledged event across kill -9', async () => {
    const { dir, cleanup } = tempDir('durability-');
    cleanups.push(cleanup);
    const first = await start(`${dir}/data`, dir);

    const acked: string[] = [];
    let killed = false;
    let failures = 0;
    // Several clients in parallel, so the kill lands while writes are in flight and batched.
    const client = async (n: number) => {
      for (let i = 0; ; i++) {
        const responseId = `c${n}-${i}`;
        let status: number;
        try {
          status = (await postBeacon(first.url, 'demo42/search/render', render(responseId))).status;
        } catch {
          failures++;
          return;
        }
        if (status !== 200) throw new Error(`event ${responseId} answered ${status}`);
        acked.push(responseId);
        if (acked.length >= KILL_AFTER && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
    expect(await first.exit).toBe(128 + 9);
    expect(failures).toBe(CLIENTS);
    expect(acked.length).toBeGreaterThanOrEqual(KILL_AFTER);

    const second = await start(`${dir}/data`, dir);
    const res = await fetch(`${second.url}/_sandbox/events?limit=100000&event=render`);
    const recorded = ((await res.json()) as { events: RecordedEvent[] }).events;
    const ids = new Set(
      recorded.map((e) => (e.body as { data: { responseId: string } }).data.responseId),
    );
    const lost = acked.filter((id) => !ids.has(id));
    expect(lost).toEqual([]);
    expect(recorded.every((e) => e.accepted && e.status === 200)).toBe(true);
    // The restarted sandbox keeps numbering after what it reloaded.
    expect(
      (await postBeacon(second.url, 'demo42/search/render', render('after-restart'))).status,
    ).toBe(200);
    const last = (
      (await (await fetch(`${second.url}/_sandbox/events?limit=1`)).json()) as {
        events: RecordedEvent[];
      }
    ).events[0]!;
    expect(last.seq).toBe(Math.max(...recorded.map((e) => e.seq)) + 1);
  });
});

describe('a restart', () => {
  it('tells whoever started the sandbox how many stored events it replayed (serve compacts the heap after a big replay)', async () => {
    const { dir, cleanup } = tempDir('replay-');
    cleanups.push(cleanup);
    const replays: number[] = [];
    const afterReplay = (n: number) => replays.push(n);
    const first = await startSandbox({ dataDir: dir }, { afterReplay });
    for (const id of ['r-1', 'r-2', 'r-3'])
      expect((await postBeacon(first.url, 'demo42/search/render', render(id))).status).toBe(200);
    await first.close();
    const again = await startSandbox({ dataDir: dir }, { afterReplay });
    cleanups.push(() => again.close());
    expect(replays).toEqual([0, 3]);
  });

  it('starts when the timelines cannot take a stored event (a bug in a rule), and says so in its warnings', async () => {
    const { dir, cleanup } = tempDir('replay-');
    cleanups.push(cleanup);
    const first = await startSandbox({ dataDir: dir });
    for (const id of ['r-a', 'r-b'])
      expect((await postBeacon(first.url, 'demo42/search/render', render(id))).status).toBe(200);
    const { events } = (await (await fetch(`${first.url}/_sandbox/events`)).json()) as {
      events: RecordedEvent[];
    };
    await first.close();
    const bad = events[0]!.id;
    const rule = RULES.find((r) => r.tally)!;
    const tally = rule.tally!.bind(rule);
    const spy = vi.spyOn(rule, 'tally').mockImplementation((page, rec) => {
      if (rec.id === bad) throw new Error('a bug in a rule');
      return tally(page, rec);
    });
    try {
      const again = await startSandbox({ dataDir: dir });
      cleanups.push(() => again.close());
      const health = (await (await fetch(`${again.url}/_sandbox/health`)).json()) as {
        warnings: string[];
      };
      expect(health.warnings).toContainEqual(
        expect.stringContaining(
          `1 stored event could not be replayed into the timelines (first: ${bad}: a bug in a rule)`,
        ),
      );
      // the other event's page is there, and both events are still stored
      const page = await fetch(`${again.url}/_sandbox/timelines/p-r-b?siteId=demo42`);
      expect(page.status).toBe(200);
      const stored = (await (await fetch(`${again.url}/_sandbox/events`)).json()) as {
        events: RecordedEvent[];
      };
      expect(stored.events.map((e) => e.id)).toEqual(events.map((e) => e.id));
    } finally {
      spy.mockRestore();
    }
  });
});
