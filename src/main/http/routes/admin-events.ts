// Admin API over recorded events: query, one event, long-poll wait, reset, SSE stream, export and import.
// Every bad query parameter gets a 400 that names it, its value and what is allowed.
import { Router, type Request, type Response } from 'express';
import type { ResetScope } from '../../../shared/stream';
import type { Bus } from '../../bus';
import type { Clock } from '../../clock';
import type { EventQuery, EventStore } from '../../store/types';
import type { ExportSection } from '../../store/export-format';
import { SseHub, type SseOptions } from '../sse';
import { BadQuery as BadParameter, mount, type Bounds } from '../admin-query';
import { parseAdminBody } from '../admin-body';
import type { QueryOf } from '../../../shared/admin-api';
import { streamBody } from '../stream-body';
import {
  readImportBody,
  readImportBodyHere,
  type CheckedImport,
  type ImportRead,
} from '../../store/import-body';
import { importEvents } from '../../store/import-events';
import { exportBody, listEvents, waitForEvents } from '../../store/event-reads';
import { matches } from '../../store/event-index';

export const DEFAULT_LIMIT = 1000;
/** events a follow stream starts with, unless `limit` says otherwise */
export const FOLLOW_BACKLOG = 10;
export const DEFAULT_WAIT_MS = 10_000;
/** a long-poll longer than this ties up a socket for nothing; the cap is reported in the answer */
export const MAX_WAIT_MS = 120_000;

/** the largest import body read */
const IMPORT_LIMIT_BYTES = 250 * 1024 * 1024;

export interface AdminEventsOptions {
  sse?: SseOptions;
  /** an existing hub (tests observe its clients); default: one made from `sse` */
  hub?: SseHub;
}

/** What the events API uses of the sandbox: the event store, the bus, the clock, reset and export. */
export interface EventsArea {
  readonly events: EventStore;
  readonly bus: Bus;
  readonly clock: Clock;
  readonly version: string;
  readonly config: { retention: { events: number } };
  reset(scope: ResetScope, importId?: string): Promise<void>;
  exportSections(): ReadonlyMap<string, ExportSection>;
}

export function adminEventsRouter(core: EventsArea, options: AdminEventsOptions = {}): Router {
  const router = Router();
  const hub = options.hub ?? new SseHub(core.bus, options.sse);
  const maxLimit = Math.max(100_000, core.config.retention.events);
  // `limit` (and `count`) of events reach up to what the sandbox retains
  const bounds = (): Bounds => ({ maximum: { limit: maxLimit, count: maxLimit } });

  mount(
    router,
    'events',
    async (_req, res, parsed) => {
      const { follow, ...q } = eventQuery(parsed);
      if (follow) return followEvents(core, res, q);
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      await streamBody(res, listEvents(core.events, q, q.limit ?? DEFAULT_LIMIT));
    },
    { bounds },
  );

  mount(router, 'event', (req, res) => {
    const event = core.events.get(String(req.params.id));
    if (event) return void res.json(event);
    res.status(404).json({
      error: 'NotFound',
      message: `no event ${req.params.id}: it was never recorded, or was reset or dropped by retention (the newest ${core.config.retention.events} are kept)`,
    });
  });

  mount(
    router,
    'wait',
    async (_req, res, parsed) => {
      const { count = 1, timeout: asked = DEFAULT_WAIT_MS, ...q } = eventQuery(parsed);
      const timeoutMs = Math.min(asked, MAX_WAIT_MS);
      const capped = asked > MAX_WAIT_MS && {
        note: `timeout capped at ${MAX_WAIT_MS} ms (asked ${asked}); call again to keep waiting`,
      };
      const gone = new AbortController();
      res.on('close', () => gone.abort());
      const limit = q.limit ?? Math.max(count, DEFAULT_LIMIT);
      const waited = await waitForEvents(
        core.events,
        { ...q, limit },
        count,
        timeoutMs,
        gone.signal,
      );
      if (gone.signal.aborted && !res.writable) return;
      const { done, events, matched } = waited;
      const answer = { count: events.length, timeoutMs, ...capped, events };
      if (done) return void res.json({ done, ...answer });
      res.status(408).json({
        done,
        error: 'Timeout',
        message: `${matched} of ${count} matching events were recorded within ${timeoutMs} ms`,
        ...answer,
      });
    },
    { bounds },
  );

  mount(router, 'reset', async (req, res, { siteId }) => {
    const scope = parseReset(req, siteId);
    await core.reset(scope);
    res.json({ reset: scope, retained: core.events.size() });
  });

  mount(router, 'stream', hub.handle);

  mount(
    router,
    'export',
    async (_req, res, parsed) => {
      const { fileName, pieces } = exportBody(core.events, {
        query: eventQuery(parsed),
        sections: core.exportSections(),
        sandboxVersion: core.version,
        now: core.clock.now(),
      });
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
      await streamBody(res, pieces);
    },
    { bounds },
  );

  mount(
    router,
    'import',
    async (req, res, { replace = false }) => {
      const body = await importBodyOf(req);
      if ('tooLarge' in body) return importTooLarge(req, res);
      const outcome = await importEvents(
        {
          events: core.events,
          sections: core.exportSections(),
          reset: (scope, importId) => core.reset(scope, importId),
        },
        body,
        replace,
      );
      if (!outcome.ok) {
        const { message, problems } = outcome;
        return void res.status(400).json({ error: 'InvalidImport', message, problems });
      }
      const { ok: _ok, ...answer } = outcome;
      res.json(answer);
    },
    // streamed into a worker, up to IMPORT_LIMIT_BYTES, depth checked per event (export-format.ts)
    { body: 'own' },
  );

  return router;
}

