import { describe, expect, it } from 'vitest';
import { oneOf, parseFlags, UsageError, wholeNumber } from '../../src/main/base/flags';

const FLAGS = {
  format: { type: 'string' },
  rule: { type: 'string', multiple: true },
  json: { type: 'boolean' },
} as const;

function problem(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('no UsageError');
}

describe('command-line flags', () => {
  it('reads flags, repeated flags and positionals', () => {
    expect(
      parseFlags(
        ['a.ndjson', '--format', 'json', '--rule', 'x=off', '--rule', 'y=info'],
        FLAGS,
        true,
      ),
    ).toEqual({ values: { format: 'json', rule: ['x=off', 'y=info'] }, positionals: ['a.ndjson'] });
  });

  it('names an unknown flag and the flags the command takes', () => {
    expect(problem(() => parseFlags(['--colour'], FLAGS, true))).toBe(
      'unknown flag --colour: the flags are --format, --rule, --json',
    );
    // a mistyped one: the flag it is near first
    expect(problem(() => parseFlags(['--formt', 'json'], FLAGS, true))).toBe(
      'unknown flag --formt: did you mean --format? the flags are --format, --rule, --json',
    );
  });

  it('refuses a flag without its value, and arguments where only flags are taken', () => {
    expect(problem(() => parseFlags(['--format'], FLAGS, true))).toBe(
      '--format needs a value: give a value (--format VALUE)',
    );
    expect(problem(() => parseFlags(['--format', '--json'], FLAGS, true))).toBe(
      '--format needs a value, but "--json" follows it, which reads as a flag: give a value (--format VALUE)',
    );
    expect(problem(() => parseFlags(['--json=yes'], FLAGS, true))).toBe(
      '--json takes no value: write --json alone',
    );
    expect(problem(() => parseFlags(['extra'], FLAGS, false))).toBe(
      "Unexpected argument 'extra': only flags are taken (--format, --rule, --json)",
    );
  });

  it('refuses an empty value, naming the flag and what to give', () => {
    expect(problem(() => parseFlags(['--format', ''], FLAGS, true))).toBe(
      '--format is empty: give it a value (--format VALUE), or leave the flag out',
    );
    expect(problem(() => parseFlags(['--rule=x=off', '--rule='], FLAGS, true))).toMatch(
      /^--rule is empty/,
    );
    const withHint = { data: { type: 'string', empty: 'a directory (--data DIR)' } } as const;
    expect(problem(() => parseFlags(['--data='], withHint, false))).toBe(
      '--data is empty: give a directory (--data DIR), or leave the flag out',
    );
  });

  it('checks a value against its choices, or as a count', () => {
    expect(oneOf('format', undefined, ['text', 'json'], 'text')).toBe('text');
    expect(oneOf('format', 'json', ['text', 'json'], 'text')).toBe('json');
    expect(problem(() => oneOf('format', 'xml', ['text', 'json'], 'text'))).toBe(
      '--format "xml" is not one of text, json',
    );
    expect(wholeNumber('backlog', '25', 10)).toBe(25);
    expect(wholeNumber('backlog', undefined, 10)).toBe(10);
    expect(problem(() => wholeNumber('backlog', '-1', 10))).toBe(
      '--backlog "-1" must be a whole number (0 for none)',
    );
    // a negative count given apart from its flag reads as a flag to Node's parser: said as the value it is,
    // with no advice to write it after "=" (which would only be refused next); a string flag keeps that advice
    const counts = {
      backlog: { type: 'string', count: true, empty: 'a number of pages (--backlog 10)' },
      url: { type: 'string', empty: 'an address (--url URL)' },
    } as const;
    expect(problem(() => parseFlags(['--backlog', '-1'], counts, false))).toBe(
      '--backlog "-1" must be a whole number, 0 or more: give a number of pages (--backlog 10)',
    );
    expect(problem(() => parseFlags(['--url', '-x'], counts, false))).toBe(
      '--url needs a value, but "-x" follows it, which reads as a flag: give an address (--url URL); a value that starts with a dash goes after "=", --url=-x',
    );
  });
});
