// The first page of each responseId, per site and kind, found by the responseId itself: two sites or two
// kinds with the same responseId keep their own origins; forgetting and resets touch only what they name.
// The responseId and eventId are kept as characters in the origins' own bytes: any string comes back as it
// went in, and two responseIds are told apart by their text, not by their hash.
import { describe, expect, it } from 'vitest';
import {
  ResponseOrigins,
  type OriginEvent,
} from '../../src/main/tracking/timeline/response-origins';
import type { ResponseKind } from '../../src/shared/kinds';
import { pageKey } from '../../src/main/tracking/timeline/model';
import { keyHash } from '../../src/main/key-filter';

// the pages are named by their pageLoadId: an origin's page key is made from its site and pageLoadId
const page = (siteId: string, pageLoadId: string) => ({
  siteId,
  pageLoadId,
  pageUrl: `https://shop.example/${pageLoadId}`,
  sessionId: 's-1',
});
const event = (
  responseId: string,
  kind: ResponseKind,
  pageLoadId: string,
  time = 0,
): OriginEvent => ({
  id: `ev-${pageLoadId}`,
  responseId,
  kind,
  event: 'render',
  time,
  dev: false,
  pageUrl: `https://shop.example/${pageLoadId}`,
  sessionId: 's-1',
});

function noted(...list: Array<[string, string, ResponseKind, string]>): ResponseOrigins {
  const origins = new ResponseOrigins();
  for (const [siteId, id, kind, pageLoadId] of list)
    origins.note(page(siteId, pageLoadId), event(id, kind, pageLoadId));
  return origins;
}

