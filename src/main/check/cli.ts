// `search-sandbox check FILE...`: the timeline rules, offline, over recorded traffic, streamed (pages are
// judged and written as they settle; a million events fit). Exit 0 = no page at or above the --fail-on
// severity, 1 = such pages, 2 = unreadable input, input without a beacon event, or bad flags.
import path from 'node:path';
import { InputError } from '../recordings/recorded';
import { writeStdout } from '../base/stdout';
import { oneOf, parseFlags, usageFailure, UsageError } from '../base/flags';
import { readInput } from '../recordings/read';
import { openRecording } from '../recordings/source';
import { reportWriter, type ReportWriter } from './report-writer';
import { catalogFlag, readCatalogs } from './catalog-flag';
import { OfflineJudge } from '../tracking/timeline/offline-check';
import { pageVerdictDto } from '../tracking/timeline/dto';
import { StringPool } from '../store/shared-strings';
import { FAIL_ON, fails, type FailOn } from '../tracking/timeline/report';
import { loadConfigFile, type SandboxAccount } from '../config';
import { BEHAVIOURS } from '../tracking/client-model';
import { readinessSiteOf } from '../tracking/timeline/readiness-config';
import { expectProblem } from '../../shared/readiness';
import {
  OfflineReadiness,
  readinessText,
  ungatedLine,
  type UngatedPages,
} from './readiness-output';
import { ConfigError } from '../config-error';
import { RULE_IDS } from '../tracking/timeline/rule-list';
import {
  configLevels,
  layered,
  mapLevels,
  ruleEntryProblem,
  type LevelSource,
} from '../../shared/rule-levels';
import type {
  PageTimelineDto,
  PageVerdictDto,
  RuleLevel,
  RulesConfig,
} from '../../shared/timeline';
import type { RecordedEvent } from '../../shared/events';
import { unjudgedNote } from '../tracking/timeline/unjudged';

export const CHECK_USAGE =
  'usage: search-sandbox check FILE... [--format text|json|junit] [--fail-on error|warning|info] [--rule RULE=LEVEL]... [--config FILE] [--catalog SITE=FILE]... [--readiness [--expect ID|AREA]...]';

export interface CheckIo {
  out: (text: string) => void;
  /**
   * the report's spooled pages as bytes (UTF-8), when the output takes them; else they go to `out` as text.
   * true = done with `bytes` when it returns (the same buffer is then read into again)
   */
  outBytes?: (bytes: Uint8Array) => boolean | void;
  err: (text: string) => void;
  /** report time; the CLI passes the wall clock */
  now: () => number;
}

const processIo: CheckIo = {
  // once the reader went away (`check … | head`), the rest of the report is not written; the input is still
  // judged, for the exit code
  out: writeStdout,
  outBytes: writeStdout,
  err: (t) => process.stderr.write(t),
  now: () => Date.now(),
};

const HELP = `${CHECK_USAGE}\nReads NDJSON of beacon events (bodies or recorded events), a sandbox export or a browser HAR\n(FILE - is standard input; NDJSON is read as a stream, from a file or a pipe),\nand checks them with the timeline rules, recorded events in the order the sandbox received them (their\nseq, restored within 10,000 events), bare bodies in their lines' order.\nExit 0 = no page with a finding at or above --fail-on (error, the default, warning or info),\n1 = such pages, 2 = unreadable input, input without one beacon event, or bad flags.\n--rule RULE=LEVEL (repeatable, each rule once) sets a rule's severity: off, info, warning or error,\nas the config file's "rules" does; --config FILE reads "rules" and "accounts[].rules" from a sandbox\nconfig file, checked as serve checks it (--rule wins).\n--catalog SITE=FILE (repeatable) reads a site's product feed (CSV, TSV, ndJSON or XML, raw, gzip or\nzip, as indexing takes it) and checks that site's events against it, as the running sandbox checks\nthem against its index.\n--readiness reports, per site, each behaviour of the provider's client as ok, with findings, unseen\nor not applicable (text or json) instead of the pages; an ok that no rule could check on this input\n(it lacked the companion search's responses, a --catalog, …) says so (unverified) and what would check\nit. Exit 1 when a behaviour or area named by --expect (repeatable; default: the site's\naccounts[].readiness.expect in --config) is unseen or has findings at or above --fail-on, or a behaviour\nnamed by id is ok but unverified; a site of --config that expects something is reported (and fails)\neven when the recording holds nothing of it. That exit code is readiness's alone: the pages are not\ngated, and the report's last line (json: "pages", and a line on stderr) says how many have findings\nat or above --fail-on, with the command that gates them.\n`;

