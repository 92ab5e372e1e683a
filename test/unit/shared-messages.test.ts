// A finding is its rule's message by id filled with its data, and the fix that goes with it
// (src/main/tracking/finding.ts), written when the finding is read. Long data values found word for word
// on many pages are kept as one string: which string object holds a value cannot be seen from JavaScript;
// what can: every finding keeps its values and reads as its words, past the pool's size too (it starts
// again).
import { describe, expect, it } from 'vitest';
import { fillTemplate, finding, findingDto } from '../../src/main/tracking/finding';

const meta = {
  id: 'dev-flag',
  defaultSeverity: 'info' as const,
  messages: {
    production: '{{count}} of the {{accepted}} events {{tail}}',
    other: 'no placeholder here',
  },
  fix: 'Set the mode.',
  fixes: { production: 'create the client with {{mode}}.' },
};

describe('finding', () => {
  it('fills the message and its fix from the data, for more distinct texts than it keeps', () => {
    // every finding's words, compared at once (one expect, not 40,000: ~12 µs a call)
    const got: unknown[] = [];
    const want: unknown[] = [];
    for (let round = 0; round < 2; round++)
      for (let i = 0; i < 5_000; i++) {
        const data = { count: i % 7, accepted: i, tail: 'were sent in production', mode: `m${i}` };
        const f = findingDto(finding(meta, '', { messageId: 'production', data }, ['e1']));
        got.push([f.message, f.fix, f.messageId, f.data]);
        want.push([
          `${i % 7} of the ${i} events were sent in production`,
          `create the client with m${i}.`,
          'production',
          data,
        ]);
      }
    expect(got).toEqual(want);
  });

  it('takes the rule’s fix for a message without one of its own', () => {
    const kept = finding(meta, 'k', { messageId: 'other' }, ['e2', 'e2']);
    // kept without its words, which are read in the place they always had among the fields
    expect(kept).not.toHaveProperty('message');
    const f = findingDto(kept);
    expect(Object.keys(f)).toEqual([
      'id',
      'rule',
      'severity',
      'messageId',
      'data',
      'message',
      'fix',
      'eventIds',
      'eventCount',
    ]);
    expect(f).toEqual({
      id: 'dev-flag:k',
      rule: 'dev-flag',
      severity: 'info',
      messageId: 'other',
      data: {},
      message: 'no placeholder here',
      fix: 'Set the mode.',
      eventIds: ['e2'],
      eventCount: 1,
    });
  });

  it('rejects a message the rule does not declare, and (under test) a placeholder without data', () => {
    expect(() => finding(meta, '', { messageId: 'nope' }, [])).toThrow(
      'rule dev-flag has no message "nope"',
    );
    expect(() =>
      finding(meta, '', { messageId: 'production', data: { count: 1, accepted: 2 } }, []),
    ).toThrow('no data for {{tail}}');
    // the fix's placeholders too
    expect(() =>
      finding(meta, '', { messageId: 'production', data: { count: 1, accepted: 2, tail: '' } }, []),
    ).toThrow('no data for {{mode}}');
    expect(fillTemplate('{{ a }} and {{b}}', { a: 1, b: 'two' }, () => 'here')).toBe('1 and two');
  });
});
