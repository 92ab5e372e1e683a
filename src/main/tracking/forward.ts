// Beacon forwarding (`accounts[].tracking.forward`): after the sandbox has answered a beacon request, the
// same request (path, content type and encoding, body) goes to the real service, and its answer is recorded
// on the event.
// A bounded queue: forwarding never holds ingest up nor grows memory without limit; what it drops it counts.
import { performance } from 'node:perf_hooks';
import { isBeaconEndpoint } from './schemas';
import type { Clock } from '../clock';
import type { ForwardStats, RecordedEvent, UpstreamAnswer } from '../../shared/events';

export type { ForwardStats };

export interface ForwardSite {
  /** base URL: requests go to `{base}/{siteId}/{category}/{event}` */
  base: string;
  timeoutMs: number;
  /** at most this many of the site's requests wait to be sent */
  queue: number;
}

/** The request as the storefront sent it, kept until it is forwarded. */
export interface ForwardRaw {
  method: string;
  /** the path after `/beacon/v2`, e.g. `/abc123/search/render` */
  path: string;
  contentType?: string;
  /** the Content-Encoding header as sent (gzip, br…): the body is forwarded as it arrived, still encoded */
  contentEncoding?: string;
  userAgent?: string;
  body: Buffer | null;
  /** the body passed 1 MB and was not kept */
  bodyTooLarge?: boolean;
}

interface Job {
  event: RecordedEvent;
  url: string;
  raw: ForwardRaw;
  timeoutMs: number;
}

export interface BeaconForwarderDeps {
  sites: ReadonlyMap<string, ForwardSite>;
  clock: Clock;
  /** called once per forwarded (or dropped) request with the outcome; the sandbox stores it */
  record(event: RecordedEvent, answer: UpstreamAnswer): void;
  fetch?: typeof fetch;
  /** requests sent at the same time (over all sites) */
  concurrency?: number;
  /** bodies held in the queue at most (over all sites) */
  maxQueueBytes?: number;
}

/** An answer body is kept up to this size (the real service's are a few hundred bytes). */
const MAX_ANSWER_CHARS = 64 * 1024;

export class BeaconForwarder {
  private readonly queue: Job[] = [];
  private head = 0;
  private readonly queuedBySite = new Map<string, number>();
  private queuedBytes = 0;
  private inFlight = 0;
  private readonly counts = { accepted: 0, rejected: 0, unavailable: 0, dropped: 0 };
  private readonly idleWaiters: Array<() => void> = [];
  private closed = false;
  /** aborts requests in flight when the sandbox stops */
  private readonly stopping = new AbortController();
  private readonly fetch: typeof fetch;
  private readonly concurrency: number;
  private readonly maxQueueBytes: number;

  constructor(private readonly deps: BeaconForwarderDeps) {
    this.fetch = deps.fetch ?? fetch;
    this.concurrency = deps.concurrency ?? 4;
    this.maxQueueBytes = deps.maxQueueBytes ?? 32 * 1024 * 1024;
  }

  /** True when the site's beacons are forwarded. */
  forwards(siteId: string): boolean {
    return this.deps.sites.has(siteId);
  }

  /** Queue a request the sandbox has answered; O(1), sends nothing before the current tick ends. */
  afterAnswer(event: RecordedEvent, raw: ForwardRaw): void {
    const site = this.deps.sites.get(event.siteId);
    if (!site || this.closed) return;
    // Only a parsed, valid beacon v2 endpoint goes upstream, rebuilt from its parts: a path such as
    // `/abc123/../..` or one naming no endpoint would reach other paths of the real host.
    const valid = event.status !== 404 && isBeaconEndpoint(event.category, event.event);
    const url = `${site.base}/${encodeURIComponent(event.siteId)}/${event.category}/${event.event}`;
    if (!valid) {
      this.drop(
        event,
        `${site.base}${raw.path.replace(/[^\w/.-]/g, '')}`,
        `${raw.path} is not a beacon v2 endpoint of the site, so it was not forwarded (the real service answers 404 to it, as the sandbox did)`,
      );
      return;
    }
    if (raw.bodyTooLarge) {
      this.drop(event, url, 'the body was over 1 MB, so the sandbox did not keep it to forward');
      return;
    }
    const waiting = this.queuedBySite.get(event.siteId) ?? 0;
    const bytes = raw.body?.length ?? 0;
    if (waiting >= site.queue || this.queuedBytes + bytes > this.maxQueueBytes) {
      this.drop(
        event,
        url,
        `the forwarding queue was full (${waiting} requests of ${event.siteId} waiting; ${Math.round(this.queuedBytes / 1024)} KiB held): the real service answers slower than the storefront sends; raise tracking.forwardQueue or lower the load`,
      );
      return;
    }
    this.queuedBySite.set(event.siteId, waiting + 1);
    this.queuedBytes += bytes;
    this.queue.push({ event, url, raw, timeoutMs: site.timeoutMs });
    setImmediate(() => this.pump());
  }

