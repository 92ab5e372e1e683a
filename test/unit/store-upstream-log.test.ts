// The real service's answers file: answers land on their events, come back after a restart, a torn or
// malformed line costs only itself (and is reported), answers of forgotten events are dropped, and each
// answer is on disk before its write resolves.
import { appendFileSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventLog } from '../../src/main/store/event-log';
import { UPSTREAM_FILE, UpstreamLog } from '../../src/main/store/upstream-log';
import type { UpstreamAnswer } from '../../src/shared/events';
import { tempDir } from '../helpers/sandbox';
import { renderDraft } from '../helpers/event-drafts';
import { watchSyncs } from '../helpers/synced-files';

const answer = (status: number): UpstreamAnswer => ({
  url: 'http://127.0.0.1:9/beacon/v2/abc123/search/render',
  outcome: status < 300 ? 'accepted' : 'rejected',
  status,
  body: { success: status < 300 },
  at: '2026-11-22T10:00:00.000Z',
  ms: 3,
});

async function events(n: number): Promise<EventLog> {
  const log = new EventLog({ retention: 100 });
  for (let i = 0; i < n; i++) await log.append(renderDraft('abc123', i));
  return log;
}

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('upstream answers file', () => {
  it('puts answers back on their events; skips and reports unreadable lines', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const store = await events(3);
    const first = await UpstreamLog.open(dir, store, 100);
    await first.log.add(store.get('ev_000000001')!, answer(200));
    await first.log.add(store.get('ev_000000002')!, answer(400));
    await first.log.close();
    expect(store.get('ev_000000002')!.upstream!.status).toBe(400);
    const file = path.join(dir, UPSTREAM_FILE);
    appendFileSync(
      file,
      '{"eventId":"ev_000000003","upstream":{"outcome":"maybe"}}\n{"eventId":"ev_0',
    );

    const again = await events(3);
    const second = await UpstreamLog.open(dir, again, 100);
    expect(again.get('ev_000000001')!.upstream).toEqual(answer(200));
    expect(again.get('ev_000000002')!.upstream).toEqual(answer(400));
    expect(again.get('ev_000000003')!.upstream).toBeUndefined();
    expect(second.warnings).toEqual([
      `upstream answers: 2 unreadable line(s) in ${file} were skipped`,
    ]);
    await second.log.close();
  });

  it('drops the answers of events that were reset', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const store = await events(2);
    const { log } = await UpstreamLog.open(dir, store, 100);
    await log.add(store.get('ev_000000001')!, answer(200));
    await store.reset();
    await log.pruned();
    await log.close();
    expect(readFileSync(path.join(dir, UPSTREAM_FILE), 'utf8')).toBe('');
  });

  it('has each answer on disk before its write resolves; a rewrite replaces the file whole', async () => {
    const { dir: made, cleanup } = tempDir();
    cleanups.push(cleanup);
    const dir = realpathSync(made);
    const file = path.join(dir, UPSTREAM_FILE);
    const store = await events(2);
    const { log } = await UpstreamLog.open(dir, store, 100);
    const watch = await watchSyncs();
    try {
      // the first answer creates the file: a rewrite with every answer so far
      await log.add(store.get('ev_000000001')!, answer(200));
      expect(watch.synced).toEqual([`sync ${dir}/.${UPSTREAM_FILE}.tmp`, `sync ${dir}`]);
      await log.add(store.get('ev_000000002')!, answer(400));
      expect(watch.synced.slice(2)).toEqual([`datasync ${file}`]);
    } finally {
      watch.stop();
    }
    await log.close();
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('gathers answers that come one after another into one write and one sync', async () => {
    const { dir: made, cleanup } = tempDir();
    cleanups.push(cleanup);
    const dir = realpathSync(made);
    const store = await events(40);
    const { log } = await UpstreamLog.open(dir, store, 100);
    await log.add(store.get('ev_000000001')!, answer(200));
    const watch = await watchSyncs();
    try {
      // one answer a turn of the event loop, as forwarded requests end
      const writes: Array<Promise<void>> = [];
      for (let i = 2; i <= 40; i++) {
        writes.push(log.add(store.get(`ev_${String(i).padStart(9, '0')}`)!, answer(200)));
        await new Promise((resolve) => setImmediate(resolve));
      }
      await Promise.all(writes);
      expect(watch.synced).toEqual([`datasync ${path.join(dir, UPSTREAM_FILE)}`]);
    } finally {
      watch.stop();
    }
    await log.close();
    expect(readFileSync(path.join(dir, UPSTREAM_FILE), 'utf8').trim().split('\n')).toHaveLength(40);
  });
});