const FLAGS = {
  format: { type: 'string', empty: 'one of text, json, junit (--format junit)' },
  'fail-on': { type: 'string', empty: 'one of error, warning, info (--fail-on warning)' },
  rule: {
    type: 'string',
    multiple: true,
    empty: `RULE=LEVEL, LEVEL one of off, info, warning, error (--rule ${RULE_IDS[0]}=off)`,
  },
  config: { type: 'string', empty: 'a config file (--config search-sandbox.config.json)' },
  catalog: {
    type: 'string',
    multiple: true,
    empty: "SITE=FILE, a site's product feed (--catalog demo42=products.csv)",
  },
  readiness: { type: 'boolean' },
  expect: {
    type: 'string',
    multiple: true,
    empty: 'a behaviour id or area of the client model (--expect search)',
  },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A flag, a file named by one or a combination of flags that cannot be used: exit 2 with its message. */
class BadFlags extends Error {}

/** What the flags ask for, checked. */
interface CheckOptions {
  files: string[];
  format: 'text' | 'json' | 'junit';
  failOn: FailOn;
  levels: LevelSource | undefined;
  /** `--readiness`: each site's readiness instead of the pages */
  readiness: OfflineReadiness | undefined;
  /** `--catalog SITE=FILE`: the feeds to check sites' events against */
  catalogs: Array<{ siteId: string; file: string }>;
  /** with `--readiness`: the command that reports and gates the pages instead (the same, without it) */
  gatedBy: string;
}

export async function runCheck(args: string[], io: CheckIo = processIo): Promise<number> {
  let options: CheckOptions | 'help';
  try {
    options = checkOptions(args);
  } catch (err) {
    if (err instanceof UsageError) return usageFailure('check', CHECK_USAGE, err, io.err);
    if (!(err instanceof BadFlags || err instanceof InputError || err instanceof ConfigError))
      throw err;
    io.err(`search-sandbox check: ${err.message}\n`);
    return 2;
  }
  if (options === 'help') {
    io.out(HELP);
    return 0;
  }
  return checkFiles(options, io);
}

/** The flags and files, checked in the order a user reads them; BadFlags (or the config's error) when not usable. */
function checkOptions(args: string[]): CheckOptions | 'help' {
  const { values, positionals: files } = parseFlags(args, FLAGS, true);
  if (values.help) return 'help';
  const format = oneOf('format', values.format, ['text', 'json', 'junit'], 'text');
  const failOn = oneOf(
    'fail-on',
    values['fail-on'],
    FAIL_ON,
    'error',
    'use --fail-on warning to fail on warnings too',
  );
  // the config file checked as serve checks it: a key serve refuses (`rulez`) is not silently passed over
  const config = values.config === undefined ? undefined : loadConfigFile(values.config);
  const levels = layered(
    ruleFlags(values.rule ?? []),
    config ? configLevels(config.rules, config.accounts, values.config) : undefined,
  );
  if (values.readiness && format === 'junit')
    throw new BadFlags('--readiness writes text or json, not junit');
  if (!values.readiness && values.expect)
    throw new BadFlags(`--expect needs --readiness\n${CHECK_USAGE}`);
  const readiness = values.readiness
    ? offlineReadiness(values.expect ?? [], failOn, config?.accounts ?? [])
    : undefined;
  const catalogs = (values.catalog ?? []).map(catalogFlag);
  // the config turns a site's catalog check off, the flag gives it a catalog to check against: say which
  for (const { siteId } of catalogs) {
    const i = config?.accounts.findIndex((a) => a.siteId === siteId) ?? -1;
    if (i >= 0 && config!.accounts[i]!.search.catalogCheck === false)
      throw new BadFlags(
        `--catalog ${siteId}=… checks site ${siteId}'s product ids against a catalog, but ${values.config} turns that check off for it (accounts[${i}].search.catalogCheck: false): drop one of the two`,
      );
  }
  if (files.length === 0) throw new BadFlags(`no input file given\n${CHECK_USAGE}`);
  if (files.filter((f) => f === '-').length > 1)
    throw new BadFlags(
      'standard input (-) is given more than once: it can be read once; give it once, the other recordings as files',
    );
  return { files, format, failOn, levels, readiness, catalogs, gatedBy: pagesCommand(args) };
}

/**
 * The command line that reports and gates the pages of what `check … --readiness` read: the same
 * arguments without --readiness and its --expect, quoted for a POSIX shell where they need it.
 */
function pagesCommand(args: readonly string[]): string {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      kept.push(...args.slice(i));
      break;
    }
    if (a === '--readiness' || a.startsWith('--expect=')) continue;
    if (a === '--expect') i++;
    else kept.push(a);
  }
  return ['search-sandbox', 'check', ...kept].map(shellWord).join(' ');
}