/**
 * An import's body, read as it arrives (a large body streams into a worker); one an earlier parser already
 * read (an app embedding the router behind express.json) is read back from there.
 */
async function importBodyOf(
  req: Request,
): Promise<ImportRead | { checked: CheckedImport } | { tooLarge: true }> {
  if (Number(req.headers['content-length']) > IMPORT_LIMIT_BYTES) return { tooLarge: true };
  if (req.body === undefined) return readImportBody(req, IMPORT_LIMIT_BYTES);
  if (Buffer.isBuffer(req.body)) return readImportBody(req.body);
  return readImportBodyHere(JSON.stringify(req.body));
}

/** The 413 of an import body over the cap: the rest is not read; answered, then the connection closes. */
function importTooLarge(req: Request, res: Response): void {
  res.setHeader('Connection', 'close');
  req.resume();
  res.status(413).json({
    error: 'BadRequest',
    message: `request entity too large: an import body may have at most ${IMPORT_LIMIT_BYTES / 1024 / 1024} MB; nothing was imported (split the events into several imports)`,
  });
}

/**
 * `GET /_sandbox/events?follow=1`: NDJSON, one recorded event a line: the newest matching ones (`limit`,
 * default 10, 0 for none), then each new matching event as it is recorded, until the client goes. A
 * reset says so in a line of its own (`{"reset":{"what":"events"}}`); a comment-free blank line every
 * 15 s keeps idle proxies from closing the stream.
 */
async function followEvents(core: EventsArea, res: Response, q: EventQuery): Promise<void> {
  const { limit = FOLLOW_BACKLOG, ...filters } = q;
  res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.flushHeaders();
  const backlog = limit > 0 ? core.events.query({ ...filters, limit }) : [];
  // the backlog and the subscription happen in one turn: no event can fall between them
  let lastSeq = backlog.at(-1)?.seq ?? 0;
  for (const e of backlog) res.write(`${JSON.stringify(e)}\n`);
  const stopAppend = core.events.onAppend((event) => {
    if (event.seq <= lastSeq || !matches(event, filters)) return;
    lastSeq = event.seq;
    res.write(`${JSON.stringify(event)}\n`);
  });
  const stopBus = core.bus.on((m) => {
    if (m.type === 'reset') res.write(`${JSON.stringify({ reset: m.data })}\n`);
  });
  const keepAlive = setInterval(() => res.write('\n'), 15_000);
  await new Promise<void>((resolve) => res.on('close', resolve));
  clearInterval(keepAlive);
  stopAppend();
  stopBus();
}

/** The event filters of an events, wait or export request (parsed by the declaration); kind is a category. */
function eventQuery(
  parsed: QueryOf<'wait'> | QueryOf<'events'> | QueryOf<'export'>,
): EventQuery & { count?: number; timeout?: number; follow?: boolean } {
  const { kind, since, before, ...rest } = parsed;
  const q: EventQuery & { count?: number; timeout?: number; follow?: boolean } = rest;
  // `kind` is the timelines' word for a beacon v2 category that timelines hold (search, category, …)
  if (kind !== undefined) {
    if (q.category !== undefined && q.category !== kind)
      throw new BadParameter(
        'kind',
        `kind=${kind} and category=${q.category} contradict each other: give one of them`,
      );
    q.category = kind;
  }
  // A seq or an event id: `since` = after the last one I saw, `before` = older than the first I have.
  if (since !== undefined) q.since = Number(/\d+/.exec(since)![0]);
  if (before !== undefined) q.before = Number(/\d+/.exec(before)![0]);
  return q;
}

function parseJsonBody(req: Request, what: string): unknown {
  if (req.body !== undefined && typeof req.body !== 'string') return req.body; // parsed by an earlier JSON parser
  const raw = typeof req.body === 'string' ? req.body.trim() : '';
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch (err) {
    throw new BadParameter(
      'body',
      `the body is not valid JSON (${(err as Error).message}); send ${what}`,
    );
  }
}

function parseReset(req: Request, fromQuery: string | undefined): ResetScope {
  const body = parseJsonBody(req, '{"what":"events"|"all","siteId":"…"} or nothing');
  if (
    body === undefined ||
    (typeof body === 'object' && body !== null && Object.keys(body).length === 0)
  ) {
    return fromQuery === undefined ? { what: 'events' } : { what: 'events', siteId: fromQuery };
  }
  const b = parseAdminBody('reset', body);
  if (fromQuery !== undefined && b.siteId !== undefined && fromQuery !== b.siteId) {
    throw new BadParameter(
      'siteId',
      `siteId is ${JSON.stringify(fromQuery)} in the query but ${JSON.stringify(b.siteId)} in the body: give it once`,
    );
  }
  const siteId = b.siteId ?? fromQuery;
  const what = b.what ?? 'events';
  return siteId === undefined ? { what } : { what, siteId };
}
