// A bulk index request (PUT|POST /api/index/feed) from its parameters to its answer: the parameters
// checked, the real service's verdict (queued, the running index paused, or refused and why), then the
// feed's history entry and state change, stored before the request is answered.
import type { AccountConfig } from '../accounts/config';
import { humanDuration, statusTime } from '../durations';
import { shown } from '../../shared/text';
import type { FeedRecord } from './feed-db';
import type { UploadStash } from './upload-stash';
import type { FeedEngine } from './feeds';
import { isEmail } from './outbox';
import {
  BadIndexRequest,
  FeedAlreadyQueued,
  FeedNeverIndexed,
  NoUploadYet,
  ReindexTooSoon,
  UnknownFeed,
  type IndexRequestRefused,
} from './refusals';
import { scoreRequest, type RequestOutcome } from './workflow';

/** Feed states a request can start from. */
const RESTING: ReadonlySet<string> = new Set(['done', 'error', 'regen_error']);

/** One accepted re-index per feed per hour (sandbox clock). */
export const REINDEX_WINDOW_MS = 3_600_000;

export interface IndexRequest {
  account: AccountConfig;
  method: 'PUT' | 'POST';
  feedId: string | undefined;
  requestedBy: string | undefined;
  /** the names of the URL's other query parameters (a `feedid` sent for feedId is named as such) */
  otherParams?: readonly string[];
  upload?: { data: Buffer; name: string };
  /**
   * A body sent with a PUT, which PUT does not read (the real service re-indexes the last upload or the
   * configured source): its media type and size, so the history says the file went unread.
   */
  unreadBody?: { contentType: string; bytes: number | null };
  /** credentials arrived over plain HTTP */
  plainHttp: boolean;
  /** sent by the sandbox's own Feeds view, not by an integration: its workflow is not scored */
  fromSandboxUi: boolean;
  /** the status the interface answers with, accepted (null) or refused: the feed's history records it */
  answeredWith: (refusal: IndexRequestRefused | null) => number;
}

/** A queued (or pausing) request: what the feed's history says of it, and the scorecard's first finding. */
export interface IndexRequestQueued {
  detail: string;
  /** the first workflow finding, when the request did not follow the recommended workflow */
  workflow: string | null;
}

/** What the service does with a request that names a feed, decided before anything changes. */
interface Verdict {
  outcome: RequestOutcome;
  /** what an accepted request indexes: the uploaded file or the feed's cart source */
  input: 'upload' | 'cart';
  /** why it is refused; null when it is accepted or pauses the running index */
  refusal: IndexRequestRefused | null;
}

/** What the engine and the stash of uploads are to a request. */
interface Indexing {
  engine: FeedEngine;
  stash: UploadStash;
}

/**
 * Queued (or the running index paused), exactly when the real service says `success`; otherwise throws
 * the IndexRequestRefused that says why (recorded in the feed's history when the request reached a feed).
 */
export async function requestIndex(
  indexing: Indexing,
  req: IndexRequest,
): Promise<IndexRequestQueued> {
  const rec = requestedFeed(indexing.engine, req);
  // `success` only once the request and the state it changed are on disk (else a DataDirError: 503,
  // and the feed is as it was); judged once the feed's changes before it are stored, so that a request
  // sent while another's upload is being stored sees the feed that one queued
  const { verdict, queued } = await indexing.engine.committed(
    rec,
    async () => {
      const now = indexing.engine.now;
      const verdict = judge(indexing, rec, req, now);
      return { verdict, queued: await recordRequest(indexing, rec, req, verdict, now) };
    },
    // once stored (the upload it replaced goes) or refused and put back (its own upload goes)
    () => indexing.stash.settle(rec, () => indexing.engine.stored()),
  );
  if (verdict.refusal) {
    verdict.refusal.workflow = queued.workflow;
    throw verdict.refusal;
  }
  return queued;
}