/** An argument as a POSIX shell reads it back: as it is when plain, else in single quotes. */
function shellWord(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`;
}

/** Judge the files' events in order, writing each page (or noting it for readiness) as it settles. */
async function checkFiles(options: CheckOptions, io: CheckIo): Promise<number> {
  const { files, format, failOn, levels, readiness, catalogs } = options;
  const now = io.now();
  let feeds: Awaited<ReturnType<typeof readCatalogs>>;
  try {
    feeds = await readCatalogs(catalogs, now);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    io.err(`search-sandbox check: ${err.message}\n`);
    return 2;
  }
  const run = <P extends PageVerdictDto>(
    judge: OfflineJudge<P>,
    pages: { page: (page: P) => void },
    done: () => number,
    dispose: () => void = () => {},
  ): Promise<number> => {
    if (feeds.size > 0) judge.setCatalogs(feeds);
    return judgeFiles(files, judge, pages, io, done).finally(dispose);
  };
  if (readiness) return checkReadiness(readiness, options, now, io, run);
  const o = {
    out: io.out,
    ...(io.outBytes && { outBytes: io.outBytes }),
    source: files.join(', '),
    now,
    failOn,
  };
  const written = <P extends PageVerdictDto>(judge: OfflineJudge<P>, report: ReportWriter<P>) =>
    run(
      judge,
      report,
      () => {
        // the rules that could not judge the input, once (--readiness says it in its unverified rows)
        for (const u of judge.unjudged()) io.err(`search-sandbox check: ${unjudgedNote(u)}\n`);
        report.end();
        return report.failed ? 1 : 0;
      },
      () => report.dispose(),
    );
  if (format === 'json') {
    const judge = new OfflineJudge(now, levels);
    return written(judge, reportWriter({ ...o, format, unjudged: () => judge.unjudged() }));
  }
  // text and JUnit write each page's verdict: no page's events are made for them (JUnit's case names are
  // read from the page as it is handed over: its writer's pageOf)
  const report = reportWriter({ ...o, format });
  return written(
    new OfflineJudge(now, levels, undefined, { pages: report.pageOf ?? pageVerdictDto }),
    report,
  );
}

/** How `checkFiles` runs a judge over the files, handing each page over as it settles. */
type RunJudge = <P extends PageVerdictDto>(
  judge: OfflineJudge<P>,
  pages: { page: (page: P) => void },
  done: () => number,
) => Promise<number>;

/**
 * `--readiness`: each site's readiness, and its gate for the exit code. The pages are judged as the page
 * report judges them: how many have findings at or above --fail-on, which this exit code does not gate, is
 * said with the command that does (text: the report's last line; json: `pages`, and a line on stderr).
 */
function checkReadiness(
  readiness: OfflineReadiness,
  { format, failOn, levels, gatedBy }: CheckOptions,
  now: number,
  io: CheckIo,
  run: RunJudge,
): Promise<number> {
  // readiness reads the events each page was sent, and the clicks that credit orders
  const judge = new OfflineJudge(now, levels, undefined, { credit: true });
  const counted: UngatedPages = { checked: 0, failing: 0, failOn, gatedBy };
  const pages = {
    page: (p: PageTimelineDto) => {
      counted.checked++;
      if (fails(p, failOn)) counted.failing++;
      // what an export says each response served: the behaviours only that shows read as live reads them
      readiness.page(p, judge.served(p.siteId), judge.asked(p.siteId));
    },
  };
  return run(judge, pages, () => {
    const sites = readiness.result(
      (siteId) => judge.creditedOrders(siteId),
      (siteId) => judge.inputs(siteId),
      judge.recordedSites(),
    );
    const ready = sites.every((s) => s.gaps.length === 0);
    if (format === 'json') {
      io.out(`${JSON.stringify({ ready, pages: counted, sites }, null, 2)}\n`);
      if (counted.failing > 0) io.err(`search-sandbox check: ${ungatedLine(counted)}\n`);
    } else
      io.out(
        `${readinessText(sites, (siteId) => readiness.expectedBy(siteId))}${ungatedLine(counted)}\n`,
      );
    return ready ? 0 : 1;
  });
}

/** Every file read into the judge, each page handed over as it settles; `done` when the input ended. */
async function judgeFiles<P extends PageVerdictDto>(
  files: string[],
  judge: OfflineJudge<P>,
  pages: { page: (page: P) => void },
  io: CheckIo,
  done: () => number,
): Promise<number> {
  try {
    const read = fileReader(files, judge, pages, io);
    const nothingJudged: string[] = [];
    for (const file of files) if ((await read(file)) === 0) nothingJudged.push(file);
    // a recording in which the storefront's tracking never fired (the tracker not loaded, beacons sent to
    // another host and not captured) has no page to fail: exit 0 would pass the broken integration, so it
    // is input with nothing to check, as a linter's pattern that matches no file is
    if (nothingJudged.length === files.length) throw new InputError(nothingToCheck(files));
    // one file of several without events: the others are checked, and this one is named
    for (const file of nothingJudged)
      io.err(`search-sandbox check: ${file}: no beacon v2 event found\n`);
    for (const page of judge.end()) pages.page(page);
    for (const note of judge.notes()) io.err(`search-sandbox check: ${note}\n`);
    if (read.skipped() > 0)
      io.err(
        `search-sandbox check: ${read.skipped()} ${read.skipped() === 1 ? 'event was' : 'events were'} read twice (the same recorded event in more than one place of the input, e.g. overlapping exports, or a file given twice) and checked once\n`,
      );
    return done();
  } catch (err) {
    if (err instanceof InputError) {
      io.err(`search-sandbox check: ${err.message}\n`);
      return 2;
    }
    throw err;
  } finally {
    judge.dispose();
  }
}

/**
 * Why an input without one beacon event is refused, and what to record instead. Any beacon v2 event counts
 * (an order alone is checked): the message says so, not a list of page kinds it does not require.
 */
function nothingToCheck(files: string[]): string {
  const which = files.length === 1 ? `${files[0]} has no` : `none of ${files.join(', ')} has a`;
  return `${which} beacon v2 event (of any kind: a search, a product view, a cart, an order, …): nothing to check. Record the storefront with its tracking on: a HAR of the browser's requests to …/beacon/v2/…, NDJSON of beacon bodies or recorded events, or a sandbox export (GET /_sandbox/export)`;
}

