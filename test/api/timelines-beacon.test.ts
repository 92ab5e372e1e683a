// The provider's client end to end: what @athoscommerce/beacon puts on the wire during a visit (captured
// under fake timers, so its debounce and batching run exactly) is sent to a real sandbox in the same order,
// as text/plain. Every request is accepted and every page's timeline passes.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TimelineListDto } from '../../src/shared/timeline';
import { startSandbox } from '../helpers/sandbox';
import { capturingFetch, shopperVisit, type Captured } from '../unit/timeline-beacon';

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.useRealTimers();
  while (stops.length) await stops.pop()!();
});

describe('@athoscommerce/beacon against a sandbox', () => {
  for (const mode of ['development', 'production'] as const) {
    it(`a ${mode}-mode visit is accepted and every page passes`, async () => {
      const captured: Captured[] = [];
      vi.useFakeTimers({ now: Date.now(), toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      await shopperVisit(
        capturingFetch(captured),
        async (ms) => {
          await vi.advanceTimersByTimeAsync(ms);
        },
        { mode },
      );
      vi.useRealTimers();

      const sandbox = await startSandbox();
      stops.push(() => sandbox.close());
      const beacons = captured.filter((c) => c.url.includes('/beacon/v2/'));
      for (const c of beacons) {
        const res = await fetch(`${sandbox.url}/beacon/v2/${c.url.split('/beacon/v2/')[1]}`, {
          method: 'POST',
          headers: c.headers,
          body: c.body,
        });
        expect(res.status, `${c.url} ${c.body}`).toBe(200);
      }
      const list = (await (
        await fetch(`${sandbox.url}/_sandbox/timelines`)
      ).json()) as TimelineListDto;
      expect(list.total).toBe(2);
      expect(list.verdicts).toEqual({ pass: 2, warn: 0, fail: 0 });
      for (const page of list.pages) {
        const expected = mode === 'production' ? ['dev-flag/info'] : [];
        expect(
          page.findings.map((f) => `${f.rule}/${f.severity}`),
          page.pageUrl,
        ).toEqual(expected);
      }
      expect(list.pages.reduce((n, p) => n + p.counts.events, 0)).toBe(beacons.length);
    });
  }
});
