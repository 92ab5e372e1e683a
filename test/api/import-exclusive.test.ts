// An import is all or nothing, and so are its answer and the answers of what arrives while it runs: a
// reset, or a second import, sent while an import is storing its events waits for it, so that the store
// holds the whole import or none of it, as every answer says, before and after a restart. The first
// import is held after its first chunk (a hook on the store) until the second writer has reached the
// sandbox: no timing decides the outcome.
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox';
import type { EventStore } from '../../src/main/store/types';
import { searchDraft } from '../helpers/drafts';
import { postBeacon, startSandbox, tempDir } from '../helpers/sandbox';

const IMPORTED = 1_000;
const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function start(dataDir: string): Promise<Sandbox> {
  const sandbox = await startSandbox({ dataDir });
  cleanups.push(() => sandbox.close());
  return sandbox;
}

/** An export of IMPORTED events of `siteId`, each of its own page. */
function importBody(siteId: string): string {
  const events = Array.from({ length: IMPORTED }, (_, i) =>
    searchDraft(
      'render',
      {
        context: {
          timestamp: '2026-11-21T04:00:00.000Z',
          pageUrl: 'http://localhost:5173/search?q=whole',
          userId: 'u-whole',
          sessionId: `s-${siteId}`,
          pageLoadId: `${siteId}-${i}`,
          initiator: 'import-exclusive-test',
        },
        data: { responseId: `${siteId}-r${i}` },
      },
      { siteId },
    ),
  );
  return JSON.stringify({ events });
}

function postImport(url: string, body: string, replace = false) {
  return fetch(`${url}/_sandbox/import${replace ? '?replace=true' : ''}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
  }).then(async (res) => ({
    status: res.status,
    body: (await res.json()) as { imported: number; firstId: string; lastId: string },
  }));
}

interface Listed {
  count: number;
  retained: number;
  events: Array<{ seq: number; siteId: string }>;
}
async function listed(url: string, siteId?: string): Promise<Listed> {
  const q = siteId === undefined ? '' : `&siteId=${siteId}`;
  return (await (await fetch(`${url}/_sandbox/events?limit=100000${q}`)).json()) as Listed;
}

/**
 * The first import's events after its first chunk of 100 wait until `open()`: `held` resolves once the
 * import has stored that chunk and reached the next.
 */
function holdFirstImport(events: EventStore): { held: Promise<void>; open: () => void } {
  const append = events.append.bind(events);
  let first: string | undefined;
  let seen = 0;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let reached!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  events.append = (draft, importId) => {
    if (importId !== undefined) {
      first ??= importId;
      if (importId === first && ++seen > 100) {
        reached();
        return gate.then(() => append(draft, importId));
      }
    }
    return append(draft, importId);
  };
  return { held, open };
}

/** The held import goes on (`open`) once the next import has reached the store. */
function openWhenNextBegins(events: EventStore, open: () => void): void {
  const begin = events.beginImport.bind(events);
  events.beginImport = () => {
    const begun = begin();
    open();
    return begun;
  };
}

describe('writes that change the events as a whole wait for a running import', () => {
  it('a reset sent during an import waits for it, then removes it: all of it gone, as both answers say, also after a restart', async () => {
    const { dir, cleanup } = tempDir('import-reset-');
    cleanups.push(cleanup);
    const sandbox = await start(dir);
    const { held, open } = holdFirstImport(sandbox.core.events);
    const importing = postImport(sandbox.url, importBody('impA'));
    await held;
    // beacons are still taken (and stored) while the import runs
    const beacon = await postBeacon(sandbox.url, 'demo42/search/render', {
      context: {
        timestamp: new Date().toISOString(),
        pageUrl: 'http://localhost:5173/search?q=meanwhile',
        userId: 'u-meanwhile',
        sessionId: 's-meanwhile',
        pageLoadId: 'p-meanwhile',
        initiator: 'import-exclusive-test',
      },
      data: { responseId: 'r-meanwhile' },
    });
    expect(beacon.status).toBe(200);
    // the import goes on once the reset has reached the sandbox
    const reset = sandbox.core.reset.bind(sandbox.core);
    sandbox.core.reset = (scope, importId) => {
      if (importId === undefined) open();
      return reset(scope, importId);
    };
    const resetting = fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST' });
    const [imported, resetAnswer] = await Promise.all([importing, resetting]);
    expect(imported.status).toBe(200);
    expect(imported.body.imported).toBe(IMPORTED);
    expect(resetAnswer.status).toBe(200);
    const { retained } = (await resetAnswer.json()) as { retained: number };

    // the reset came after the import: none of it is left, and what is left is what the reset said
    expect((await listed(sandbox.url, 'impA')).count).toBe(0);
    expect((await listed(sandbox.url)).retained).toBe(retained);
    expect(retained).toBe(0);

    await sandbox.close();
    const again = await start(dir);
    expect((await listed(again.url, 'impA')).count).toBe(0);
    expect((await listed(again.url)).retained).toBe(retained);
  });

  it('two imports sent together are stored one after the other, each whole, as their answers say, also after a restart', async () => {
    const { dir, cleanup } = tempDir('import-import-');
    cleanups.push(cleanup);
    const sandbox = await start(dir);
    const events = sandbox.core.events;
    const { held, open } = holdFirstImport(events);
    const importA = postImport(sandbox.url, importBody('impA'));
    await held;
    openWhenNextBegins(events, open);
    const importB = postImport(sandbox.url, importBody('impB'));
    const answers = await Promise.all([importA, importB]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body.imported).toBe(IMPORTED);
    }

    // each import's events are its own run of ids, from the firstId to the lastId its answer names
    const check = async (url: string) => {
      for (const [siteId, answer] of [
        ['impA', answers[0]],
        ['impB', answers[1]],
      ] as const) {
        const stored = await listed(url, siteId);
        expect(stored.count, siteId).toBe(IMPORTED);
        const seqs = stored.events.map((e) => e.seq);
        expect(seqs.at(-1)! - seqs[0]! + 1, `${siteId}: one run of seqs`).toBe(IMPORTED);
        expect(`ev_${String(seqs[0]).padStart(9, '0')}`).toBe(answer.body.firstId);
        expect(`ev_${String(seqs.at(-1)).padStart(9, '0')}`).toBe(answer.body.lastId);
      }
    };
    await check(sandbox.url);
    await sandbox.close();
    await check((await start(dir)).url);
  });

  it('an import that replaces, sent during another import, waits for it: each whole or wholly replaced, also after a restart', async () => {
    const { dir, cleanup } = tempDir('import-replace-');
    cleanups.push(cleanup);
    const sandbox = await start(dir);
    const events = sandbox.core.events;
    const { held, open } = holdFirstImport(events);
    const importA = postImport(sandbox.url, importBody('impA'));
    await held;
    openWhenNextBegins(events, open);
    const importB = postImport(sandbox.url, importBody('impB'), true);
    const answers = await Promise.all([importA, importB]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body.imported).toBe(IMPORTED);
    }

    // the replacing import came second: it replaced all of the first
    const check = async (url: string) => {
      expect((await listed(url, 'impA')).count).toBe(0);
      expect((await listed(url, 'impB')).count).toBe(IMPORTED);
      expect((await listed(url)).retained).toBe(IMPORTED);
    };
    await check(sandbox.url);
    await sandbox.close();
    await check((await start(dir)).url);
  });
});
