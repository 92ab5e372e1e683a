// `check` keeps cross-page state (visits for the visit rules, the first page of each responseId) with a ceiling:
// beyond it the oldest go, and the notes say what was forgotten and what that can hide. Below the
// ceiling nothing is forgotten and nothing is said.
import { describe, expect, it } from 'vitest';
import {
  CHECK_LIMITS,
  OfflineJudge,
  type OfflineJudgeLimits,
} from '../../src/main/tracking/timeline/offline-check';
import { pageEvents } from '../bench/timelines';
import { searchDraft } from '../helpers/drafts';
import type { RecordedEvent } from '../../src/shared/events';

/** 300 search pages of 10 events, one session each (as the benchmarks send them), as recorded events. */
function events(lateEventForTheFirstPage = false): RecordedEvent[] {
  const start = Date.parse('2026-11-20T10:00:00Z');
  const out: RecordedEvent[] = [];
  let seq = 0;
  const push = ({ event, body }: { event: string; body: object }) => {
    seq++;
    out.push({
      id: `line:${seq}`,
      seq,
      ...searchDraft(event, body, { siteId: 'bench1' }),
      receivedAt: null,
    } as unknown as RecordedEvent);
  };
  for (let n = 0; n < 300; n++) for (const e of pageEvents(n, start + n * 50)) push(e);
  if (lateEventForTheFirstPage) push(pageEvents(0, start)[0]!);
  return out;
}

function judgeAll(limits: Partial<OfflineJudgeLimits> = {}, late = false) {
  const judge = new OfflineJudge(Date.parse('2026-11-21T00:00:00Z'), undefined, {
    ...CHECK_LIMITS,
    ...limits,
  });
  try {
    let pages = 0;
    for (const e of events(late)) for (const _ of judge.apply(e)) pages++;
    for (const _ of judge.end()) pages++;
    return { pages, notes: judge.notes() };
  } finally {
    judge.dispose();
  }
}

describe('check: the ceiling on cross-page state', () => {
  it('forgets the oldest visits and responseIds beyond it, and says so', () => {
    const { pages, notes } = judgeAll({ maxVisits: 100, maxResponses: 50 });
    expect(pages).toBe(300);
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(
      /^\d+ of the oldest visits were forgotten .*more than 100 were open\): a later event of a forgotten visit begins it again/,
    );
    expect(notes[1]).toMatch(/^the first pages of \d+ of the oldest responseIds were forgotten/);
  });

  it('is exact at its edges: as many as were held says nothing, one fewer forgets one and says so', () => {
    // 300 pages of one session each, two responseIds a page; the ceiling is looked at every 1,024 events
    // (at the last look, 2,048 events in, 205 visits and 410 responseIds were held)
    expect(judgeAll({ maxVisits: 205, maxResponses: 410 }).notes).toEqual([]);
    expect(judgeAll({ maxVisits: 204, maxResponses: 410 }).notes).toEqual([
      expect.stringMatching(/^1 of the oldest visits were forgotten/),
    ]);
    expect(judgeAll({ maxVisits: 205, maxResponses: 409 }).notes).toEqual([
      expect.stringMatching(/^the first pages of 1 of the oldest responseIds were forgotten/),
    ]);
  });

  it('remembers released pages up to its ceiling: a late event for one is noted, beyond it a new page', () => {
    // at most 10 pages open, released once 50 events passed without one: by the last look (2,048 events
    // in) about 200 pages were judged, p-0 first; then an event for p-0 arrives
    const open = { maxOpen: 10, recent: 50 };
    const remembered = judgeAll({ ...open, maxReleased: 1_000 }, true);
    expect(remembered.pages).toBe(301);
    expect(remembered.notes).toEqual([
      expect.stringMatching(/^page p-0 was judged in two parts: .*in the same visit\./),
    ]);
    const forgotten = judgeAll({ ...open, maxReleased: 100 }, true);
    expect(forgotten.pages).toBe(301);
    expect(forgotten.notes).toEqual([
      expect.stringMatching(
        /^\d+ of the pages judged first while the input streamed in are no longer remembered \(more than 100 were judged/,
      ),
    ]);
  });

  it('forgets nothing and says nothing below it', () => {
    expect(judgeAll({ maxVisits: 300, maxResponses: 600 }).notes).toEqual([]);
    expect(judgeAll().notes).toEqual([]);
  });
});
