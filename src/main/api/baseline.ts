// `sandbox.expectMatchesBaseline(name)`: the sandbox's recorded traffic against a baseline file, as
// `search-sandbox diff` compares them (src/main/baseline). A missing file is written; an update rewrites it;
// otherwise a difference rejects with the text diff (which page, which event, which field, before and after).
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { RecordingBuilder, type Recording } from '../baseline/recording';
import { baselineText, parseBaseline } from '../baseline/baseline-file';
import { compareRecordings } from '../baseline/compare';
import { diffText } from '../baseline/format';
import type { DiffResult } from '../../shared/baseline';
import { replaceOwnFile } from '../store/durable';
import type { BaselineOptions, BaselineResult, RecordedEvent } from './types.js';

/** When a baseline is (re)written: Playwright's updateSnapshots values, as the fixture passes them. */
export type BaselineUpdate = 'all' | 'changed' | 'missing' | 'none';

export const DEFAULT_BASELINE_DIR = 'beacon-baselines';
const NAME = /^[\w.-]+(\/[\w.-]+)*$/;
const OPTION_KEYS = ['siteId', 'sessionId', 'dir', 'update'];

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
}

async function readBaseline(file: string): Promise<Recording | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`expectMatchesBaseline: cannot read ${file}: ${(err as Error).message}`);
  }
  const parsed = parseBaseline(text, file);
  if (typeof parsed === 'string')
    throw new Error(
      `expectMatchesBaseline: ${parsed}. Delete the file or run with update: true to write it again`,
    );
  return parsed;
}

function pageCount(recording: Recording): number {
  return recording.sessions.reduce((n, s) => n + s.pages.length, 0);
}

/**
 * Compare `events` (the sandbox's filtered traffic) with `<dir>/<name>.json`. `mode` says when the file is
 * written: 'missing' (the default) only when absent, 'changed'/'all' also to replace it, 'none' never.
 */
export async function matchBaseline(
  events: () => Promise<RecordedEvent[]>,
  name: string,
  options: BaselineOptions,
  mode: BaselineUpdate,
): Promise<BaselineResult> {
  checkArguments(name, options);
  const file = path.resolve(options.dir ?? DEFAULT_BASELINE_DIR, `${name}.json`);
  const builder = new RecordingBuilder();
  for (const event of await events()) builder.add(event);
  const current = builder.end();
  const pages = pageCount(current);
  const filter = JSON.stringify({ siteId: options.siteId, sessionId: options.sessionId });
  const base = await readBaseline(file);
  const write = async (status: 'written' | 'updated'): Promise<BaselineResult> => {
    if (pages === 0)
      throw new Error(
        `expectMatchesBaseline("${name}"): no beacon events of pages recorded for ${filter}: nothing to write to ${file}; make the test browse the storefront first (and waitForEvents)`,
      );
    await mkdir(path.dirname(file), { recursive: true });
    // whole or not at all, and on disk before the test is told it was written
    await replaceOwnFile(file, baselineText(current));
    const note = `${status === 'written' ? 'wrote the missing' : 'updated the'} baseline ${file} (${pages} page${pages === 1 ? '' : 's'}): review it and commit it`;
    return { status, file, pages, note };
  };
  if (base === null) {
    if (mode === 'none')
      throw new Error(
        `expectMatchesBaseline("${name}"): no baseline ${file}, and updates are off (updateSnapshots: 'none'): run once with --update-snapshots to write it`,
      );
    return write('written');
  }
  if (mode === 'all') return write('updated');
  const result = await compareRecordings(base, current);
  if (result.same) return { status: 'same', file, pages };
  if (mode === 'changed') return write('updated');
  const text = diffText(result, { base: file, current: `the sandbox's traffic ${filter}` });
  throw new BaselineMismatchError(
    `expectMatchesBaseline("${name}"): the tracking differs from the baseline\n${text}To accept this run as the new baseline: update: true, SEARCH_SANDBOX_UPDATE_BASELINES=1 or Playwright's --update-snapshots`,
    file,
    result,
  );
}
