import { describe, expect, it } from 'vitest';
import { documentPieces, JsonPieces } from '../../src/main/store/json-pieces';

const joined = (value: unknown) => [...documentPieces(value)].join('');

describe('a JSON document written in pieces', () => {
  it('is JSON.stringify of the value when nothing in it is streamed', () => {
    const value = { a: 1, b: ['x', { c: null }], d: 'a\u0000b:0"', e: { f: true } };
    expect([...documentPieces(value)]).toEqual([JSON.stringify(value)]);
  });

  it('writes each streamed part from its pieces, where it stands, with texts that look like its mark around', () => {
    const list = (n: number) =>
      new JsonPieces(function* () {
        yield '[';
        for (let i = 0; i < n; i++) yield `${i ? ',' : ''}{"i":${i}}`;
        yield ']';
      });
    const value = {
      head: 'h',
      search: { responses: [], catalogs: list(3), sites: [{ s: '\u0000x:0' }] },
      more: [list(0), 'tail'],
    };
    const same = {
      head: 'h',
      search: {
        responses: [],
        catalogs: [{ i: 0 }, { i: 1 }, { i: 2 }],
        sites: [{ s: '\u0000x:0' }],
      },
      more: [[], 'tail'],
    };
    expect(joined(value)).toBe(JSON.stringify(same));
  });

  it('makes a streamed part only when the writer reaches it', () => {
    let made = 0;
    const late = new JsonPieces(function* () {
      made++;
      yield '1';
    });
    const pieces = documentPieces({ a: 'x', b: late });
    expect(pieces.next().value).toBe('{"a":"x","b":');
    expect(made).toBe(0);
    expect(pieces.next().value).toBe('1');
    expect(made).toBe(1);
    expect([...pieces].join('')).toBe('}');
  });
});
