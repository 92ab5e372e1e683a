// Feed upload by drag-and-drop or file picker, sent through the real `POST /api/index/feed` with basic
// auth, and `PUT` (a cart feed's source, an upload feed's last file), so the sandbox treats it like a
// client's request (only a refused key answers without the Basic challenge, which the browser would take
// over: api/admin.ts). The answer stays on the card, marked out of date once the feed has moved on.
import { useState, type DragEvent } from 'react';
import type { FeedView } from '../../../../shared/indexing';
import { requestIndex, uploadFeed } from '../../api/admin';
import { messageOf, type RawResult } from '../../api/client';
import { DEMO_SECRET_KEY, DEMO_SITE_ID } from '../../../../shared/snippets';
import { desktopApi } from '../../components/hooks';
import { FileInput } from '../../components/common';
import { answerOutdated, historyMark, type HistoryMark } from './answer-age';

const keyStorage = (siteId: string) => `search-sandbox.secretKey.${siteId}`;

function initialKey(siteId: string): string {
  try {
    const saved = localStorage.getItem(keyStorage(siteId));
    if (saved) return saved;
  } catch {
    /* storage may be unavailable; fall through */
  }
  return siteId === DEMO_SITE_ID ? DEMO_SECRET_KEY : '';
}

function failure(err: unknown): Answer {
  return {
    ok: false,
    text: err instanceof Error ? err.message : String(err),
    status: null,
    mark: null,
  };
}

function describe(result: RawResult, feed: FeedView): string {
  const body = result.body as { success?: boolean } | null;
  if (result.ok && body?.success !== false)
    return feed.autopilot
      ? `${result.status}: accepted — the feed waits its turn, then indexes on autopilot.`
      : `${result.status}: accepted — the feed waits: its autopilot is off, so move it on by hand (the state buttons) or turn autopilot on.`;
  const retry = result.retryAfter ? ` (Retry-After: ${result.retryAfter} s)` : '';
  // the sandbox's message says what did not match; the fix is in the page the user is on
  const fix =
    result.status === 401
      ? ` — check the secret key of site ${feed.siteId} (the sandbox config lists it) and send again`
      : '';
  return `${result.status}: ${messageOf(result.body, 'refused')}${retry}${fix}`;
}

/** An answer of the indexing API, with where the feed's history stood when its request was sent. */
interface Answer {
  ok: boolean;
  text: string;
  status: number | null;
  mark: HistoryMark;
}

