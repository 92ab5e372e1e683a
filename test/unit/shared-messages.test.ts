// Finding messages found word for word on many pages are kept as one string (src/main/tracking/finding.ts). Which string object holds a value cannot be seen from JavaScript; what can: every message
// keeps its text, past the pool's size too (it starts again), and findings built from rules read the same.
import { describe, expect, it } from 'vitest';
import { sharedMessage } from '../../src/main/tracking/finding';
import { finding } from '../../src/main/tracking/timeline/rules/types';

describe('sharedMessage', () => {
  it('gives back the text it was given, for repeated and for more distinct messages than it keeps', () => {
    for (let round = 0; round < 2; round++)
      for (let i = 0; i < 10_000; i++) {
        const text = `${i % 7} of the ${i} accepted events on this page were sent in production mode.`;
        expect(sharedMessage(text)).toBe(text);
        // the same words built another way (a flat copy, not a concatenation) read the same
        expect(sharedMessage(Buffer.from(text).toString())).toBe(text);
      }
  });

  it('leaves findings as their rules wrote them', () => {
    const a = finding(
      { id: 'dev-flag', defaultSeverity: 'info' },
      '',
      `10 of the 10 events ${'x'.repeat(300)}`,
      ['e1', 'e1'],
    );
    const b = finding(
      { id: 'dev-flag', defaultSeverity: 'info' },
      'k',
      `10 of the 10 events ${'x'.repeat(300)}`,
      ['e2'],
    );
    expect(a.message).toBe(b.message);
    expect(a).toEqual({
      id: 'dev-flag',
      rule: 'dev-flag',
      severity: 'info',
      message: `10 of the 10 events ${'x'.repeat(300)}`,
      eventIds: ['e1'],
      eventCount: 1,
    });
    expect(b.id).toBe('dev-flag:k');
  });
});
