// The real service's answers to forwarded beacons, by event id. The events journal is append-only and an
// answer arrives after its event was stored, so answers go to their own append-only file
// (`upstream.ndjson`) and are merged onto their events in memory: at start-up and as each one arrives.
// Appended and rewritten as every file the sandbox keeps besides the journal is (durable.ts): a batch of
// answers is on disk before the next is written, and a rewrite replaces the file whole or not at all.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RecordedEvent, UpstreamAnswer } from '../../shared/events';
import type { EventStore, UpstreamRecord } from './types';
import { AppendFile } from './durable';
import { makePrivateDir } from './private-files';

export const UPSTREAM_FILE = 'upstream.ndjson';

const OUTCOMES = new Set(['accepted', 'rejected', 'unavailable', 'not-sent']);

/** how long the answers file gathers answers before it writes and syncs them (see `add`) */
const GATHER_MS = 20;

/** Why `v` is not an upstream answer (as imports and the answers' file must hold), or null. */
export function upstreamProblem(v: unknown): string | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return 'upstream must be an object';
  const u = v as Record<string, unknown>;
  if (typeof u.url !== 'string') return 'upstream.url must be a string';
  if (typeof u.outcome !== 'string' || !OUTCOMES.has(u.outcome))
    return `upstream.outcome ${JSON.stringify(u.outcome)} must be one of ${[...OUTCOMES].join(', ')}`;
  const verdict = u.outcome === 'accepted' || u.outcome === 'rejected';
  if (verdict ? typeof u.status !== 'number' : u.status !== null && typeof u.status !== 'number')
    return `upstream.status must be a number${verdict ? '' : ' or null'}`;
  if (typeof u.at !== 'string') return 'upstream.at must be an ISO 8601 time';
  if (u.ms !== null && typeof u.ms !== 'number') return 'upstream.ms must be a number or null';
  if (u.error !== undefined && typeof u.error !== 'string')
    return 'upstream.error must be a string';
  return null;
}

/** The answers file as read at start. */
export interface StoredAnswers {
  answers: Map<string, UpstreamAnswer>;
  warnings: string[];
  /** the file exists */
  found: boolean;
}

export class UpstreamLog {
  private file: AppendFile | null = null;
  private lines = 0;
  private writing: Promise<void> = Promise.resolve();
  /** answers waiting for the next write, and that write */
  private pending: string[] = [];
  private batch: Promise<void> | null = null;
  private closed = false;

  private constructor(
    private readonly dir: string | null,
    private readonly events: EventStore,
    /** rewrite the file when it holds more lines than this (answers of dropped events go then) */
    private readonly compactAt: number,
  ) {}

  /**
   * Read earlier answers back onto their events (those still retained), then keep appending. Call it
   * before the timelines are rebuilt from the events: they compare the verdicts as they read each event.
   */
  static async open(
    dir: string | null,
    events: EventStore,
    retention: number,
  ): Promise<{ log: UpstreamLog; warnings: string[] }> {
    const stored = await UpstreamLog.read(dir);
    // an event reset or dropped by retention since keeps no answer
    for (const [eventId, upstream] of stored.answers) events.setUpstream(eventId, upstream);
    return UpstreamLog.start(dir, events, retention, stored);
  }

  /** The answers in the file, by event id (to put on the events as the journal is read back). */
  static async read(dir: string | null): Promise<StoredAnswers> {
    const stored: StoredAnswers = { answers: new Map(), warnings: [], found: false };
    if (!dir) return stored;
    const file = path.join(dir, UPSTREAM_FILE);
    const text = await readFile(file, 'utf8').catch(() => null);
    let torn = 0;
    for (const line of text?.split('\n') ?? []) {
      if (!line) continue;
      try {
        const r = JSON.parse(line) as UpstreamRecord;
        if (typeof r.eventId !== 'string' || upstreamProblem(r.upstream) !== null) torn++;
        else stored.answers.set(r.eventId, r.upstream);
      } catch {
        torn++;
      }
    }
    // a line torn by a kill while writing (or edited by hand): that one answer is lost, the event is whole
    if (torn)
      stored.warnings.push(`upstream answers: ${torn} unreadable line(s) in ${file} were skipped`);
    stored.found = text !== null;
    return stored;
  }

  /**
   * Keep appending, once `stored` (from `read`) is on the events still retained: the file is rewritten
   * with their answers only.
   */
  static async start(
    dir: string | null,
    events: EventStore,
    retention: number,
    stored: StoredAnswers,
  ): Promise<{ log: UpstreamLog; warnings: string[] }> {
    const log = new UpstreamLog(dir, events, 2 * retention + 1000);
    // on the events by now: the map is not kept for as long as whoever holds `stored` lives
    stored.answers.clear();
    // no file yet: the first answer creates it, so a sandbox that never forwards leaves no trace
    if (dir && stored.found) await log.compact();
    return { log, warnings: stored.warnings };
  }

  /**
   * Put the answer on its event (when still retained) and append it to the file; resolves once it is
   * there, rejects when it could not be written (that one answer is lost; later ones go ahead).
   */
  add(event: RecordedEvent, upstream: UpstreamAnswer): Promise<void> {
    // on the event as the store holds it: every read shows the answer
    this.events.setUpstream(event.id, upstream);
    event.upstream = upstream;
    if (!this.dir) return Promise.resolve();
    this.pending.push(JSON.stringify({ eventId: event.id, upstream } satisfies UpstreamRecord));
    // group commit: the answers recorded within GATHER_MS of the first, and while a write is under way, go
    // out in one write and one sync. Answers arrive one by one, as each forwarded request (or one the full
    // queue kept back) ends, and a sync costs ~0.2 ms of CPU: synced as they came, a flood of 1,700 a second
    // cost the process twice the CPU. No one waits for an answer to be stored (it is on its event, and told
    // to the stream, at once); it is on disk within about GATHER_MS.
    this.batch ??= this.queue(async () => {
      await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
      const lines = this.pending;
      this.pending = [];
      this.batch = null;
      if (this.closed || lines.length === 0) return;
      // the first answer creates the file (with every answer so far, this batch's included)
      if (!this.file) return this.compact();
      await this.file.append(`${lines.join('\n')}\n`);
      this.lines += lines.length;
      if (this.lines > this.compactAt) await this.compact();
    });
    return this.batch;
  }

  /** After a reset: keep only the answers of events that are still recorded. */
  pruned(): Promise<void> {
    return this.queue(async () => {
      if (this.file) await this.compact();
    }).catch((err: unknown) =>
      // a failed rewrite leaves the file whole: the answers of events gone are never put on an event
      console.error('search-sandbox: could not rewrite the upstream answers:', err),
    );
  }

  async close(): Promise<void> {
    await this.writing;
    this.closed = true;
    await this.file?.close();
    this.file = null;
  }

  /** `work` after the writes before it; rejects with its failure, which later writes go ahead after. */
  private queue(work: () => Promise<void>): Promise<void> {
    const next = this.writing.then(work);
    this.writing = next.catch(() => undefined);
    return next;
  }

  /** Rewrite the file with the answers of the events still retained (opened by the first rewrite). */
  private async compact(): Promise<void> {
    if (!this.dir) return;
    if (!this.file) {
      await makePrivateDir(this.dir);
      this.file = await AppendFile.open(path.join(this.dir, UPSTREAM_FILE));
    }
    let lines = 0;
    await this.file.replace(() => {
      const answers = this.events.upstreamAnswers().map((r) => JSON.stringify(r));
      lines = answers.length;
      return answers.length ? `${answers.join('\n')}\n` : '';
    });
    this.lines = lines;
  }
}