describe('ResponseOrigins', () => {
  it('keeps the first page per site and kind; the first of any kind per site', () => {
    const o = noted(
      ['a', 'r1', 'search', 'p1'],
      ['a', 'r1', 'search', 'p2'],
      ['a', 'r1', 'category', 'p3'],
      ['b', 'r1', 'category', 'p4'],
    );
    expect(o.ofKind('a', 'r1', 'search')?.pageLoadId).toBe('p1');
    expect(o.ofKind('a', 'r1', 'category')?.pageLoadId).toBe('p3');
    expect(o.ofKind('b', 'r1', 'category')?.pageLoadId).toBe('p4');
    expect(o.ofKind('b', 'r1', 'search')).toBeUndefined();
    expect(o.first('a', 'r1')?.pageLoadId).toBe('p1');
    expect(o.first('b', 'r1')?.pageLoadId).toBe('p4');
    expect(o.first('c', 'r1')).toBeUndefined();
    expect(o.first('a', 'r2')).toBeUndefined();
  });

  it("names its page by the page's key, made from the site and pageLoadId (what the engine keys pages by)", () => {
    // a recording without a site (siteId '') is a site like any other
    const blank = noted(['', 'r1', 'search', 'p1']);
    expect(blank.first('', 'r1')?.pageKey).toBe(pageKey('', 'p1'));
    expect(blank.ofKind('', 'r1', 'search')?.pageLoadId).toBe('p1');
    const o = noted(['a', 'r1', 'search', 'p1'], ['b', 'r1', 'search', 'p1']);
    expect(o.first('a', 'r1')?.pageKey).toBe(pageKey('a', 'p1'));
    expect(o.first('b', 'r1')?.pageKey).toBe(pageKey('b', 'p1'));
    expect(o.first('a', 'r1')?.pageKey).not.toBe(o.first('b', 'r1')?.pageKey);
  });

  it("keeps what the rules read of the first event, with the page's strings where the event's are the same", () => {
    const o = new ResponseOrigins();
    const p = page('a', 'p1');
    const ev: OriginEvent = {
      id: 'line:7',
      responseId: 'r1',
      kind: 'search',
      event: 'redirect',
      time: 1_795_000_000_123.5,
      dev: true,
      pageUrl: `https://shop.example/${'p1'}`,
      sessionId: 's-2',
    };
    o.note(p, ev);
    o.note(p, { ...ev, id: 'line:8', event: 'render', time: 1, dev: false });
    const kept = o.ofKind('a', 'r1', 'search')!;
    expect({ ...kept, pageKey: kept.pageKey }).toEqual({
      siteId: 'a',
      pageLoadId: 'p1',
      pageUrl: 'https://shop.example/p1',
      sessionId: 's-2',
      eventId: 'line:7',
      kind: 'search',
      event: 'redirect',
      time: 1_795_000_000_123.5,
      dev: true,
      pageKey: pageKey('a', 'p1'),
    });
    // the same text: the page's string is kept, not the event's copy
    expect(kept.pageUrl).toBe(p.pageUrl);
    // a kind never seen is no origin
    expect(o.ofKind('a', 'r1', 'recommendations')).toBeUndefined();
  });

  it('forgets the oldest responseIds beyond a ceiling, counting responseIds', () => {
    const o = noted(
      ['a', 'r1', 'search', 'p1'],
      ['b', 'r1', 'search', 'p2'],
      ['a', 'r2', 'search', 'p3'],
      ['a', 'r3', 'search', 'p4'],
    );
    expect(o.forgetOldest(3)).toBe(0);
    expect(o.forgetOldest(2)).toBe(1);
    expect(o.first('a', 'r1')).toBeUndefined();
    expect(o.first('b', 'r1')).toBeUndefined();
    expect(o.first('a', 'r2')?.pageLoadId).toBe('p3');
  });

  it("a site's reset leaves the other sites' origins of the same responseId", () => {
    const o = noted(
      ['a', 'r1', 'search', 'p1'],
      ['b', 'r1', 'search', 'p2'],
      ['a', 'r2', 'search', 'p3'],
    );
    o.reset('a');
    expect(o.first('a', 'r1')).toBeUndefined();
    expect(o.first('a', 'r2')).toBeUndefined();
    expect(o.first('b', 'r1')?.pageLoadId).toBe('p2');
    o.note(page('a', 'p5'), event('r1', 'search', 'p5'));
    expect(o.ofKind('a', 'r1', 'search')?.pageLoadId).toBe('p5');
    expect(o.ofKind('b', 'r1', 'search')?.pageLoadId).toBe('p2');
    o.reset();
    expect(o.first('b', 'r1')).toBeUndefined();
  });

  it('answers as a map of lists would, over blocks written, forgotten and reset (12 seeds)', () => {
    const kinds: ResponseKind[] = ['search', 'category', 'autocomplete', 'recommendations'];
    for (let seed = 1; seed <= 12; seed++) {
      let x = seed;
      const rand = (n: number): number => {
        x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
        return x % n;
      };
      const o = new ResponseOrigins();
      // the reference: each responseId's origins in arrival order, the ids in first arrival order
      let ref = new Map<string, Array<{ site: string; kind: ResponseKind; pageLoadId: string }>>();
      let ids = 0;
      for (let step = 0; step < 12_000; step++) {
        const roll = rand(6000);
        if (roll < 12) {
          const max = rand(6000);
          let gone = 0;
          for (const id of [...ref.keys()]) {
            if (ref.size <= max) break;
            ref.delete(id);
            gone++;
          }
          expect(o.forgetOldest(max)).toBe(gone);
        } else if (roll < 18) {
          const site = `s${rand(3)}`;
          o.reset(site);
          const kept = new Map<
            string,
            Array<{ site: string; kind: ResponseKind; pageLoadId: string }>
          >();
          for (const [id, list] of ref) {
            const left = list.filter((l) => l.site !== site);
            if (left.length > 0) kept.set(id, left);
          }
          ref = kept;
        } else if (roll < 19) {
          o.reset();
          ref = new Map();
        } else {
          // mostly new responseIds (a block is 4,096 rows), some seen again
          const id = rand(4) === 0 && ids > 0 ? `r${rand(ids)}` : `r${ids++}`;
          const site = `s${rand(3)}`;
          const kind = kinds[rand(kinds.length)]!;
          const pageLoadId = `p${step}`;
          o.note(page(site, pageLoadId), event(id, kind, pageLoadId));
          const list = ref.get(id);
          if (!list) ref.set(id, [{ site, kind, pageLoadId }]);
          else if (!list.some((l) => l.site === site && l.kind === kind))
            list.push({ site, kind, pageLoadId });
        }
        if (step % 997 === 0 || step === 11_999) {
          // every answer of the checkpoint against the reference's, compared at once (one expect per
          // checkpoint, not one per answer: vitest's expect costs ~12 µs a call, the lookups a fraction)
          const got: string[] = [];
          const want: string[] = [];
          for (const r of [...Array(60).keys()].map((k) => (k < 40 ? ids - 1 - k : rand(ids))))
            for (const site of ['s0', 's1', 's2']) {
              const list = ref.get(`r${r}`);
              got.push(`${site} r${r} first ${o.first(site, `r${r}`)?.pageLoadId}`);
              want.push(`${site} r${r} first ${list?.find((l) => l.site === site)?.pageLoadId}`);
              for (const kind of kinds) {
                got.push(`${site} r${r} ${kind} ${o.ofKind(site, `r${r}`, kind)?.pageLoadId}`);
                want.push(
                  `${site} r${r} ${kind} ${list?.find((l) => l.site === site && l.kind === kind)?.pageLoadId}`,
                );
              }
            }
          expect(got, `seed ${seed}, step ${step}`).toEqual(want);
        }
      }
    }
  });

  it('lets a block go when its last origin is forgotten, and keeps reading the rows after it', () => {
    const o = new ResponseOrigins();
    for (let i = 0; i < 10_000; i++)
      o.note(page('a', `p${i}`), event(`r${i}`, 'search', `p${i}`, i));
    expect(o.forgetOldest(1_000)).toBe(9_000);
    expect(o.first('a', 'r8999')).toBeUndefined();
    expect(o.first('a', 'r9000')?.time).toBe(9000);
    expect(o.first('a', 'r9999')?.eventId).toBe('ev-p9999');
    // the held blocks: the first two (rows 0–8191) went with their last rows
    expect(
      (o as unknown as { blocks: unknown[] }).blocks.filter((b) => b !== undefined),
    ).toHaveLength(1);
    o.note(page('b', 'q'), event('r9000', 'search', 'q'));
    expect(o.first('b', 'r9000')?.pageLoadId).toBe('q');
  });

  it('gives back any responseId and eventId as they came: characters over 0xFF, lone surrogates, long ids', () => {
    const ids = [
      'r-plain',
      'r-caf\u00e9',
      'r-\u20ac-1',
      'r-\ud800-lone',
      'r-\ud83d\ude00',
      'x'.repeat(20_000),
    ];
    const o = new ResponseOrigins();
    for (const [n, id] of ids.entries())
      o.note(page('a', `p${n}`), { ...event(id, 'search', `p${n}`), id: `ev-${id}` });
    for (const [n, id] of ids.entries()) {
      const kept = o.first('a', id);
      expect(kept?.pageLoadId).toBe(`p${n}`);
      expect(kept?.eventId).toBe(`ev-${id}`);
    }
    // the bytes of a wide id read as characters are not that id; nor is its prefix, or it with a space
    expect(o.first('a', 'r\u0000-\u0000\u00ac -\u00001\u0000')).toBeUndefined();
    expect(o.first('a', 'r-caf')).toBeUndefined();
    expect(o.first('a', 'r-caf\u00e9 ')).toBeUndefined();
    // a block's bytes grow past what it began with (a long id each row)
    const many = new ResponseOrigins();
    for (let i = 0; i < 300; i++)
      many.note(page('a', `p${i}`), event(`${'y'.repeat(1_000)}-${i}`, 'search', `p${i}`));
    for (let i = 0; i < 300; i += 37)
      expect(many.first('a', `${'y'.repeat(1_000)}-${i}`)?.pageLoadId).toBe(`p${i}`);
  });

  it('tells apart responseIds of the same hash (long ids that differ only in their middle)', () => {
    // the hash reads a long id's first 16 and last 48 characters
    const id = (k: number) => `${'a'.repeat(20)}${k}${'b'.repeat(60)}`;
    expect(keyHash(id(1))).toBe(keyHash(id(2)));
    const o = new ResponseOrigins();
    for (let k = 0; k < 50; k++) o.note(page('a', `p${k}`), event(id(k), 'search', `p${k}`));
    expect(o.size).toBe(50);
    for (let k = 0; k < 50; k++) expect(o.first('a', id(k))?.pageLoadId).toBe(`p${k}`);
    expect(o.first('a', id(50))).toBeUndefined();
    expect(o.forgetOldest(10)).toBe(40);
    expect(o.first('a', id(39))).toBeUndefined();
    expect(o.first('a', id(40))?.pageLoadId).toBe('p40');
  });

  it('keeps no trace of the blocks it let go: a sandbox running all day looks through the held ones only', () => {
    const o = new ResponseOrigins();
    for (let i = 0; i < 100_000; i++) {
      o.note(page('a', `p${i}`), event(`r${i}`, 'search', `p${i}`, i));
      if (o.size > 2_000) o.forgetOldest(1_000);
    }
    const blocks = (o as unknown as { blocks: unknown[] }).blocks;
    expect(blocks.length).toBeLessThanOrEqual(2);
    expect(o.first('a', 'r99999')?.time).toBe(99_999);
    expect(o.first('a', 'r98000')).toBeUndefined();
  });
});
