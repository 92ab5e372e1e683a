// An import whose events were all checked can still fail midway (its reader thread died, the disk filled):
// the error says how many events were stored and which, and that the import is undone; its records go to
// the store as one import (begin, the records with its id, commit or abort).
import { describe, expect, it } from 'vitest';
import { importEvents, ImportInterrupted } from '../../src/main/store/import-events';
import type { EventDraft, EventStore } from '../../src/main/store/types';

function deps() {
  const stored: EventDraft[] = [];
  const markers: string[] = [];
  const events = {
    append: async (d: EventDraft, importId?: string) => {
      expect(importId).toBe('import-1');
      stored.push(d);
      return { ...d, id: `ev_${String(stored.length).padStart(6, '0')}`, seq: stored.length };
    },
    beginImport: async () => {
      markers.push('begin');
      return 'import-1';
    },
    endImport: async (id: string, outcome: string) => void markers.push(`${outcome} ${id}`),
  } as unknown as EventStore;
  return { stored, markers, deps: { events, sections: new Map(), reset: async () => undefined } };
}

const draft = (n: number) => ({ n }) as unknown as EventDraft;

function checked(batches: Array<EventDraft[] | Error>) {
  return {
    checked: {
      sections: {},
      count: batches.reduce((n, b) => n + (b instanceof Error ? 0 : b.length), 0),
      drafts: (async function* () {
        for (const b of batches) {
          if (b instanceof Error) throw b;
          yield b;
        }
      })(),
      close: () => undefined,
    },
  };
}

describe('an import interrupted after its check', () => {
  it('names the events stored before the failure and what to do', async () => {
    const { stored, markers, deps: d } = deps();
    const first = Array.from({ length: 3 }, (_, i) => draft(i));
    const failure = importEvents(
      d,
      checked([first, new Error('its reader stopped with code 1')]),
      false,
    );
    await expect(failure).rejects.toBeInstanceOf(ImportInterrupted);
    await expect(failure).rejects.toThrow(
      'the import stopped after 3 events were stored (ev_000001 to ev_000003): its reader stopped with code 1. The import is undone: the sandbox shows those events until it restarts, and restarts with the events as they were before the import (and the beacons received meanwhile); send the whole file again',
    );
    expect(stored).toHaveLength(3);
    expect(markers).toEqual(['begin', 'abort import-1']);
  });

  it('says so when nothing was stored yet', async () => {
    const { stored, deps: d } = deps();
    await expect(importEvents(d, checked([new Error('gone')]), false)).rejects.toThrow(
      'the import stopped before any event was stored: gone. Nothing of it is kept; send it again',
    );
    expect(stored).toHaveLength(0);
  });

  it('a whole import answers as before', async () => {
    const { markers, deps: d } = deps();
    const outcome = await importEvents(d, checked([[draft(1), draft(2)], [draft(3)]]), false);
    expect(markers).toEqual(['begin', 'commit import-1']);
    expect(outcome).toEqual({
      ok: true,
      imported: 3,
      firstId: 'ev_000001',
      lastId: 'ev_000003',
      sections: [],
      ignoredSections: [],
    });
  });
});