  stats(): ForwardStats {
    return {
      sites: [...this.deps.sites].map(([siteId, s]) => ({ siteId, base: s.base })),
      queued: this.queue.length - this.head,
      inFlight: this.inFlight,
      ...this.counts,
    };
  }

  /** Resolves when nothing is queued or in flight (tests, orderly shutdown). */
  idle(): Promise<void> {
    if (this.queue.length === this.head && this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stop sending: what is still queued is dropped (and counted); requests in flight finish. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopping.abort();
    this.queue.length = this.head = 0;
    this.queuedBySite.clear();
    this.queuedBytes = 0;
    if (this.inFlight > 0) await this.idle();
    this.settle();
  }

  private drop(event: RecordedEvent, url: string, why: string): void {
    this.counts.dropped++;
    this.deps.record(event, {
      url,
      outcome: 'not-sent',
      status: null,
      body: null,
      at: new Date(this.deps.clock.now()).toISOString(),
      ms: null,
      error: why,
    });
  }

  private pump(): void {
    while (!this.closed && this.inFlight < this.concurrency && this.head < this.queue.length) {
      const job = this.queue[this.head]!;
      this.queue[this.head++] = undefined as unknown as Job; // let the body go
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue.splice(0, this.head);
        this.head = 0;
      }
      const site = job.event.siteId;
      this.queuedBySite.set(site, (this.queuedBySite.get(site) ?? 1) - 1);
      this.queuedBytes -= job.raw.body?.length ?? 0;
      this.inFlight++;
      void this.send(job).then((answer) => {
        this.inFlight--;
        this.counts[answer.outcome === 'not-sent' ? 'dropped' : answer.outcome]++;
        try {
          this.deps.record(job.event, answer);
        } catch (err) {
          console.error('search-sandbox: could not record the upstream answer:', err);
        }
        this.pump();
        this.settle();
      });
    }
    this.settle();
  }

  private settle(): void {
    if (this.queue.length !== this.head || this.inFlight !== 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private async send(job: Job): Promise<UpstreamAnswer> {
    const started = performance.now();
    const headers: Record<string, string> = {};
    // the headers that say how the body is read go with it, or the real service reads other bytes than
    // the storefront sent (Content-Length is the same body's; chunked framing was the connection's)
    if (job.raw.contentType !== undefined) headers['content-type'] = job.raw.contentType;
    if (job.raw.contentEncoding !== undefined)
      headers['content-encoding'] = job.raw.contentEncoding;
    if (job.raw.userAgent !== undefined) headers['user-agent'] = job.raw.userAgent;
    const method = job.raw.method.toUpperCase();
    const withBody = job.raw.body !== null && method !== 'GET' && method !== 'HEAD';
    const done = (a: Omit<UpstreamAnswer, 'url' | 'at' | 'ms'>): UpstreamAnswer => ({
      url: job.url,
      at: new Date(this.deps.clock.now()).toISOString(),
      ms: Math.round(performance.now() - started),
      ...a,
    });
    try {
      const res = await this.fetch(job.url, {
        method,
        headers,
        ...(withBody && { body: job.raw.body }),
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(job.timeoutMs), this.stopping.signal]),
      });
      const text = await res.text();
      return done({ outcome: outcomeOf(res.status), status: res.status, body: answerBody(text) });
    } catch (err) {
      const e = err as Error & { cause?: { code?: string; message?: string } };
      const error = this.closed
        ? 'the sandbox stopped before the real service answered'
        : e.name === 'TimeoutError' || e.name === 'AbortError'
          ? `no answer within ${job.timeoutMs} ms (tracking.forwardTimeoutMs)`
          : `could not be reached (${e.cause?.code ?? e.cause?.message ?? e.message})`;
      return done({ outcome: 'unavailable', status: null, body: null, error });
    }
  }
}

/**
 * 2xx accepts and 4xx rejects the event; 408 and 429 (timeout, rate limit), 5xx and anything else say nothing
 * about the event itself, so they are never compared with the sandbox's verdict.
 */
export function outcomeOf(status: number): UpstreamAnswer['outcome'] {
  if (status >= 200 && status < 300) return 'accepted';
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) return 'rejected';
  return 'unavailable';
}

function answerBody(text: string): unknown {
  if (text === '') return null;
  if (text.length > MAX_ANSWER_CHARS) return `${text.slice(0, MAX_ANSWER_CHARS)}…`;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
