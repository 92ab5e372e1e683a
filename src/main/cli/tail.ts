// `search-sandbox tail [--url URL] [--site S] [--findings] [--json]`: a running sandbox's beacons as they
// arrive, one line each, coloured by verdict (accepted green, rejected red); with --findings, the newest
// pages as they stand when it starts, then every page whose verdict or findings change. Reads only the
// public admin API: the NDJSON follow stream of events (GET /_sandbox/events?follow=1), the pages'
// summaries and the SSE timeline and reset messages.
import { sandboxOrigin } from '../../shared/sandbox-url';
import { fetchFailureCause, fetchFailureReason } from '../../shared/fetch-failure';
import { parseFlags, usageFailure, UsageError, wholeNumber, type FlagValues } from '../base/flags';
import { SITE_ID_PATTERN } from '../../shared/site-id';
import type { RecordedEvent } from '../../shared/events';
import { clockMovedNote } from '../../shared/clock-offset';
import type { PageTimelineSummaryDto, Verdict } from '../../shared/timeline';
import { MAX_TIMELINE_LIMIT } from '../../shared/admin-api';
import { AdminApiClient, type AdminCall } from '../../shared/admin-client';
import { terminalSafe } from '../tracking/timeline/report';
import type { ResetScope, StreamMessage } from '../../shared/stream';

export const TAIL_USAGE =
  'usage: search-sandbox tail [--url URL] [--site SITEID] [--findings] [--json] [--backlog N]';

export interface TailIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** colours on (a terminal without NO_COLOR) */
  color: boolean;
  /** ends the stream (Ctrl-C); the CLI wires SIGINT to it */
  signal?: AbortSignal;
}

const COLORS = { green: 32, red: 31, yellow: 33, dim: 2 } as const;

function paint(io: TailIo, color: keyof typeof COLORS, text: string): string {
  return io.color ? `\u001b[${COLORS[color]}m${text}\u001b[0m` : text;
}

const VERDICT_COLOR: Record<Verdict, keyof typeof COLORS> = {
  pass: 'green',
  warn: 'yellow',
  fail: 'red',
};

/** One event as a line: time, verdict, status, site, endpoint, page, responseId, the first problem. */
function eventLine(e: RecordedEvent, io: TailIo): string {
  const body = (typeof e.body === 'object' && e.body !== null ? e.body : {}) as {
    context?: { pageLoadId?: unknown };
    data?: { responseId?: unknown };
  };
  const page = typeof body.context?.pageLoadId === 'string' ? body.context.pageLoadId : '-';
  const responseId = typeof body.data?.responseId === 'string' ? body.data.responseId : '';
  // sandbox time; received while the clock was moved, the line says by how much
  const moved = clockMovedNote(e.clockOffsetMs);
  const time = `${e.receivedAt.slice(11, 23)}${moved ? ` (${moved})` : ''}`;
  const verdict = e.accepted ? 'OK ' : 'BAD';
  const problem = e.accepted ? '' : `  ${e.errors[0]?.message ?? ''}`;
  const line = terminalSafe(
    `${time}  ${verdict} ${e.status}  ${e.siteId || '(no site)'}  ${e.category}/${e.event}  page ${page}${responseId ? `  responseId ${responseId}` : ''}${problem}`,
  );
  return `${paint(io, e.accepted ? 'green' : 'red', line)}\n`;
}

/** A page whose verdict or findings changed; with --json, `{"page": …}` (its summary as the admin API gives it). */
function pageLine(p: PageTimelineSummaryDto, io: TailIo, json: boolean): string {
  if (json) return `${JSON.stringify({ page: p })}\n`;
  const rules = p.rules.length ? `: ${p.rules.join(', ')}` : '';
  const line = terminalSafe(
    `${(p.lastSeen ?? '').slice(11, 23).padEnd(12)}  ${p.verdict.toUpperCase()} page ${p.pageLoadId || '(no pageLoadId)'}  ${p.siteId}  ${p.pageUrl || '(no pageUrl)'}${rules}`,
  );
  return `${paint(io, VERDICT_COLOR[p.verdict], line)}\n`;
}

/** Lines of a streamed body, as they arrive. */
async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    rest += decoder.decode(chunk, { stream: true });
    let at: number;
    while ((at = rest.indexOf('\n')) >= 0) {
      yield rest.slice(0, at);
      rest = rest.slice(at + 1);
    }
  }
  if (rest) yield rest;
}

/** The admin API through the one admin client; a sandbox that cannot be reached throws as fetch did. */
function adminOf(base: string): AdminApiClient {
  return new AdminApiClient(base, {
    fail: (f) => (f.cause instanceof Error ? f.cause : new Error(`${base}${f.path}: ${f.status}`)),
  });
}

