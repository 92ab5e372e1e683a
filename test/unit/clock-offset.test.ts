// The recorded clock offset (RecordedEvent.clockOffsetMs): which values are one, the skew timestamp-skew
// measures with it, and the few characters that say how far the clock was moved.
import { describe, expect, it } from 'vitest';
import {
  clockMove,
  clockMovedNote,
  clockOffsetProblem,
  MAX_CLOCK_OFFSET_MS,
  timestampDifferenceMs,
  timestampSkewMs,
} from '../../src/shared/clock-offset';

describe('clockOffsetProblem', () => {
  it('takes whole milliseconds either way, up to 100 years', () => {
    for (const v of [0, 1, -1, 3_660_000, -86_400_000, MAX_CLOCK_OFFSET_MS, -MAX_CLOCK_OFFSET_MS])
      expect(clockOffsetProblem(v), String(v)).toBeNull();
  });

  it('names the field, the value and the rule for anything else', () => {
    expect(clockOffsetProblem('1h')).toBe(
      `field clockOffsetMs is "1h": it must be a whole number of milliseconds, the sandbox clock's time minus real time when the event was received (e.g. 3660000 after the clock was advanced PT61M), at most 100 years either way; an event received while the clock ran at real time has none`,
    );
    expect(clockOffsetProblem(12.5)).toMatch(/^field clockOffsetMs is 12\.5: it must be/);
    expect(clockOffsetProblem(null)).toMatch(/^field clockOffsetMs is null: /);
    expect(clockOffsetProblem(MAX_CLOCK_OFFSET_MS + 1)).toMatch(/is 3162240000001: /);
    expect(clockOffsetProblem({ h: 1 })).toMatch(/is \{"h":1\}: /);
    expect(clockOffsetProblem('x'.repeat(100))).toMatch(/is "x{39}…: /);
  });
});

describe('timestampSkewMs', () => {
  const H = 3_600_000;
  it('without an offset: the distance from the receive time', () => {
    expect(timestampSkewMs(10 * H, 9 * H)).toBe(H);
    expect(timestampSkewMs(9 * H, 10 * H)).toBe(H);
  });

  it('with one: the nearer of the sandbox and the real receive time', () => {
    // received at sandbox 10:00 with the clock 1 h ahead (real 09:00)
    expect(timestampSkewMs(10 * H, 9 * H, H)).toBe(0); // a browser's clock: real time
    expect(timestampSkewMs(10 * H, 10 * H, H)).toBe(0); // a page given the sandbox clock
    expect(timestampSkewMs(10 * H, 7 * H, H)).toBe(2 * H); // 2 h behind real time
    expect(timestampSkewMs(10 * H, 11 * H, -H)).toBe(0); // the clock set back an hour
  });

  it('signed, as the inspector shows it: positive when sent before it arrived, from the nearer receipt', () => {
    expect(timestampDifferenceMs(10 * H, 9 * H)).toBe(H);
    expect(timestampDifferenceMs(9 * H, 10 * H)).toBe(-H);
    // clock 1 h ahead: a timestamp 2 h behind real time is 2 h before the real receipt, not 3 h
    expect(timestampDifferenceMs(10 * H, 7 * H, H)).toBe(2 * H);
    // a timestamp 30 min ahead of the real receipt, 30 min behind the sandbox's: the sandbox's is taken on a tie
    expect(timestampDifferenceMs(10 * H, 9.5 * H, H)).toBe(0.5 * H);
    expect(timestampDifferenceMs(10 * H, 8.75 * H, H)).toBe(0.25 * H);
  });
});

describe('clockMove', () => {
  it('says an offset signed, in the words of the UI’s clock', () => {
    expect(clockMove(3_660_000)).toBe('+1 h 01 min');
    expect(clockMove(3_659_999)).toBe('+1 h 01 min');
    expect(clockMove(2 * 3_600_000)).toBe('+2 h');
    expect(clockMove(-86_400_000)).toBe('−1 d');
    expect(clockMove(3 * 86_400_000 + 4 * 3_600_000)).toBe('+3 d 4 h');
    expect(clockMove(65_000)).toBe('+1 min 05 s');
    expect(clockMove(-45_000)).toBe('−45 s');
    expect(clockMove(250)).toBe('+250 ms');
    expect(clockMovedNote(3_660_000)).toBe('clock moved +1 h 01 min');
    expect(clockMovedNote(undefined)).toBe('');
    expect(clockMovedNote(0)).toBe('');
  });
});
