// `sandbox.expectMatchesBaseline(name)`: the sandbox's recorded traffic against a baseline file, as
// `search-sandbox diff` compares them (src/main/baseline). A missing file is written, and the call fails unless
// updates are on (as Playwright's toMatchSnapshot does); an update rewrites it;
// otherwise a difference rejects with the text diff (which page, which event, which field, before and after).
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { RecordingBuilder, type Recording } from '../baseline/recording';
import { baselineText, parseBaseline } from '../baseline/baseline-file';
import { compareRecordings } from '../baseline/compare';
import { diffText } from '../baseline/format';
import { IgnoreUse, unusedIgnoreText } from '../baseline/ignore-use';
import { parseIgnorePath, type IgnorePath } from '../baseline/normalize';
import type { DiffResult } from '../../shared/baseline';
import { replaceOwnFile } from '../store/durable';
import type { BaselineOptions, BaselineResult, RecordedEvent } from './types.js';

/**
 * When a baseline is (re)written: Playwright's updateSnapshots values, as the fixture passes them. 'default'
 * (Playwright's without --update-snapshots, and the package's outside Playwright) writes a missing baseline
 * and fails, as Playwright's toMatchSnapshot does: a run on CI with the file not committed must not pass.
 */
export type BaselineUpdate = 'all' | 'changed' | 'missing' | 'none' | 'default';

export const DEFAULT_BASELINE_DIR = 'beacon-baselines';
const NAME = /^[\w.-]+(\/[\w.-]+)*$/;
const OPTION_KEYS = ['siteId', 'sessionId', 'dir', 'update', 'ignore'];
const IGNORE_EXAMPLE = "ignore: ['query.ts', 'data.results[].price']";

/**
 * A failed comparison: the message is the text diff; `comparison` the comparison as data. (Not `diff`: test
 * runners read an error's `diff` as their own expected/actual text and would print the object.)
 */
export class BaselineMismatchError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly comparison: DiffResult,
  ) {
    super(message);
    this.name = 'BaselineMismatchError';
  }
}

function checkArguments(name: unknown, options: unknown): asserts options is BaselineOptions {
  if (typeof name !== 'string' || !NAME.test(name) || name.split('/').some((p) => /^\.+$/.test(p)))
    throw new TypeError(
      `expectMatchesBaseline: name ${JSON.stringify(name)} must be a file name without .json (letters, digits, _ . -, folders with /), e.g. 'checkout-guest'`,
    );
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new TypeError(
      'expectMatchesBaseline: options must be an object, e.g. { siteId: "abc123" }',
    );
  const o = options as Record<string, unknown>;
  const unknown = Object.keys(o).find((k) => !OPTION_KEYS.includes(k));
  if (unknown)
    throw new TypeError(
      `expectMatchesBaseline: unknown option "${unknown}"; allowed: ${OPTION_KEYS.join(', ')}`,
    );
  for (const key of ['siteId', 'sessionId', 'dir'])
    if (o[key] !== undefined && (typeof o[key] !== 'string' || o[key] === ''))
      throw new TypeError(
        `expectMatchesBaseline: ${key} ${JSON.stringify(o[key])} must be a non-empty string`,
      );
  if (o.update !== undefined && typeof o.update !== 'boolean')
    throw new TypeError(
      `expectMatchesBaseline: update ${JSON.stringify(o.update)} must be true or false`,
    );
  ignorePaths(o.ignore);
}

/**
 * The `ignore` option's paths, as `search-sandbox diff --ignore` takes them (field paths, query.NAME), or a
 * TypeError naming the item, its value and the rule.
 */
function ignorePaths(given: unknown): IgnorePath[] {
  if (given === undefined) return [];
  if (!Array.isArray(given))
    throw new TypeError(
      `expectMatchesBaseline: ignore ${JSON.stringify(given) ?? String(given)} must be a list of paths (field paths or query.NAME for a URL parameter), e.g. ${IGNORE_EXAMPLE}`,
    );
  return given.map((text: unknown, i) => {
    if (typeof text !== 'string')
      throw new TypeError(
        `expectMatchesBaseline: ignore[${i}] ${JSON.stringify(text) ?? String(text)} must be a string: a field path or query.NAME for a URL parameter, e.g. ${IGNORE_EXAMPLE}`,
      );
    const path = parseIgnorePath(text, `ignore[${i}]`);
    if (typeof path === 'string') throw new TypeError(`expectMatchesBaseline: ${path}`);
    return path;
  });
}

async function readBaseline(
  file: string,
  ignore: readonly IgnorePath[],
  use: IgnoreUse,
): Promise<Recording | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`expectMatchesBaseline: cannot read ${file}: ${(err as Error).message}`);
  }
  const parsed = parseBaseline(text, file, ignore, use);
  if (typeof parsed === 'string')
    throw new Error(
      `expectMatchesBaseline: ${parsed}. Delete the file or run with update: true to write it again`,
    );
  return parsed;
}

/**
 * The paths the baseline was written without that this call compares: the file lacks them, so every run
 * differs there until the baseline is written again; said first, with both ways out.
 */
