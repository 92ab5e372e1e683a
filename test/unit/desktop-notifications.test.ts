// Which bus messages become desktop notifications: a page turning fail, a feed ending in error —
// once per change, never for a page already failing — and how a burst is folded into one.
import { ruleMeta } from '../../src/main/tracking/timeline/rule-list';
import { describe, expect, it } from 'vitest';
import { NotificationThrottle, NotificationWatcher } from '../../src/main/desktop/notifications';
import type { PageTimelineSummaryDto, Verdict } from '../../src/shared/timeline';
import type { StreamMessage } from '../../src/shared/stream';
import type { FeedView } from '../../src/shared/indexing';

function page(verdict: Verdict, overrides: Partial<PageTimelineSummaryDto> = {}): StreamMessage {
  return {
    type: 'timeline',
    data: {
      siteId: 'demo42',
      pageKind: 'search',
      sessionId: 's1',
      userId: 'u1',
      pageLoadId: 'p1',
      pageUrl: 'https://shop.example/search?q=shoes',
      verdict,
      firstSeen: null,
      lastSeen: null,
      counts: {
        events: 3,
        accepted: 3,
        rejected: 0,
        responses: 1,
        errors: verdict === 'fail' ? 2 : 0,
        warnings: 0,
        infos: 0,
      },
      responseIds: ['r1'],
      kinds: ['search'],
      rules: verdict === 'fail' ? ['dev-flag', 'click-not-impressed', 'missing-render'] : [],
      ...overrides,
    },
  };
}

function feed(state: string, extra: Record<string, unknown> = {}): StreamMessage {
  return {
    type: 'feed',
    data: { siteId: 'demo42', id: 42, name: 'Custom CSV feed', state, ...extra } as FeedView,
  };
}

describe('NotificationWatcher', () => {
  it('notifies when a page turns fail, naming the rules that made it fail', () => {
    const w = new NotificationWatcher();
    expect(w.handle(page('pass'))).toBeNull();
    const notice = w.handle(page('fail'));
    expect(notice).not.toBeNull();
    expect(notice!.title).toBe('Timeline failed — demo42: https://shop.example/search?q=shoes');
    // missing-render is an error; click-not-impressed a warning, dev-flag informational: only the error is named
    expect(notice!.body).toBe('Events without a render: 2 errors');
  });

  it('says how many of its errors follow from another finding, as the timelines list does', () => {
    const w = new NotificationWatcher();
    // listed in the rules' order, where the followers come first: the notice names the cause first
    const stale = page('fail', {
      rules: ['response-replaced', 'item-not-in-response', 'responseid-stale'],
      following: { errors: 2, warnings: 0, infos: 0 },
    });
    (stale.data as PageTimelineSummaryDto).counts.errors = 3;
    const body = w.handle(stale)!.body;
    expect(body).toMatch(/: 3 errors \(2 follow from another finding\)$/);
    expect(body.startsWith(ruleMeta('responseid-stale')!.title)).toBe(true);
  });

  it('stays quiet while the page keeps failing, and speaks again after it recovered', () => {
    const w = new NotificationWatcher();
    expect(w.handle(page('fail'))).not.toBeNull();
    expect(w.handle(page('fail'))).toBeNull();
    expect(w.handle(page('warn'))).toBeNull();
    expect(w.handle(page('fail'))).not.toBeNull();
  });

  it('tells pages apart by site, session and pageLoadId', () => {
    const w = new NotificationWatcher();
    expect(w.handle(page('fail'))).not.toBeNull();
    expect(w.handle(page('fail', { pageLoadId: 'p2' }))).not.toBeNull();
    expect(w.handle(page('fail', { siteId: 'other1' }))).not.toBeNull();
  });

  it('forgets verdicts on reset, so the same page failing again is news', () => {
    const w = new NotificationWatcher();
    w.handle(page('fail'));
    expect(w.handle({ type: 'reset', data: { what: 'events' } })).toBeNull();
    expect(w.handle(page('fail'))).not.toBeNull();
  });

  it('notifies when a feed ends in error or regen_error, once per change', () => {
    const w = new NotificationWatcher();
    expect(w.handle(feed('running'))).toBeNull();
    const error = w.handle(
      feed('error', { lastRun: { error: 'row 3: no id column (uid, id, product_id, sku)' } }),
    );
    expect(error).toEqual({
      title: 'Feed 42 (Custom CSV feed) of demo42 is error',
      body: 'row 3: no id column (uid, id, product_id, sku)',
    });
    expect(w.handle(feed('error'))).toBeNull();
    expect(w.handle(feed('regen_running'))).toBeNull();
    expect(w.handle(feed('regen_error'))!.body).toMatch(/regeneration failed/);
    expect(w.handle(feed('done'))).toBeNull();
  });

  it('ignores other message types and malformed data without throwing', () => {
    const w = new NotificationWatcher();
    for (const m of [
      { type: 'event', data: { verdict: 'fail' } },
      { type: 'clock', data: null },
      { type: 'timeline', data: 'fail' },
      { type: 'timeline', data: { verdict: 'fail' } },
      { type: 'feed', data: { state: 'error' } },
      { type: 'feed', data: [] },
      { type: 'outbox', data: {} },
    ] as StreamMessage[]) {
      expect(w.handle(m)).toBeNull();
    }
    // unknown rule ids (and prototype keys) never reach the text
    expect(w.handle(page('fail', { rules: ['toString', 'nope'] as never }))!.body).toBe(
      'a timeline rule failed: 2 errors',
    );
  });
});

describe('NotificationThrottle', () => {
  it('lets three through per window and folds the rest into the next one', () => {
    let now = 0;
    const t = new NotificationThrottle(() => now, 3, 10_000);
    const n = (i: number) => ({ title: `t${i}`, body: `b${i}` });
    expect([1, 2, 3].map((i) => t.admit(n(i)))).toEqual([n(1), n(2), n(3)]);
    expect(t.admit(n(4))).toBeNull();
    expect(t.admit(n(5))).toBeNull();
    now = 10_000;
    expect(t.admit(n(6))).toEqual({
      title: 't6',
      body: 'b6\n… and 2 more since the last notification.',
    });
    expect(t.admit(n(7))).toEqual(n(7));
  });
});
