// `search-sandbox --help` lists each command with the flags that command's own usage names: the two are
// written apart (the commands load only when run), and the help had lost `check --catalog`.
import { describe, expect, it } from 'vitest';
import { SERVE_USAGE, USAGE } from '../../src/main/cli/commands';
import { CHECK_USAGE } from '../../src/main/check/cli';
import { DIFF_USAGE } from '../../src/main/baseline/cli';
import { TAIL_USAGE } from '../../src/main/cli/tail';

/** the flags a usage line names, as `--name` */
const flagsOf = (usage: string) => [...new Set(usage.match(/--[a-z][a-z-]*/g) ?? [])];

describe('--help', () => {
  it.each([
    ['serve', SERVE_USAGE],
    ['check', CHECK_USAGE],
    ['diff', DIFF_USAGE],
    ['tail', TAIL_USAGE],
  ])('names every flag of %s', (command, usage) => {
    const flags = flagsOf(usage);
    expect(flags.length).toBeGreaterThan(0);
    // the help's lines of that command (check has two entries): those from its first entry to the first
    // entry of another command
    const lines = USAGE.split('\n');
    const commandOf = (line: string) => /^ {2}search-sandbox \[?([a-z-]+)/.exec(line)?.[1];
    const from = lines.findIndex((l) => commandOf(l) === command);
    expect(from, command).toBeGreaterThan(0);
    const to = lines.findIndex((l, i) => i > from && ![undefined, command].includes(commandOf(l)));
    const section = lines.slice(from, to === -1 ? undefined : to).join('\n');
    for (const flag of flags) expect(section, `${command} ${flag}`).toContain(flag);
  });
});

describe('an unknown command', () => {
  it('names the command it is near', async () => {
    const { main } = await import('../../src/main/cli/commands');
    await expect(main(['chek', 'x.ndjson'])).rejects.toThrow(
      /^unknown command "chek": did you mean check\? use "serve", "check", "diff" or "tail"/,
    );
    await expect(main(['lint'])).rejects.toThrow(/^unknown command "lint": use "serve"/);
  });
});
