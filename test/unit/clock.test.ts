import { describe, expect, it, vi } from 'vitest';
import { SandboxClock } from '../../src/main/clock';

const T0 = Date.parse('2026-11-21T04:00:00Z');

describe('SandboxClock', () => {
  it('a frozen clock moves only when advanced or set', () => {
    const clock = new SandboxClock({ start: T0, frozen: true });
    expect(clock.now()).toBe(T0);
    clock.advance(61 * 60_000);
    expect(clock.now()).toBe(T0 + 61 * 60_000);
    clock.set(T0);
    expect(clock.now()).toBe(T0);
  });

  it('fires timers in time order when advanced past them, each at its own time', () => {
    const clock = new SandboxClock({ start: T0, frozen: true });
    const seen: Array<[string, number]> = [];
    clock.at(T0 + 2000, () => seen.push(['b', clock.now()]));
    clock.at(T0 + 1000, () => {
      seen.push(['a', clock.now()]);
      // scheduled inside the advanced window: must fire in the same advance
      clock.at(T0 + 1500, () => seen.push(['a2', clock.now()]));
    });
    clock.advance(5000);
    expect(seen).toEqual([
      ['a', T0 + 1000],
      ['a2', T0 + 1500],
      ['b', T0 + 2000],
    ]);
    expect(clock.now()).toBe(T0 + 5000);
  });

  it('cancelled timers never fire', () => {
    const clock = new SandboxClock({ start: T0, frozen: true });
    const fn = vi.fn();
    const cancel = clock.at(T0 + 10, fn);
    cancel();
    clock.advance(100);
    expect(fn).not.toHaveBeenCalled();
  });

  it('fires a timer already due on a microtask', async () => {
    const clock = new SandboxClock({ start: T0, frozen: true });
    const fired = new Promise<number>((resolve) => clock.at(T0 - 5, () => resolve(clock.now())));
    await expect(fired).resolves.toBe(T0);
  });

  it('an unfrozen clock follows real time plus its offset, and fires on real time', async () => {
    let real = T0;
    const clock = new SandboxClock({}, () => real);
    expect(clock.now()).toBe(T0);
    clock.advance(3_600_000);
    expect(clock.offset).toBe(3_600_000);
    real += 1000;
    expect(clock.now()).toBe(T0 + 3_601_000);
    clock.reset();
    expect(clock.now()).toBe(real);
    clock.dispose();
  });

  it('its offset from real time is 0 exactly at real time, and whole milliseconds once moved or frozen', () => {
    // real time read twice may straddle a millisecond: the offset is what the clock keeps, not a difference
    let real = T0;
    const clock = new SandboxClock({}, () => (real += 0.6));
    expect(clock.offset).toBe(0);
    expect(Object.is(clock.offset, 0)).toBe(true);
    clock.advance(61 * 60_000 + 0.4);
    expect(clock.offset).toBe(61 * 60_000);
    clock.reset();
    expect(clock.offset).toBe(0);
    // a frozen clock drifts from real time as real time moves on
    let now = T0;
    const frozen = new SandboxClock({ start: T0, frozen: true }, () => now);
    expect(frozen.offset).toBe(0);
    now += 90_000;
    expect(frozen.offset).toBe(-90_000);
    frozen.advance(3_600_000);
    expect(frozen.offset).toBe(3_600_000 - 90_000);
    clock.dispose();
    frozen.dispose();
  });

  it('refuses to advance by a negative or non-finite duration', () => {
    const clock = new SandboxClock({ start: T0, frozen: true });
    expect(() => clock.advance(-1)).toThrow(/>= 0/);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
  });

  it('tells listeners when time is moved', () => {
    const clock = new SandboxClock({ start: T0, frozen: true });
    const seen: number[] = [];
    clock.onChange((now) => seen.push(now));
    clock.advance(10);
    clock.set(T0 + 100);
    expect(seen).toEqual([T0 + 10, T0 + 100]);
  });

  it('advances a running clock exactly the duration asked, however long the move takes in real time', () => {
    let real = T0;
    // every reading of real time finds it a millisecond later, as a move that fires timers may
    const clock = new SandboxClock({}, () => real++);
    clock.at(T0 + 60_000, () => undefined);
    clock.advance(600_000);
    expect(clock.offset).toBe(600_000);
    clock.dispose();
  });
});
