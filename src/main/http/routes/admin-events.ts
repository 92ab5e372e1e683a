// Admin API over recorded events: query, one event, long-poll wait, reset, SSE stream, export and import.
// Every bad query parameter gets a 400 that names it, its value and what is allowed.
import { Router, type Response } from 'express';
import type { ResetScope } from '../../../shared/stream';
import type { Bus } from '../../bus';
import type { Clock } from '../../clock';
import type { EventQuery, EventStore } from '../../store/types';
import type { ExportSection } from '../../store/export-format';
import { SseHub, type SseOptions } from '../sse';
import { BadQuery as BadParameter, mount, type AdminHandler, type Bounds } from '../admin-query';
import { BodyRefused } from '../admin-refusal';
import { ADMIN_API, type BodyOf, type QueryOf } from '../../../shared/admin-api';
import { MAX_WAIT_MS } from '../../../shared/admin-params';
import { IMPORT_BODY_BYTES } from '../../../shared/admin-bodies';
import { streamBody } from '../stream-body';
import { readImportBody, readImportBodyHere } from '../../store/import-body';
import { importEvents } from '../../store/import-events';
import { exportBody, listEvents, waitForEvents } from '../../store/event-reads';
import { matches } from '../../store/event-index';
import { clipped, shown } from '../../../shared/text';
import { eventNameProblem } from '../../../shared/beacon-endpoints';
import { didYouMean } from '../../../shared/nearest';
import { SITE_ID_PATTERN } from '../../../shared/site-id';
import { SiteNotFound } from '../../accounts/site-not-found';

export const DEFAULT_LIMIT = 1000;
/** events a follow stream starts with, unless `limit` says otherwise */
export const FOLLOW_BACKLOG = 10;
export const DEFAULT_WAIT_MS = 10_000;
export { MAX_WAIT_MS };

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
  readonly config: { retention: { events: number }; accounts: ReadonlyArray<{ siteId: string }> };
  reset(scope: ResetScope, importId?: string): Promise<void>;
  exportSections(): ReadonlyMap<string, ExportSection>;
}

export function adminEventsRouter(core: EventsArea, options: AdminEventsOptions = {}): Router {
  const router = Router();
  const hub = options.hub ?? new SseHub(core.bus, options.sse);
  const maxLimit = Math.max(100_000, core.config.retention.events);
  // `limit` (and `count`) of events reach up to what the sandbox retains
  const bounds = (): Bounds => ({ maximum: { limit: maxLimit, count: maxLimit } });
  mount(router, 'events', eventList(core), { bounds });
  mount(router, 'event', oneEvent(core));
  mount(router, 'wait', waitEvents(core), { bounds });
  mount(router, 'reset', resetEvents(core));
  mount(router, 'stream', (req, res) => hub.handle(req, res));
  mount(router, 'export', exportEvents(core), { bounds });
  mount(router, 'import', importInto(core));
  return router;
}

/** `GET /_sandbox/events`: the matching events as one JSON array, streamed; or, with `follow`, NDJSON. */
function eventList(core: EventsArea): AdminHandler<'events'> {
  return async (_req, res, parsed) => {
    const { follow, ...q } = eventQuery(parsed);
    if (follow) return followEvents(core, res, q);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    await streamBody(res, listEvents(core.events, q, q.limit ?? DEFAULT_LIMIT));
  };
}

/** `GET /_sandbox/events/{id}`: one recorded event, or a 404 that says why it may be gone. */
function oneEvent(core: EventsArea): AdminHandler<'event'> {
  return (req, res) => {
    const event = core.events.get(String(req.params.id));
    if (event) return void res.json(event);
    res.status(404).json({
      error: 'NotFound',
      message: `no event ${clipped(String(req.params.id))}: it was never recorded, or was reset or dropped by retention (the newest ${core.config.retention.events} are kept)`,
    });
  };
}

/** `GET /_sandbox/wait`: until `count` matching events are recorded (200) or the timeout (408). */
function waitEvents(core: EventsArea): AdminHandler<'wait'> {
  return async (_req, res, parsed) => {
    const { count = 1, timeout: asked = DEFAULT_WAIT_MS, ...q } = eventQuery(parsed);
    const timeoutMs = Math.min(asked, MAX_WAIT_MS);
    const capped = asked > MAX_WAIT_MS && {
      note: `timeout capped at ${MAX_WAIT_MS} ms (asked ${asked}); call again to keep waiting`,
    };
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    const limit = q.limit ?? Math.max(count, DEFAULT_LIMIT);
    const waited = await waitForEvents(core.events, { ...q, limit }, count, timeoutMs, gone.signal);
    if (gone.signal.aborted && !res.writable) return;
    const { done, events, matched } = waited;
    const answer = { count: events.length, timeoutMs, ...capped, events };
    if (done) return void res.json({ done, ...answer });
    if (waited.closing) {
      // answered before the connection closes: the caller reads why it ended, not a broken socket
      res.setHeader('Connection', 'close');
      res.status(503).json({
        done,
        error: 'Closing',
        message: `the sandbox stopped while this wait was open: ${matched} of ${count} matching events had been recorded`,
        ...answer,
      });
      return;
    }
    res.status(408).json({
      done,
      error: 'Timeout',
      message: `${matched} of ${count} matching events were recorded within ${timeoutMs} ms`,
      ...answer,
    });
  };
}

