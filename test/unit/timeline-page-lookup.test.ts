// One page (by pageLoadId) and one session's pages (by sessionId) come from the engine's lookup instead of
// a read of every page: its answers must be the scan's, in the same order, as pages come, change session
// (their first accepted event names it), are trimmed (retention) and reset, with two sites sharing ids.
import { describe, expect, it } from 'vitest';
import { corpusEvents } from '../helpers/corpus-events';
import { SandboxClock } from '../../src/main/clock';
import { defaultTimelineSettings } from '../../src/main/config';
import { TimelineEngine } from '../../src/main/tracking/timeline/engine';
import type { RecordedEvent } from '../../src/shared/events';
import { searchDraft } from '../helpers/drafts';

let seq = 1_000_000;
/** A render of `pageLoadId` in `sessionId` on `siteId`; `accepted: false` as a rejected request keeps it. */
function render(
  siteId: string,
  pageLoadId: string,
  sessionId: string,
  accepted = true,
): RecordedEvent {
  seq++;
  const body = {
    context: {
      timestamp: '2026-11-21T04:00:00.000Z',
      pageUrl: 'https://shop.example/search?q=x',
      userId: 'u-1',
      sessionId,
      pageLoadId,
    },
    data: { responseId: `r-${seq}` },
  };
  return {
    id: `ev_${seq}`,
    seq,
    ...searchDraft('render', body, { siteId }),
    ...(accepted
      ? {}
      : { accepted: false, status: 400, errors: [{ path: 'context', message: 'x' }] }),
  } as unknown as RecordedEvent;
}

/** Every session and pageLoadId the engine holds (and one it does not): the lookup's answer is the scan's. */
function sameAsScan(engine: TimelineEngine): number {
  const all = engine.list();
  const keys = (pages: { key: string }[]) => pages.map((p) => p.key);
  let asked = 0;
  const sites = [undefined, ...new Set(all.map((p) => p.siteId))];
  for (const sessionId of [...new Set(all.map((p) => p.sessionId)), 'no-such-session'])
    for (const siteId of sites) {
      const inSite = all.filter((p) => siteId === undefined || p.siteId === siteId);
      expect(keys(engine.list({ sessionId, ...(siteId && { siteId }) })), sessionId).toEqual(
        keys(inSite.filter((p) => p.sessionId === sessionId)),
      );
      asked++;
    }
  for (const pageLoadId of [...new Set(all.map((p) => p.pageLoadId)), 'no-such-page']) {
    expect(keys(engine.list({ pageLoadId })), pageLoadId).toEqual(
      keys(all.filter((p) => p.pageLoadId === pageLoadId)),
    );
    expect(keys(engine.find(pageLoadId))).toEqual(
      keys(all.filter((p) => p.pageLoadId === pageLoadId)),
    );
    asked++;
  }
  return asked;
}

describe('timeline page lookup', () => {
  it('finds a page and a session as the scan does, through identity changes, trimming and resets', () => {
    const clock = new SandboxClock({ frozen: true, start: Date.parse('2026-11-21T04:00:00Z') });
    const engine = new TimelineEngine({ clock, settings: defaultTimelineSettings(), maxPages: 60 });
    try {
      for (const ev of corpusEvents()) engine.apply(ev);
      expect(sameAsScan(engine)).toBeGreaterThan(20);

      // two sites share a pageLoadId and a session; a page first seen through a rejected request (its
      // sessionId garbage) takes the session of its first accepted event
      engine.apply(render('siteA', 'shared-page', 'shared-session'));
      engine.apply(render('siteB', 'shared-page', 'shared-session'));
      engine.apply(render('siteA', 'late-page', 'garbage', false));
      expect(engine.list({ sessionId: 'garbage' }).map((p) => p.pageLoadId)).toEqual(['late-page']);
      engine.apply(render('siteA', 'late-page', 'shared-session'));
      expect(engine.list({ sessionId: 'garbage' })).toEqual([]);
      expect(
        engine.list({ sessionId: 'shared-session' }).map((p) => `${p.siteId}/${p.pageLoadId}`),
      ).toEqual(['siteA/shared-page', 'siteB/shared-page', 'siteA/late-page']);
      expect(engine.find('shared-page').map((p) => p.siteId)).toEqual(['siteA', 'siteB']);
      expect(engine.find('shared-page', 'siteB').map((p) => p.siteId)).toEqual(['siteB']);
      sameAsScan(engine);

      // retention: the oldest pages go (at most 60 kept), and with them their entries
      for (let i = 0; i < 80; i++) engine.apply(render('siteC', `c-${i}`, `cs-${i % 7}`));
      expect(engine.size()).toBe(60);
      expect(engine.list({ sessionId: 'shared-session' })).toEqual([]);
      expect(engine.find('shared-page')).toEqual([]);
      sameAsScan(engine);

      engine.reset('siteC');
      expect(engine.list({ sessionId: 'cs-1' })).toEqual([]);
      sameAsScan(engine);
      engine.apply(render('siteA', 'shared-page', 'shared-session'));
      expect(engine.find('shared-page').map((p) => p.siteId)).toEqual(['siteA']);
      engine.reset();
      expect(engine.find('shared-page')).toEqual([]);
      expect(sameAsScan(engine)).toBe(2);
    } finally {
      engine.dispose();
      clock.dispose();
    }
  });
});