/** The feed the request names; throws BadIndexRequest (a parameter) or UnknownFeed. */
function requestedFeed(engine: FeedEngine, req: IndexRequest): FeedRecord {
  const raw = req.feedId?.trim();
  if (!raw) {
    const misnamed = req.otherParams?.find((k) => k.toLowerCase() === 'feedid');
    throw new BadIndexRequest(
      misnamed === undefined
        ? 'missing feedId: add ?feedId=<the feed id> to the URL'
        : `missing feedId: the URL names ${shown(misnamed)}, and parameter names are case-sensitive: use ?feedId=<the feed id>`,
    );
  }
  if (!/^\d+$/.test(raw))
    throw new BadIndexRequest(
      `feedId ${shown(raw)} is not a feed id: use the numeric id GET /api/index/status lists`,
    );
  if (req.requestedBy !== undefined && !isEmail(req.requestedBy))
    throw new BadIndexRequest(notAnAddress(req.requestedBy));
  const feedId = Number(raw);
  const rec = engine.record(req.account.siteId, feedId);
  if (!rec) {
    const ids = req.account.feeds.map((f) => f.id).join(', ');
    throw new UnknownFeed(
      `feed ${raw} does not exist for site ${req.account.siteId}; its feeds are ${ids || 'none'}`,
    );
  }
  return rec;
}

/** Why a requestedBy is refused, with the fix: a `+` sent unencoded reads as a space in a query string. */
function notAnAddress(requestedBy: string): string {
  const said = `requestedBy ${shown(requestedBy)} is not an e-mail address`;
  const withPlus = requestedBy.replaceAll(' ', '+');
  if (withPlus !== requestedBy && isEmail(withPlus))
    return `${said}: a + in a query string is a space: encode it as %2B (requestedBy=${requestedBy.replaceAll(' ', '%2B')})`;
  return `${said}: use one address, e.g. requestedBy=dev%40shop.example, or leave it out`;
}

/** The real service's verdict, first reason first: never indexed, queued already, within the hour, no file. */
function judge(
  { engine, stash }: Indexing,
  rec: FeedRecord,
  req: IndexRequest,
  now: number,
): Verdict {
  const feedId = rec.feedId;
  const s = engine.settings(rec);
  const input: 'upload' | 'cart' =
    req.method === 'POST' ? 'upload' : s.config.source.kind === 'cart' ? 'cart' : 'upload';
  const refused = (outcome: RequestOutcome, refusal: IndexRequestRefused): Verdict => ({
    outcome,
    input,
    refusal,
  });
  if (s.interval === 'Never')
    return refused(
      'refused-never',
      new FeedNeverIndexed(
        `feed ${feedId} has interval "Never": it is not indexed, by request or by schedule; change its interval to index it`,
      ),
    );
  if (rec.state === 'paused')
    // queued too, but it never goes on by itself: waiting would not help the uploader
    return refused('refused-waiting', new FeedAlreadyQueued(pausedRefusal(rec)));
  if (!RESTING.has(rec.state) && rec.state !== 'running')
    // still queued (waiting, regenerating): nothing is queued twice — refused,
    // whatever the hour window says
    return refused(
      'refused-waiting',
      new FeedAlreadyQueued(
        `feed ${feedId} is already queued (status "${engine.view(rec).indexStatus}"): nothing is queued twice; wait until it is done`,
      ),
    );
  if (
    rec.lastAcceptedAt !== null &&
    // an accepted request "in the future" (the sandbox clock was set back since) opens no window:
    // time travel must never lock a feed
    rec.lastAcceptedAt <= now &&
    now - rec.lastAcceptedAt < REINDEX_WINDOW_MS
  ) {
    const wait = rec.lastAcceptedAt + REINDEX_WINDOW_MS - now;
    return refused(
      'refused-hour',
      new ReindexTooSoon(
        `${recentRequest(rec, rec.lastAcceptedAt)}: one re-index per hour; try again in ${humanDuration(wait)}, at ${statusTime(now + wait)} (in the sandbox, advancing its clock skips the wait: POST /_sandbox/clock {"advance":"PT1H"}, or +1 h on the Feeds board)`,
        Math.ceil(wait / 1000),
      ),
    );
  }
  if (input === 'upload' && req.method === 'PUT' && !stash.get(rec))
    return refused(
      'refused-no-file',
      new NoUploadYet(
        `feed ${feedId} takes uploaded files and none was uploaded yet: POST the file as multipart field feedFile`,
      ),
    );
  return { outcome: rec.state === 'running' ? 'paused' : 'accepted', input, refusal: null };
}

/** A request for a paused feed: it is queued, and only a hand resumes it (the sandbox's choice, docs/indexing.md). */
function pausedRefusal(rec: FeedRecord): string {
  const k = `${rec.siteId}/${rec.feedId}`;
  return `feed ${rec.feedId} is paused (the status API reports "waiting"): nothing is queued twice, and a paused index never continues by itself; resume it by hand (POST /_sandbox/feeds/${k}/transition {"to":"running"}, or "running" on the Feeds board), then request again once it is done`;
}