/**
 * `POST /_sandbox/reset`: forget what the scope names; answers it, how many events it forgot and how many are
 * retained. A siteId of no configured site that has no events is most likely a typo: said in a `note` (with
 * the nearest configured site) when it is a siteId, since a site that has not sent yet may be reset before it
 * does; refused (404) when it is not even one (no beacon can be sent for it).
 */
function resetEvents(core: EventsArea): AdminHandler<'reset'> {
  return async (_req, res, { siteId }, body) => {
    const scope = resetScope(body, siteId);
    const configured = core.config.accounts.map((a) => a.siteId);
    const unknown =
      scope.siteId !== undefined &&
      !configured.includes(scope.siteId) &&
      core.events.query({ siteId: scope.siteId, limit: 1 }).length === 0;
    if (unknown && !SITE_ID_PATTERN.test(scope.siteId!))
      throw new SiteNotFound(
        scope.siteId!,
        configured,
        "a reset forgets a site of the config's accounts or one whose beacons were recorded, and this is neither, nor a siteId (six lowercase letters or digits)",
      );
    // the events it forgot: those there before, and those that came while it waited for its turn, less those kept
    let appended = 0;
    const off = core.events.onAppend(() => appended++);
    const before = core.events.size();
    try {
      await core.reset(scope);
    } finally {
      off();
    }
    const retained = core.events.size();
    const removed = Math.max(0, before + appended - retained);
    const note = unknown
      ? `siteId ${shown(scope.siteId)} is none of the config's accounts and had no events: nothing was reset (right for a site that has not sent yet); ${configured.length > 0 ? `${didYouMean(scope.siteId!, configured)}the configured sites are ${configured.join(', ')}` : 'the config has no accounts'}`
      : undefined;
    res.json({ reset: scope, removed, retained, ...(note !== undefined && { note }) });
  };
}

/** `GET /_sandbox/export`: the matching events and every area's section, as a file to save. */
function exportEvents(core: EventsArea): AdminHandler<'export'> {
  return async (_req, res, parsed) => {
    const { fileName, pieces } = exportBody(core.events, {
      query: eventQuery(parsed),
      sections: core.exportSections(),
      sandboxVersion: core.version,
      now: core.clock.now(),
    });
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
    await streamBody(res, pieces);
  };
}

/** `POST /_sandbox/import`: an export read back (added, or with `replace` instead of what is there). */
function importInto(core: EventsArea): AdminHandler<'import'> {
  return async (req, res, { replace = false }) => {
    // Read as it arrives (a large body streams into a worker); one an earlier parser already read (an app
    // embedding the router behind express.json) is read back from there.
    const body =
      req.body === undefined
        ? await readImportBody(req, IMPORT_BODY_BYTES)
        : Buffer.isBuffer(req.body)
          ? await readImportBody(req.body)
          : readImportBodyHere(JSON.stringify(req.body));
    if ('tooLarge' in body) throw importTooLarge();
    const outcome = await importEvents(
      {
        events: core.events,
        sections: core.exportSections(),
        reset: (scope, importId) => core.reset(scope, importId),
        // a close waits for this answer (503 Closing when it stopped the import)
        begun: () =>
          core.events.answering(new Promise<void>((resolve) => res.once('close', resolve))),
      },
      body,
      replace,
    );
    if (!outcome.ok) {
      res.status(400).json({
        error: 'InvalidImport',
        message: outcome.message,
        problems: outcome.problems,
      });
      return;
    }
    const { ok: _ok, ...answer } = outcome;
    res.json(answer);
  };
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
        `kind=${kind} and category=${clipped(q.category)} contradict each other: give one of them`,
      );
    q.category = kind;
  }
  // a name no beacon v2 endpoint has would match nothing (a wait would time out): refused, but in a
  // filter of rejected requests, which are recorded under whatever path they were posted to
  const named = eventNameProblem(q, 'accepted=false');
  if (named)
    throw new BadParameter(named.parameter, `query parameter ${named.problem}`, named.allowed);
  // A seq or an event id: `since` = after the last one I saw, `before` = older than the first I have.
  if (since !== undefined) q.since = Number(/\d+/.exec(since)![0]);
  if (before !== undefined) q.before = Number(/\d+/.exec(before)![0]);
  return q;
}

/** A body that passed its announced length and went on past the cap: the declared 413. */
function importTooLarge(): BodyRefused {
  const { maxBytes, tooLarge, expected } = ADMIN_API.import.body;
  return new BodyRefused(413, 'body', tooLarge, {
    value: `more than ${maxBytes} bytes`,
    rule: `a body may have at most ${maxBytes} bytes`,
    fix: `send ${expected}, in several imports`,
  });
}

/** What a reset forgets: the body's scope (none, or {}: events), the query's siteId when the body has none. */
function resetScope(body: BodyOf<'reset'> | undefined, fromQuery: string | undefined): ResetScope {
  if (body === undefined || Object.keys(body).length === 0) {
    return fromQuery === undefined ? { what: 'events' } : { what: 'events', siteId: fromQuery };
  }
  if (fromQuery !== undefined && body.siteId !== undefined && fromQuery !== body.siteId) {
    throw new BadParameter(
      'siteId',
      `siteId is ${shown(fromQuery)} in the query but ${shown(body.siteId)} in the body: give it once`,
    );
  }
  const siteId = body.siteId ?? fromQuery;
  const what = body.what ?? 'events';
  return siteId === undefined ? { what } : { what, siteId };
}
