// The UI's text and event-type filters are asked of the server again as pages change (server-matches.ts:
// at least a second apart, and ten times what the last answer took).
import { describe, expect, it } from 'vitest';
import { askAgainIn } from '../../src/shared/pace';

const uiWait = (since: number, took: number) => askAgainIn(since, took, 1000, 10);

describe('askAgainIn', () => {
  it('asks again a second after the last ask when answers are quick', () => {
    expect(uiWait(0, 5)).toBe(1000);
    expect(uiWait(400, 5)).toBe(600);
    expect(uiWait(1000, 100)).toBe(0);
    expect(uiWait(5000, 5)).toBe(0);
  });

  it('waits ten times a slow answer: a 300 ms scan is asked every 3 s', () => {
    expect(uiWait(0, 300)).toBe(3000);
    expect(uiWait(1000, 300)).toBe(2000);
    expect(uiWait(3000, 300)).toBe(0);
    expect(uiWait(1000, 101)).toBe(10);
  });
});