function droppedIgnores(base: Recording, options: BaselineOptions): string {
  const given = (options.ignore as string[] | undefined) ?? [];
  const dropped = (base.ignore ?? []).filter((p) => !given.includes(p));
  if (dropped.length === 0) return '';
  const list = JSON.stringify(dropped);
  return `The baseline was written with ignore ${list}, which this call does not give: the file lacks them, so a run that has them differs there. Give ignore: ${list} again to leave them out, or update the baseline to compare them.\n`;
}

function pageCount(recording: Recording): number {
  return recording.sessions.reduce((n, s) => n + s.pages.length, 0);
}

/**
 * The Playwright fixture's record of the baselines this test run wrote missing: a retry of the test that
 * wrote one fails as the first attempt did (Playwright does not retry a test whose snapshot it wrote), or a
 * CI run with retries would pass as flaky on the file it has not committed.
 */
export interface WrittenThisRun {
  add(file: string): void;
  /** written missing by an earlier attempt of this test (a retry) */
  earlier(file: string): boolean;
}

function missingWritten(name: string, file: string, pages: number, earlier: boolean): Error {
  return new Error(
    `expectMatchesBaseline("${name}"): no baseline ${file}: ${earlier ? "an earlier attempt of this test wrote this run's traffic to it" : "wrote this run's traffic to it"} (${pages} page${pages === 1 ? '' : 's'}); review it and commit it, and the next run compares with it. To write a missing baseline and pass: update: true, SEARCH_SANDBOX_UPDATE_BASELINES=1 or Playwright's --update-snapshots`,
  );
}

/**
 * Compare `events` (the sandbox's filtered traffic) with `<dir>/<name>.json`. `mode` says when the file is
 * written: 'default' when absent, and then fails; 'missing' only when absent, 'changed'/'all' also to
 * replace it, 'none' never.
 */
export async function matchBaseline(
  events: () => Promise<RecordedEvent[]>,
  name: string,
  options: BaselineOptions,
  mode: BaselineUpdate,
  writtenThisRun?: WrittenThisRun,
): Promise<BaselineResult> {
  checkArguments(name, options);
  const file = path.resolve(options.dir ?? DEFAULT_BASELINE_DIR, `${name}.json`);
  // the ignored paths are left out of both sides, and of a file written (what is left out is not compared)
  const ignore = ignorePaths(options.ignore);
  const use = new IgnoreUse(ignore, options.ignore ?? []);
  const builder = new RecordingBuilder(ignore, undefined, use);
  for (const event of await events()) builder.add(event);
  const current = builder.end();
  const pages = pageCount(current);
  const filter = JSON.stringify({ siteId: options.siteId, sessionId: options.sessionId });
  const base = await readBaseline(file, ignore, use);
  // an ignore path that left nothing out, most often a typo: said (with the nearest path that occurs) in
  // the result and the error, and on stderr; it does not fail a comparison that is otherwise the same
  const warnings = use
    .unused()
    .map(
      (u) =>
        `expectMatchesBaseline("${name}"): ${unusedIgnoreText(u, 'ignore', base ? "in the baseline or this run's traffic" : "in this run's traffic")}`,
    );
  for (const warning of warnings) console.warn(warning);
  const withWarnings = <T extends BaselineResult>(result: T): T =>
    warnings.length ? { ...result, warnings } : result;
  const warned = warnings.length ? `${warnings.join('\n')}\n` : '';
  const write = async (status: 'written' | 'updated'): Promise<BaselineResult> => {
    if (pages === 0)
      throw new Error(
        `expectMatchesBaseline("${name}"): no beacon events of pages recorded for ${filter}: nothing to write to ${file}; make the test browse the storefront first (and waitForEvents)`,
      );
    await mkdir(path.dirname(file), { recursive: true });
    // whole or not at all, and on disk before the test is told it was written
    await replaceOwnFile(
      file,
      baselineText(current, (options.ignore as string[] | undefined) ?? []),
    );
    const note = `${status === 'written' ? 'wrote the missing' : 'updated the'} baseline ${file} (${pages} page${pages === 1 ? '' : 's'}): review it and commit it`;
    return withWarnings({ status, file, pages, note });
  };
  if (base === null) {
    if (mode === 'none')
      throw new Error(
        `expectMatchesBaseline("${name}"): no baseline ${file}, and updates are off (updateSnapshots: 'none'): run once with --update-snapshots to write it`,
      );
    const written = await write('written');
    if (mode !== 'default') return written;
    writtenThisRun?.add(file);
    throw missingWritten(name, file, pages, false);
  }
  if (mode === 'default' && writtenThisRun?.earlier(file))
    throw missingWritten(name, file, pages, true);
  if (mode === 'all') return write('updated');
  const result = await compareRecordings(base, current);
  if (result.same) return withWarnings({ status: 'same', file, pages });
  if (mode === 'changed') return write('updated');
  const text = diffText(result, { base: file, current: `the sandbox's traffic ${filter}` });
  throw new BaselineMismatchError(
    `expectMatchesBaseline("${name}"): the tracking differs from the baseline\n${text}${warned}${droppedIgnores(base, options)}To accept this run as the new baseline: update: true, SEARCH_SANDBOX_UPDATE_BASELINES=1 or Playwright's --update-snapshots`,
    file,
    result,
  );
}