export function FeedUpload({ feed }: { feed: FeedView }) {
  const [secretKey, setSecretKey] = useState(() => initialKey(feed.siteId));
  const [requestedBy, setRequestedBy] = useState('');
  const [dragging, setDragging] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Answer | null>(null);
  const id = `${feed.siteId}-${feed.id}`;
  const outdated =
    result?.status != null && answerOutdated(feed, result.mark, result.status, result.ok);

  async function send(call: () => Promise<RawResult>) {
    if (!secretKey) {
      setResult({
        ok: false,
        text: `Enter the secret key of site ${feed.siteId} first (it is in the sandbox config).`,
        status: null,
        mark: null,
      });
      return;
    }
    try {
      localStorage.setItem(keyStorage(feed.siteId), secretKey);
    } catch {
      /* remembering the key is a convenience only */
    }
    const mark = historyMark(feed);
    setBusy(true);
    setResult(null);
    try {
      const res = await call();
      setResult({
        ok: res.ok && (res.body as { success?: boolean } | null)?.success !== false,
        text: describe(res, feed),
        status: res.status,
        mark,
      });
    } catch (err) {
      setResult(failure(err));
    } finally {
      setBusy(false);
    }
  }

  const desktop = desktopApi();
  /** Inside the desktop app: the native file dialog; the shell uploads through the same real endpoint. */
  async function uploadWithDialog() {
    if (!desktop) return;
    const mark = historyMark(feed);
    setBusy(true);
    setResult(null);
    try {
      const r = await desktop.uploadFeedFile({
        siteId: feed.siteId,
        feedId: feed.id,
        requestedBy: requestedBy || undefined,
      });
      if (r.outcome === 'sent') {
        const ok =
          r.status >= 200 &&
          r.status < 300 &&
          (r.body as { success?: boolean } | null)?.success !== false;
        setResult({
          ok,
          text: `${r.fileName}: ${describe({ status: r.status, ok, body: r.body, retryAfter: null }, feed)}`,
          status: r.status,
          mark,
        });
      } else if (r.outcome === 'failed')
        setResult({ ok: false, text: r.message, status: null, mark: null });
    } catch (err) {
      setResult(failure(err));
    } finally {
      setBusy(false);
    }
  }

  const upload = (file: File) =>
    send(() =>
      uploadFeed({
        siteId: feed.siteId,
        secretKey,
        feedId: feed.id,
        file,
        requestedBy: requestedBy || undefined,
      }),
    );

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    const file = e.dataTransfer.files[0];
    if (file) void upload(file);
  }

  return (
    <div className="feed-upload" data-testid="feed-upload">
      <div className="upload-fields">
        <label className="field">
          Secret key ({feed.siteId})
          <input
            type="password"
            value={secretKey}
            autoComplete="off"
            onChange={(e) => setSecretKey(e.target.value)}
            data-testid={`feed-secret-${feed.id}`}
          />
        </label>
        <label className="field">
          requestedBy (optional)
          <input
            type="email"
            value={requestedBy}
            placeholder="you@example.com"
            onChange={(e) => setRequestedBy(e.target.value)}
            data-testid={`feed-requested-by-${feed.id}`}
          />
        </label>
      </div>
      <div
        className={`dropzone ${dragging ? 'over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid={`feed-dropzone-${feed.id}`}
      >
        <FileInput
          id={`upload-${id}`}
          accept=".csv,.tsv,.txt,.json,.ndjson,.jsonl,.xml,.gz,.zip"
          disabled={busy}
          testId={`feed-upload-input-${feed.id}`}
          onFile={(file) => void upload(file)}
        />
        <label htmlFor={`upload-${id}`} className="dropzone-label">
          {busy ? (
            <>
              <span className="spinner" aria-hidden="true" /> Sending…
            </>
          ) : (
            <>
              <span>
                <strong>Drop a feed file</strong> or <span className="link">choose one</span>
              </span>
              <span className="small muted">
                CSV, TSV, ndJSON or XML; raw, .gz or .zip; up to 20 MB · POST
                /api/index/feed?feedId={feed.id}
              </span>
            </>
          )}
        </label>
        {desktop && (
          <button
            type="button"
            className="btn small"
            disabled={busy}
            onClick={() => void uploadWithDialog()}
          >
            Open…
          </button>
        )}
        <button
          type="button"
          className="btn small"
          disabled={busy}
          title={
            feed.source.kind === 'cart'
              ? 'PUT /api/index/feed: index the cart source again'
              : 'PUT /api/index/feed: index the file uploaded last again, without sending it'
          }
          data-testid={`feed-put-${feed.id}`}
          onClick={() =>
            void send(() =>
              requestIndex({
                siteId: feed.siteId,
                secretKey,
                feedId: feed.id,
                requestedBy: requestedBy || undefined,
              }),
            )
          }
        >
          Request index (PUT)
        </button>
      </div>
      <div aria-live="polite" className="upload-result">
        {result && (
          <p
            className={`notice small ${outdated ? 'muted' : result.ok ? 'ok' : 'error'}`}
            data-testid={`feed-upload-result-${feed.id}`}
            data-stale={outdated ? 'true' : undefined}
          >
            {result.text}
            {outdated && (
              <strong>
                {' '}
                — out of date: the feed has moved on since (now {feed.state}; its history below says
                how).
              </strong>
            )}
          </p>
        )}
      </div>
    </div>
  );
}