/**
 * The feed and the request that opened the hour's window: running since when for it, or, resting (done,
 * error) since, the request that holds it — nothing is queued any more, only the hour counts.
 */
function recentRequest(rec: FeedRecord, acceptedAt: number): string {
  if (rec.state !== 'running')
    return `feed ${rec.feedId} is "${rec.state}" and cannot be re-indexed yet: a re-index of it was accepted at ${statusTime(acceptedAt)}, less than an hour ago`;
  const since = rec.stepStartedAt ?? acceptedAt;
  return `feed ${rec.feedId} is running (since ${statusTime(since)}, for the request accepted at ${statusTime(acceptedAt)})`;
}

/** The request in the feed's history (with its scorecard), its upload kept, and the feed moved. */
async function recordRequest(
  { engine, stash }: Indexing,
  rec: FeedRecord,
  req: IndexRequest,
  verdict: Verdict,
  now: number,
): Promise<IndexRequestQueued> {
  const scorecard = scoreRequest({
    feedId: rec.feedId,
    now,
    statusRead: engine.deps.db.data.statusReads[rec.siteId],
    outcome: verdict.outcome,
    plainHttp: req.plainHttp,
    fromSandboxUi: req.fromSandboxUi,
  });
  const accepted = !verdict.refusal;
  // the upload's bytes are stored first, under a file of their own, and named in the record: storing
  // the record commits it (a full disk refuses the request and changes nothing, a crash before the
  // record is stored leaves the feed with its previous upload)
  if (accepted && req.upload) await stash.store(rec, req.upload.data, req.upload.name);
  if (accepted) rec.lastAcceptedAt = now;
  const detail = requestDetail(req, verdict);
  engine.addHistory(rec, {
    kind: 'request',
    at: new Date(now).toISOString(),
    cause: 'api',
    detail,
    method: req.method,
    status: req.answeredWith(verdict.refusal),
    accepted,
    requestedBy: req.requestedBy ?? null,
    scorecard,
  });
  moveFeed(engine, rec, req, verdict, detail, now);
  return {
    detail,
    workflow: scorecard.followed ? null : (scorecard.findings[0]?.message ?? null),
  };
}

/** What the feed's history says of the request. */
function requestDetail(req: IndexRequest, { outcome, input, refusal }: Verdict): string {
  if (refusal) return refusal.message;
  const said =
    outcome === 'paused'
      ? `${req.method} while running: the index was paused; resuming it indexes ${input === 'cart' ? 'the cart source' : req.upload ? `upload ${req.upload.name}` : 'the last upload'}`
      : `${req.method} accepted: ${input === 'cart' ? 'reading the cart source' : `indexing ${req.upload ? `upload ${req.upload.name} (${req.upload.data.length} bytes)` : 'the last upload'}`}`;
  const unread = req.unreadBody;
  if (!unread) return said;
  const size = unread.bytes === null ? '' : `, ${unread.bytes} bytes`;
  return `${said}. The body sent with this PUT (${unread.contentType}${size}) was not read: PUT indexes ${input === 'cart' ? 'the cart source' : 'the last upload'}; to index a file, POST it as multipart form field "feedFile"`;
}

/** The state change an accepted request makes: the running index paused, or a resting feed started. */
function moveFeed(
  engine: FeedEngine,
  rec: FeedRecord,
  req: IndexRequest,
  { outcome, input }: Verdict,
  detail: string,
  now: number,
): void {
  // the state may have moved while the upload was being kept
  if (outcome === 'paused' && rec.state === 'running') {
    // a PUT uploads nothing: the index starts again with the upload kept before it
    const what =
      input === 'cart'
        ? 'the cart source'
        : req.upload
          ? 'the file it uploaded'
          : 'the last upload';
    engine.pause(
      rec,
      `a bulk index request (${req.method}) arrived while the feed was running; resume it by hand: the index starts again with ${what}`,
      'api',
      now,
    );
    // An accepted request is never lost: the paused run gives way to the request that paused it, so
    // resuming indexes its file (not the one of before) and tells its requester; the requester of the
    // run it supersedes is told too (supersedeRun carries them), and the history says so.
    engine.supersedeRun(
      rec,
      { cause: 'api', requestedBy: req.requestedBy ?? null, requestedAt: now, input },
      now,
    );
  } else if (outcome === 'accepted' && RESTING.has(rec.state)) {
    engine.start(
      rec,
      { cause: 'api', requestedBy: req.requestedBy ?? null, requestedAt: now, input },
      detail,
      now,
    );
  } else {
    engine.changed(rec);
  }
}
