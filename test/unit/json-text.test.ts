// topLevelMember: one member of a JSON text read without parsing the rest (a bulky rejected body's context).
import { describe, expect, it } from 'vitest';
import { topLevelMember } from '../../src/main/tracking/json-text';

describe('topLevelMember', () => {
  it('finds the member at the top level only, whatever its value and whatever strings hold', () => {
    expect(topLevelMember('{"context":{"a":[1,{"b":"}"}]},"data":{}}', 'context')).toEqual({
      a: [1, { b: '}' }],
    });
    expect(topLevelMember(' {"data":{"context":1},"context":[1,2]}', 'context')).toEqual([1, 2]);
    expect(topLevelMember('{"x":"context","context":"s\\"x"}', 'context')).toBe('s"x');
    expect(topLevelMember('{"context" : 5 }', 'context')).toBe(5);
    const bulky = `{"context":{"pageLoadId":"p"},"data":{"results":[${'{},'.repeat(100_000)}{}]}}`;
    expect(topLevelMember(bulky, 'context')).toEqual({ pageLoadId: 'p' });
  });

  it('is undefined for no object, no member, a broken or an oversized member', () => {
    expect(topLevelMember('[{"context":1}]', 'context')).toBeUndefined();
    expect(topLevelMember('{"a":1}', 'context')).toBeUndefined();
    expect(topLevelMember('{"context":{"a":1}', 'context')).toBeUndefined();
    expect(topLevelMember('{"context":{"a":tru}}', 'context')).toBeUndefined();
    expect(topLevelMember(`{"context":"${'x'.repeat(70_000)}"}`, 'context')).toBeUndefined();
  });
});