/** A streamed answer of `events` (follow) or `stream`, opened; a refusal throws with its message. */
async function open(
  admin: AdminApiClient,
  name: 'events' | 'stream',
  call: AdminCall<'events' | 'stream', unknown>,
): Promise<Response> {
  const res = await admin.send(name, call as AdminCall<typeof name, never>);
  const url = `${admin.base}${admin.path(name, call)}`;
  if (!res.ok || !res.body) {
    const text = await res.text().catch(() => '');
    let message: unknown;
    try {
      message = (JSON.parse(text) as { message?: unknown }).message;
    } catch {
      // not JSON: not a sandbox's refusal (below)
    }
    // a sandbox refuses with JSON that says why; any other answer (a web server's 404 page) is not its own
    if (typeof message !== 'string')
      throw new Error(
        `${url} answered ${res.status}, but not as a search-sandbox does (${res.headers.get('content-type')?.split(';')[0] || 'no Content-Type'}, no JSON refusal): is a sandbox listening at that address? Give its address with --url`,
      );
    throw new Error(`${url} answered ${res.status}: ${message}`);
  }
  return res;
}

const FLAGS = {
  url: { type: 'string', empty: "the sandbox's address (--url http://127.0.0.1:4545)" },
  site: { type: 'string', empty: 'a siteId (--site demo42)' },
  findings: { type: 'boolean' },
  json: { type: 'boolean' },
  backlog: {
    type: 'string',
    count: true,
    empty: 'a number of events or pages (--backlog 10; 0 for none)',
  },
  help: { type: 'boolean', short: 'h' },
} as const;

const HELP = `${TAIL_USAGE}
Prints a running sandbox's beacons as they arrive, one line each (accepted green, rejected red).
--url (default $SEARCH_SANDBOX_URL or http://127.0.0.1:4545), --site keeps one siteId, --backlog N
prints the N newest first (default 10), --findings adds the N newest pages' verdicts and a line whenever
a page's verdict or findings change (again for a page sent again after a reset), --json prints NDJSON
instead: each recorded event as the admin API gives it, {"reset": …} when events were reset, and with
--findings {"page": …} for each page line (siteId, pageLoadId, pageUrl, verdict, rules, …). Ctrl-C ends
it. Exit 1 when the sandbox goes away while it follows it, 2 when none answers at --url or a flag is wrong.
`;

/** The sandbox's origin from --url, else $SEARCH_SANDBOX_URL, else the default; what is wrong with it. */
function sandboxAddress(flag: string | undefined): { origin: string } | { problem: string } {
  if (flag === undefined && process.env.SEARCH_SANDBOX_URL === '')
    return {
      problem:
        "environment: SEARCH_SANDBOX_URL is set but empty: set it to the sandbox's address (http://127.0.0.1:4545), unset it, or pass --url",
    };
  const address = sandboxOrigin(flag ?? process.env.SEARCH_SANDBOX_URL ?? 'http://127.0.0.1:4545');
  if (!('problem' in address)) return address;
  return {
    problem: `${flag === undefined ? 'environment: SEARCH_SANDBOX_URL' : '--url'} ${address.problem}`,
  };
}

export async function runTail(args: string[], io: TailIo): Promise<number> {
  let values: FlagValues<typeof FLAGS>;
  let backlog: number;
  try {
    ({ values } = parseFlags(args, FLAGS, false));
    if (values.help) {
      io.out(HELP);
      return 0;
    }
    backlog = wholeNumber('backlog', values.backlog, 10);
    // a siteId as a beacon's path has it: another is a typo no event matches, said before connecting
    if (values.site !== undefined && !SITE_ID_PATTERN.test(values.site))
      throw new UsageError(
        `--site ${JSON.stringify(values.site)} is not a siteId (six lowercase letters or digits, e.g. demo42): give the site whose beacons to show, or leave --site out for every site`,
      );
  } catch (err) {
    return usageFailure('tail', TAIL_USAGE, err, io.err);
  }
  const address = sandboxAddress(values.url);
  if ('problem' in address) {
    io.err(`search-sandbox tail: ${address.problem}\n`);
    return 2;
  }
  const base = address.origin;
  const stop = new AbortController();
  io.signal?.addEventListener('abort', () => stop.abort(), { once: true });
  const admin = adminOf(base);
  // set once the sandbox answered: a connection lost after it is the sandbox going away, not an address
  // that is wrong
  let following = false;
  try {
    const events = await open(admin, 'events', {
      query: {
        follow: true,
        limit: backlog,
        ...(values.site !== undefined && { siteId: values.site }),
      },
      signal: stop.signal,
    });
    following = true;
    const pages = values.findings
      ? followPages(base, values.site, backlog, io, stop.signal, values.json === true)
      : null;
    for await (const line of lines(events.body!)) {
      if (line.trim() === '') continue;
      const item = JSON.parse(line) as RecordedEvent | { reset: { what: string; siteId?: string } };
      if ('reset' in item) {
        if (values.json) io.out(`${line}\n`);
        else
          io.out(
            paint(
              io,
              'dim',
              `-- reset: ${item.reset.what}${item.reset.siteId ? ` of ${item.reset.siteId}` : ''}\n`,
            ),
          );
      } else io.out(values.json ? `${line}\n` : eventLine(item, io));
    }
    stop.abort();
    await pages;
    io.err(`search-sandbox tail: the sandbox at ${base} closed the stream (stopped?)\n`);
    return 1;
  } catch (err) {
    if (stop.signal.aborted) return 0;
    // the connection failed after the sandbox answered (undici says why in the error's cause)
    if (following && fetchFailureCause(err) !== undefined) {
      stop.abort();
      io.err(
        `search-sandbox tail: lost the sandbox at ${base} (${fetchFailureReason(err)}): it stopped or restarted; run tail again once it is back\n`,
      );
      return 1;
    }
    // a server that answers but is no sandbox (another app on the port): its answer is no NDJSON
    if (err instanceof SyntaxError) {
      io.err(
        `search-sandbox tail: ${base} answered, but not as a search-sandbox does (its /_sandbox/events is not NDJSON): is a sandbox listening at that address? Give its address with --url\n`,
      );
      return 2;
    }
    const why = fetchFailureCause(err);
    const cause = why?.code ?? why?.message;
    io.err(
      cause
        ? `search-sandbox tail: cannot reach ${base} (${cause}): start one with "npx search-sandbox serve", or give its address with --url\n`
        : `search-sandbox tail: ${(err as Error).message}\n`,
    );
    return 2;
  }
}

