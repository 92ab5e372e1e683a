// `search-sandbox diff BASE CURRENT`: two recordings of one journey compared (README, "Baselines").
// Exit 0 = the same tracking, 1 = differences, 2 = unreadable input or bad flags.
import { InputError } from '../recordings/recorded';
import { writeStdout } from '../base/stdout';
import { oneOf, parseFlags, usageFailure, type FlagValues } from '../base/flags';
import { compareRecordings } from './compare';
import { diffText } from './format';
import { parseIgnorePath, type IgnorePath } from './normalize';
import { readRecording } from './read';
import { IgnoreUse, unusedIgnoreText } from './ignore-use';
import { openRecording } from '../recordings/source';
import { withoutPages, type Recording } from './recording';

export const DIFF_USAGE =
  'usage: search-sandbox diff BASE CURRENT [--format text|json] [--ignore PATH]...';

export interface DiffIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

const processIo: DiffIo = { out: writeStdout, err: (t) => process.stderr.write(t) };

const HELP = `${DIFF_USAGE}
Compares two recordings of one journey (NDJSON of beacon events, a sandbox export, a HAR, or a
baseline file): sessions matched by their pages, pages by kind and URL path and query, events in
order with their data. Ids, timestamps and hosts are ignored; responseIds by their place, orderIds
by their form (WEB-847661 is WEB-{digits}); a URL parameter or path segment that is one of the
page's ids (/thanks?order=1001, /order-received/1001/) by its name. A response's impressions are
the items it impressed, however the requests split them. Recorded events are taken in the order the
sandbox received them (their seq), bare beacon bodies in their lines' order.
--ignore PATH (repeatable) leaves a field out: data.results[].price, context.pageUrl (pages then
match by kind and place), or query.NAME, a URL parameter such as a token or cache buster. A path that
matched nothing in either recording is said on stderr (with the nearest that occurs); the exit code
stays the comparison's. A baseline file given as BASE leaves out of CURRENT what it was written without.
Exit 0 = the same tracking, 1 = differences, 2 = unreadable input, a recording without one beacon
event of a page (its tracking never fired, or the recording left the beacons out), or bad flags.
`;

const FLAGS = {
  format: { type: 'string', empty: 'one of text, json (--format json)' },
  ignore: {
    type: 'string',
    multiple: true,
    empty: 'a field path or query.NAME (--ignore data.results[].price, --ignore query.token)',
  },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function runDiff(args: string[], io: DiffIo = processIo): Promise<number> {
  let values: FlagValues<typeof FLAGS>;
  let files: string[];
  let format: 'text' | 'json';
  try {
    ({ values, positionals: files } = parseFlags(args, FLAGS, true));
    if (values.help) {
      io.out(HELP);
      return 0;
    }
    format = oneOf('format', values.format, ['text', 'json'], 'text');
  } catch (err) {
    return usageFailure('diff', DIFF_USAGE, err, io.err);
  }
  const ignore: IgnorePath[] = [];
  for (const text of values.ignore ?? []) {
    const path = parseIgnorePath(text);
    if (typeof path === 'string') {
      io.err(`search-sandbox diff: ${path}\n`);
      return 2;
    }
    ignore.push(path);
  }
  if (files.length !== 2) {
    io.err(
      `search-sandbox diff: expected two recordings, BASE and CURRENT, got ${files.length}\n${DIFF_USAGE}\n`,
    );
    return 2;
  }
  if (files[0] === '-' && files[1] === '-') {
    io.err(
      `search-sandbox diff: standard input (-) is given twice: it can be read once; give one of BASE and CURRENT as a file\n`,
    );
    return 2;
  }
  const [baseFile, currentFile] = files as [string, string];
  const note = (text: string) => io.err(`search-sandbox diff: ${text}\n`);
  try {
    const { base, current, use } = await readBoth(
      baseFile,
      currentFile,
      ignore,
      values.ignore ?? [],
      note,
    );
    const empty = withoutPages({ BASE: [baseFile, base], CURRENT: [currentFile, current] });
    if (empty) {
      io.err(`search-sandbox diff: ${empty}\n`);
      return 2;
    }
    // said on stderr; the exit code stays the comparison's: a path may rightly match nothing in one pair
    // of recordings (a CI script's list for many journeys, one without a search page)
    for (const unused of use.unused())
      note(unusedIgnoreText(unused, '--ignore', 'in either recording'));
    const result = await compareRecordings(base, current);
    io.out(
      format === 'json'
        ? `${JSON.stringify(result)}\n`
        : diffText(result, { base: baseFile, current: currentFile }),
    );
    return result.same ? 0 : 1;
  } catch (err) {
    if (err instanceof InputError) {
      io.err(`search-sandbox diff: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

/**
 * BASE, then CURRENT, each compared text held once for both. A baseline file given as BASE left out what it
 * was written without: CURRENT leaves it out too (said on stderr); one given as CURRENT is read after BASE,
 * so stderr says which --ignore would compare them alike.
 */
async function readBoth(
  baseFile: string,
  currentFile: string,
  ignore: IgnorePath[],
  flags: readonly string[],
  note: (text: string) => void,
): Promise<{ base: Recording; current: Recording; use: IgnoreUse }> {
  const texts = new Map<string, string>();
  // only the paths given here are said when they match nothing (a baseline's own are added to `ignore`
  // below, past the flags' places)
  const use = new IgnoreUse(ignore, flags);
  const base = await readRecording(openRecording(baseFile), ignore, note, texts, use);
  const carried = (base.ignore ?? []).filter((p) => !flags.includes(p));
  for (const p of carried) ignore.push(parseIgnorePath(p) as IgnorePath);
  const ignores = (paths: string[]) => paths.map((p) => `ignore ${p}`).join(', ');
  if (carried.length > 0)
    note(
      `BASE (${baseFile}) was written with ${ignores(carried)}: left out of CURRENT too, as --ignore would`,
    );
  const current = await readRecording(openRecording(currentFile), ignore, note, texts, use);
  const uncarried = (current.ignore ?? []).filter(
    (p) => !flags.includes(p) && !carried.includes(p),
  );
  if (uncarried.length > 0)
    note(
      `CURRENT (${currentFile}) was written with ${ignores(uncarried)}, which BASE was read without: give ${uncarried.map((p) => `--ignore ${p}`).join(' ')} to compare them alike (or the baseline as BASE)`,
    );
  texts.clear();
  return { base, current, use };
}
