// Pages go idle at their own deadline even when one queued before them is later (the sandbox clock set
// back, an import replaying older traffic): the queue is ordered by deadline, not by arrival.
import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../../src/main/clock';
import { IdleQueue } from '../../src/main/tracking/timeline/idle-queue';
import { turn } from '../../src/main/slices';
import type { Page } from '../../src/main/tracking/timeline/page';

const H = 3_600_000;
const page = (key: string) => ({ key }) as Page;

describe('idle queue', () => {
  it('hands over pages in deadline order, whatever the order they were queued in', async () => {
    const clock = new SandboxClock({ start: 0, frozen: true });
    const due: string[] = [];
    const queue = new IdleQueue(clock, (p) => due.push(p.key));
    // pages come due in slices that give the event loop back (how many depends on the machine's speed)
    const handed = async (count: number) => {
      while (due.length < count) await turn();
    };
    try {
      queue.push(page('late'), 10 * H);
      queue.push(page('early'), 1 * H);
      queue.push(page('middle'), 5 * H);
      queue.push(page('early-too'), 1 * H);
      clock.advance(2 * H);
      await handed(2);
      expect(due).toEqual(['early', 'early-too']);
      clock.advance(4 * H);
      await handed(3);
      expect(due).toEqual(['early', 'early-too', 'middle']);
      clock.advance(5 * H);
      await handed(4);
      expect(due).toEqual(['early', 'early-too', 'middle', 'late']);
      // many, in a shuffled order, come out sorted
      const ats = Array.from({ length: 500 }, (_, i) => ((i * 7919) % 500) + 12 * H);
      for (const at of ats) queue.push(page(String(at)), at);
      clock.advance(2 * H);
      await handed(4 + ats.length);
      expect(due.slice(4).map(Number)).toEqual([...ats].sort((a, b) => a - b));
    } finally {
      queue.dispose();
      clock.dispose();
    }
  });
});