/** The newest `limit` pages as they stand now, oldest first (the list judges each as it reads it). */
async function newestPages(
  base: string,
  site: string | undefined,
  limit: number,
): Promise<PageTimelineSummaryDto[]> {
  const list = await adminOf(base).call('timelines', {
    query: {
      view: 'summary',
      limit: Math.min(limit, MAX_TIMELINE_LIMIT),
      ...(site !== undefined && { siteId: site }),
    },
  });
  return list.pages;
}

/**
 * The pages' lines printed so far, by site and pageLoadId: a page is printed when its verdict or rules
 * differ from its last line. A reset forgets the pages it reset, as the sandbox did: a page that comes
 * back after it (a test run again with the same pageLoadIds and findings) is printed again, not taken
 * for the page already shown.
 */
class PageLines {
  private readonly seen = new Map<string, string>();

  constructor(
    private readonly site: string | undefined,
    private readonly print: (page: PageTimelineSummaryDto) => void,
  ) {}

  show(page: PageTimelineSummaryDto): void {
    if (this.site !== undefined && page.siteId !== this.site) return;
    const key = `${page.siteId}\u0000${page.pageLoadId}`;
    const state = `${page.verdict} ${page.rules.join(',')}`;
    if (this.seen.get(key) === state) return;
    this.seen.set(key, state);
    this.print(page);
  }

  forget(scope: ResetScope): void {
    const prefix = scope.siteId === undefined ? '' : `${scope.siteId}\u0000`;
    for (const key of this.seen.keys()) if (key.startsWith(prefix)) this.seen.delete(key);
  }
}

/**
 * With --backlog N, the N newest pages as they stand when it connects; then SSE `timeline` messages: a
 * line whenever a page's verdict or rules change. Resets are read from the same stream, not from the
 * events stream: one stream keeps them in order with the pages' changes, so a page judged after a reset
 * is never taken for one printed before it.
 */
async function followPages(
  base: string,
  site: string | undefined,
  backlog: number,
  io: TailIo,
  signal: AbortSignal,
  json: boolean,
): Promise<void> {
  const pages = new PageLines(site, (page) => io.out(pageLine(page, io, json)));
  try {
    const query = { types: 'timeline,reset' };
    const res = await open(adminOf(base), 'stream', { query, signal });
    // subscribed first, so no change falls between: then where the newest pages stand now (a page
    // judged while nobody listened, its no-impression decided, sends no change of its own)
    if (backlog > 0) for (const page of await newestPages(base, site, backlog)) pages.show(page);
    for await (const message of sseMessages(res.body!)) {
      if (message.type === 'reset') pages.forget(message.data);
      else if (message.type === 'timeline') pages.show(message.data);
    }
  } catch {
    // the events stream reports why the sandbox went away
  }
}

/** The `data:` of each SSE frame, as the `{type, data}` envelope it carries. */
async function* sseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamMessage> {
  let data = '';
  for await (const line of lines(body)) {
    if (line.startsWith('data:')) data += line.slice(5).trimStart();
    else if (line === '' && data) {
      yield JSON.parse(data) as StreamMessage;
      data = '';
    }
  }
}