/**
 * Reads one file after another into the judge, through the recordings reader; each read says how much of
 * it the rules judge (events and issued responses).
 */
function fileReader<P extends PageVerdictDto>(
  files: string[],
  judge: OfflineJudge<P>,
  pages: { page: (page: P) => void },
  io: CheckIo,
): { (file: string): Promise<number>; skipped: () => number } {
  const counter = { seq: 0 };
  const names = new Set(files.map((f) => path.basename(f)));
  // strings that repeat from event to event (a page's URL and ids, its responseId, an item's long ids)
  // become one string, as the live store keeps them: read from a file, every event has its own copies, and
  // a page holds its events until it is judged
  const strings = new StringPool();
  // a recorded event read again, from an overlapping export or a file given twice, is the same event:
  // judged once, not as a repeat of itself. Two sandboxes' recordings reuse ids (ev_000001) and may share a
  // time, so the page, the endpoint and the client's timestamp are part of what makes it the same. Bodies
  // without a record of their own (no receivedAt) get ids of their line and file, which never meet twice.
  const seen = new Set<string>();
  let skipped = 0;
  const read = async (file: string): Promise<number> => {
    // ids generated for lines/entries carry the file name when several files are checked together
    const prefix =
      files.length > 1 ? `${names.size === files.length ? path.basename(file) : file}:` : '';
    // what the rules can judge: its events, and the search responses an export says the sandbox issued (a
    // response asked for and never rendered is a finding with no beacon at all)
    let judged = 0;
    for await (const items of readInput(openRecording(file), prefix, counter))
      for (const item of items) {
        if ('event' in item) {
          if (item.event.receivedAt !== '') {
            const key = sameEventKey(item.event);
            if (seen.has(key)) {
              // read, though not judged again: a file of repeats is not a file without events
              skipped++;
              judged++;
              continue;
            }
            seen.add(key);
          }
          judged++;
          strings.shareRead(item.event);
          for (const page of judge.apply(item.event)) pages.page(page);
        } else if ('responses' in item) {
          judged += item.responses.length;
          judge.addRecorded(item.responses, item.sites, item.catalogs, item.rememberedSince);
          if (item.asked) judge.addAsked(item.asked);
        } else io.err(`search-sandbox check: ${item.note}\n`);
      }
    return judged;
  };
  return Object.assign(read, { skipped: () => skipped });
}

