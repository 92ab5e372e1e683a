// The status e-mails for `requestedBy`: written to the outbox (admin API, SSE `outbox`) and, when the
// config names an SMTP server (e.g. a local Mailpit), delivered with nodemailer. Delivery never throws.
// nodemailer is loaded with the first message to deliver: most sandboxes have no SMTP server, and loading
// it cost every start ~0.1 s of CPU (lazy-require.ts).
import type { Transporter } from 'nodemailer';
import { lazily } from '../lazy-require';
import type { Bus } from '../bus';
import type { Clock } from '../clock';
import type { OutboxMessage, ParseSummary } from '../../shared/indexing';
import { OUTBOX_LIMIT, type IndexingData, type IndexingDb } from './feed-db';
import { statusTime } from '../durations';
import { grouped, plural } from '../../shared/text';

/** Where status e-mails are delivered (`smtp` in the config file; null: not configured). */
export interface SmtpConfig {
  host: string;
  port: number;
  from: string;
}

// Deliberately simple: one address, no display name, no spaces; what a client would put in a query string.
const EMAIL = /^[^\s@<>()[\]",;:\\]+@[^\s@<>()[\]",;:\\]+\.[^\s@<>()[\]",;:\\]{2,}$/;

export function isEmail(v: string): boolean {
  return v.length <= 254 && EMAIL.test(v);
}

export interface IndexOutcome {
  siteId: string;
  feedId: number;
  feedName: string;
  outcome: 'done' | 'error' | 'regen_error';
  requestedBy: string;
  requestedAt: number;
  finishedAt: number;
  reason: string | null;
  summary: ParseSummary | null;
  nextIndexTime: number | null;
  /** the feed's catalog once the run ended: the new one when done, else the one it had before */
  catalog: { products: number; indexedAt: number | null };
  /**
   * set when the requester's run was superseded: the outcome is then of the run that ran instead. `chain`
   * is each supersession from theirs on (when, by whose request), the last by the request whose index ran.
   */
  superseded?: {
    own: string;
    chain: ReadonlyArray<{ at: number; by: string | null }>;
    ran: string;
  };
}

export function composeMail(o: IndexOutcome): { subject: string; text: string } {
  const feed = `feed ${o.feedId} (${o.feedName})`;
  const products = o.summary?.products ?? 0;
  const subject = o.superseded
    ? `Index request for ${feed} superseded; the index that ran instead ${o.outcome === 'done' ? `is done: ${plural(products, 'product')}` : 'failed'}`
    : o.outcome === 'done'
      ? `Index of ${feed} done: ${plural(products, 'product')}`
      : o.outcome === 'error'
        ? `Index of ${feed} failed`
        : `Regeneration of ${feed} failed`;
  const lines = [
    ...supersededLines(o),
    `Site: ${o.siteId}`,
    `Feed: ${o.feedId} (${o.feedName})`,
    `Outcome: ${o.outcome}${o.reason ? ` (${o.reason})` : ''}`,
    `Products indexed: ${o.outcome === 'done' ? grouped(products) : `0 (${notIndexed(o)})`}`,
  ];
  if (o.summary?.fileRead === false) lines.push('File: none read (the run ended before indexing)');
  else if (o.summary) {
    lines.push(
      `File: ${o.summary.format ?? 'unknown format'}, ${o.summary.encoding}, id field ${o.summary.idField ?? 'none'}, ${plural(o.summary.products, 'product')} read`,
    );
    lines.push(`Row errors: ${o.summary.rowErrorCount}`);
    for (const e of o.summary.rowErrors.slice(0, 10)) lines.push(`  line ${e.line}: ${e.message}`);
    if (o.summary.rowErrorCount > 10)
      lines.push(`  … and ${o.summary.rowErrorCount - 10} more (see the sandbox UI)`);
    const warned = o.summary.rowWarningCount ?? 0;
    if (warned > 0) {
      lines.push(`Row warnings: ${warned}`);
      for (const w of o.summary.rowWarnings!.slice(0, 10))
        lines.push(`  line ${w.line}: ${w.message}`);
      if (warned > 10) lines.push(`  … and ${warned - 10} more (see the sandbox UI)`);
    }
  }
  lines.push(
    `Requested: ${statusTime(o.requestedAt)}`,
    `Finished: ${statusTime(o.finishedAt)}`,
    `Next index time: ${o.nextIndexTime === null ? 'none (interval Never)' : statusTime(o.nextIndexTime)}`,
  );
  lines.push('', 'Sent by search-sandbox (a local emulator; sandbox clock times, UTC).');
  return { subject, text: lines.join('\n') };
}

/** Why a failed run indexed nothing, and which catalog stays in place. */
function notIndexed(o: IndexOutcome): string {
  const kept =
    o.catalog.products > 0 && o.catalog.indexedAt !== null
      ? `the catalog indexed at ${statusTime(o.catalog.indexedAt)} (${plural(o.catalog.products, 'product')}) stays in place`
      : 'the feed has no indexed catalog yet';
  return `the run failed, so nothing was indexed: ${kept}`;
}

/** Why a requester hears of an index their request did not start: it was superseded, by what, and so on. */
function supersededLines(o: IndexOutcome): string[] {
  const s = o.superseded;
  const [first, ...then] = s?.chain ?? [];
  if (!s || !first) return [];
  const request = (by: string | null) =>
    by ? `a request from ${by}` : 'a later request (no requestedBy)';
  const itself = then.map(
    (l) => `, which was itself superseded at ${statusTime(l.at)} by ${request(l.by)}`,
  );
  const last = then.at(-1);
  const whose = last
    ? `, ${last.by ? `the request from ${last.by}` : 'the last request (no requestedBy)'},`
    : '';
  return [
    `Your request of ${statusTime(o.requestedAt)} (${s.own}) was superseded at ${statusTime(first.at)} by ${request(first.by)}${itself.join('')}: a request that arrives while the feed is running pauses the index, and resuming starts it again with the newer request's input.`,
    `The index that ran instead${whose} indexed ${s.ran}; its outcome follows.`,
    '',
  ];
}

/**
 * The next mail's number, on the outbox's own counter (mail_000001, mail_000002, … whatever runs went
 * between). An outbox an older version kept was numbered on the runs' counter and has no counter of its
 * own: numbering goes on after the highest id it holds, so every id stays unique.
 */
function nextMailNumber(data: IndexingData): number {
  let highest = data.mailSeq ?? 0;
  for (const m of data.outbox) {
    const held = /^mail_(\d+)$/.exec(m.id);
    if (held) highest = Math.max(highest, Number(held[1]));
  }
  return highest + 1;
}

const nodemailer = lazily<typeof import('nodemailer')>('nodemailer');

export class Outbox {
  /** the SMTP connection, made for the first message delivered (null until then) */
  private transport: Transporter | null = null;

  constructor(
    private readonly db: IndexingDb,
    private readonly clock: Clock,
    private readonly bus: Bus,
    private readonly smtp: SmtpConfig | null,
  ) {}

  list(): OutboxMessage[] {
    return this.db.data.outbox;
  }

  /** Write the message for an index outcome and start delivery; resolves once it is in the outbox. */
  async send(o: IndexOutcome): Promise<OutboxMessage> {
    const { subject, text } = composeMail(o);
    const data = this.db.data;
    data.mailSeq = nextMailNumber(data);
    const message: OutboxMessage = {
      id: `mail_${String(data.mailSeq).padStart(6, '0')}`,
      // the index's finish time: with an advanced clock it can lie before the moment the chain was replayed
      at: new Date(o.finishedAt).toISOString(),
      to: o.requestedBy,
      from: this.smtp?.from ?? 'search-sandbox@localhost',
      subject,
      text,
      siteId: o.siteId,
      feedId: o.feedId,
      outcome: o.outcome,
      delivery: { status: this.smtp ? 'pending' : 'not-configured', error: null, at: null },
    };
    data.outbox.push(message);
    if (data.outbox.length > OUTBOX_LIMIT) data.outbox.splice(0, data.outbox.length - OUTBOX_LIMIT);
    await this.db.write();
    this.bus.emit({ type: 'outbox', data: message });
    if (this.smtp) void this.deliver(message, this.smtp);
    return message;
  }

  private async deliver(message: OutboxMessage, smtp: SmtpConfig): Promise<void> {
    try {
      this.transport ??= nodemailer().createTransport({
        host: smtp.host,
        port: smtp.port,
        secure: false,
        connectionTimeout: 5_000,
        greetingTimeout: 5_000,
        socketTimeout: 10_000,
      });
      await this.transport.sendMail({
        from: message.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
      message.delivery = {
        status: 'sent',
        error: null,
        at: new Date(this.clock.now()).toISOString(),
      };
    } catch (err) {
      message.delivery = {
        status: 'failed',
        error: `SMTP ${smtp.host}:${smtp.port}: ${(err as Error).message}`,
        at: new Date(this.clock.now()).toISOString(),
      };
    }
    try {
      await this.db.write();
    } catch {
      // the outbox in memory is still right and the next write stores it; until then it is not told, as
      // a client that saw the delivery would not find it after a restart
      return;
    }
    this.bus.emit({ type: 'outbox', data: message });
  }

  async clear(): Promise<void> {
    const before = this.db.data.outbox;
    this.db.data.outbox = [];
    try {
      await this.db.write();
    } catch (err) {
      // refused (a full disk): the outbox stays as it was, in memory as on disk; mails queued meanwhile too
      this.db.data.outbox = [...before, ...this.db.data.outbox];
      throw err;
    }
  }

  close(): void {
    this.transport?.close();
  }
}