/**
 * `--readiness`: --expect checked against the client model; the sites' widgets and expect from --config, and
 * for a site it does not name, the widgets and expect an export recorded.
 */
function offlineReadiness(
  expect: readonly string[],
  failOn: FailOn,
  accounts: readonly SandboxAccount[],
): OfflineReadiness {
  const ids = BEHAVIOURS.map((b) => b.id);
  for (const entry of expect) {
    const problem = expectProblem(entry, ids);
    if (problem) throw new InputError(`--expect ${entry}: ${problem}`);
  }
  return new OfflineReadiness(
    (siteId, recorded) =>
      readinessSiteOf(
        siteId,
        accounts.find((a) => a.siteId === siteId),
        recorded,
      ),
    expect,
    failOn,
    // a site the config expects something of is held to it even when it sent nothing
    accounts.filter((a) => a.readiness.expect.length > 0).map((a) => a.siteId),
  );
}

/** `--rule no-impression=off --rule timestamp-skew=error`: one map, said to come from --rule. */
function ruleFlags(flags: readonly string[]): LevelSource | undefined {
  if (flags.length === 0) return undefined;
  const rules: RulesConfig = {};
  for (const flag of flags) {
    const at = flag.indexOf('=');
    if (at < 1)
      throw new InputError(
        `--rule "${flag}" must be RULE=LEVEL, e.g. --rule ${RULE_IDS[0]}=off (levels: off, info, warning, error)`,
      );
    const rule = flag.slice(0, at);
    const level = flag.slice(at + 1);
    const problem = ruleEntryProblem(rule, level, RULE_IDS);
    if (problem) throw new InputError(`--rule ${flag}: ${problem}`);
    // as a single-value flag given twice is refused: keeping the last would run with a level the user may
    // not have meant (a script's default and an override, in either order)
    const first = rules[rule];
    if (first !== undefined)
      throw new InputError(
        first === level
          ? `--rule ${flag} is given twice: give each rule once`
          : `--rule ${rule} is given twice, as ${first} and as ${level}: give each rule once, with the level you mean`,
      );
    rules[rule] = level as RuleLevel;
  }
  return mapLevels(rules, '--rule');
}

/** What makes two recorded events one: id, receipt, site, endpoint, page and the client's timestamp. */
function sameEventKey(event: RecordedEvent): string {
  const body = event.body as { context?: { pageLoadId?: unknown; timestamp?: unknown } } | null;
  const context = typeof body === 'object' && body !== null ? body.context : undefined;
  return [
    event.id,
    event.receivedAt,
    event.siteId,
    event.category,
    event.event,
    String(context?.pageLoadId ?? ''),
    String(context?.timestamp ?? ''),
  ].join('\u0000');
}
