// One feed on the board: its state with the diagram and hand controls, the autopilot and injected
// faults, the schedule, what the last run found, uploads through the real API, and the history.
import { useState } from 'react';
import type { FeedState, FeedView, ParseSummary } from '../../../../shared/indexing';
import { feedsApi, type FeedPatch } from '../../api/admin';
import { byteSize, fmtDateTime, fmtDuration, fmtRelative, parseTime, plural } from '../../format';
import { store } from '../../state/store';
import { TransitionDiagram } from './TransitionDiagram';
import { FeedUpload } from './FeedUpload';
import { FeedHistory } from './FeedHistory';
import { AT_EARLIER_TIME, feedStateMeaning, servedAtEarlierTime } from './state-names';
import { grouped } from '../../../../shared/text';

const INTERVALS = ['Never', '30m', '1h', '6h', '12h', '24h', '7d'];

function stateTone(state: FeedState): string {
  if (state === 'done' || state === 'regen_done') return 'pass';
  if (state === 'error' || state === 'regen_error') return 'fail';
  if (state === 'paused') return 'warn';
  return 'info';
}

function Schedule({ feed, now }: { feed: FeedView; now: number }) {
  const last = parseTime(feed.lastIndexed);
  const next = parseTime(feed.nextIndexTime);
  const stepEnds = parseTime(feed.stepEndsAt);
  return (
    <dl className="kv" data-testid="feed-schedule">
      <dt>lastIndexed</dt>
      <dd data-testid="feed-last-indexed">
        {feed.lastIndexed ? (
          <>
            <span title={feed.lastIndexed}>{fmtDateTime(last)} UTC</span>{' '}
            {/* indexed on a clock that has gone back since: not "in 23 h", which reads as a run to come */}
            <span className="muted" data-testid="feed-last-indexed-when">
              (
              {last - now >= 1000
                ? `${fmtDuration(last - now)} ahead of the clock`
                : fmtRelative(last, now)}
              )
            </span>
            {/* no run yet in this sandbox: the time is the one the config starts it with (docs/indexing.md) */}
            {feed.lastRun === null && (
              <span className="muted" data-testid="feed-last-indexed-fixture">
                {' '}
                · as the config starts it
              </span>
            )}
          </>
        ) : (
          <span className="muted">never</span>
        )}
      </dd>
      <dt>nextIndexTime</dt>
      <dd data-testid="feed-next-index">
        {feed.intervalMs === null ? (
          <span className="muted">none (interval Never: bulk index requests are refused)</span>
        ) : feed.nextIndexTime ? (
          <>
            <span title={feed.nextIndexTime}>{fmtDateTime(next)} UTC</span>{' '}
            <span className="muted">({fmtRelative(next, now)})</span>
          </>
        ) : (
          <span className="muted">—</span>
        )}
      </dd>
      <dt>Current step</dt>
      <dd>
        {feed.stepEndsAt ? (
          <>
            ends {fmtRelative(stepEnds, now)} <span className="muted">(autopilot)</span>
          </>
        ) : feed.parsing ? (
          <span className="muted">reading the feed file; its length decides the step’s end</span>
        ) : (
          <span className="muted">{feed.autopilot ? 'resting' : 'moves only by hand'}</span>
        )}
      </dd>
    </dl>
  );
}

/** A run is going (queued, regenerating, indexing or paused): lastRun is the one before it. */
function running(feed: FeedView): boolean {
  return !['done', 'error', 'regen_error'].includes(feed.state);
}

/** What the last finished run read and indexed, in one story with its outcome. */
function RunSummary({ feed, run }: { feed: FeedView; run: ParseSummary }) {
  const which = running(feed) ? 'Previous run' : 'Last run';
  const ended = run.finishedAt ? ` (ended ${fmtDateTime(parseTime(run.finishedAt))} UTC)` : '';
  if (run.fileRead === false)
    return (
      <p className="small muted" data-testid="feed-run-summary">
        {which}
        {ended}:{' '}
        {run.outcome === 'regen_error'
          ? 'regeneration failed before a feed file was read'
          : 'failed: no feed file was read'}
        ; nothing indexed.
      </p>
    );
  const failed = run.error !== null;
  return (
    <p className="small muted" data-testid="feed-run-summary">
      {which}
      {ended}
      {failed ? ' failed' : ''}: {run.format ?? 'unknown format'}, {run.encoding},{' '}
      {plural(
        run.products,
        failed ? 'product read' : 'product',
        failed ? 'products read' : undefined,
      )}
      {run.idField && (
        <>
          {' '}
          keyed by <code>{run.idField}</code>
        </>
      )}
      , {byteSize(run.bytes)} decoded
      {run.charsetNote && <span data-testid="feed-charset">; {run.charsetNote}</span>}
      {failed && '; none indexed'}
    </p>
  );
}

/** Which feed's catalog the site's search answers from (the last indexed), beside this feed's own. */
function SearchServes({ feed }: { feed: FeedView }) {
  const served = feed.searchServes;
  if (!served) return null;
  return (
    <p className="small muted" data-testid="feed-search-serves">
      {served.feedId === feed.id
        ? `Search serves this feed's catalog (indexed ${fmtDateTime(parseTime(served.indexedAt))} UTC).`
        : `Search serves feed ${served.feedId}'s catalog (indexed ${fmtDateTime(parseTime(served.indexedAt))} UTC), the site's last indexed${feed.products > 0 ? `; this feed's catalog (${plural(feed.products, 'product')}) is not searched` : ''}.${servedAtEarlierTime(feed) ? ` Feed ${served.feedId}'s was indexed after this one's, ${AT_EARLIER_TIME}.` : ''}`}
    </p>
  );
}

function LastRun({ feed }: { feed: FeedView }) {
  const run = feed.lastRun;
  return (
    <div data-testid="feed-last-run">
      {feed.parsing && (
        <p className="notice small" data-testid="feed-parsing" role="status">
          Indexing: reading the feed file, {byteSize(feed.parsing.bytes)} parsed,{' '}
          {plural(feed.parsing.products, 'product')} so far
        </p>
      )}
      <div className="metric-row">
        <div className="metric">
          <span className="metric-value" data-testid="feed-products">
            {grouped(feed.products)}
          </span>
          <span className="metric-label">products in catalog</span>
        </div>
        <div className="metric">
          <span
            className={`metric-value ${run && run.rowErrorCount ? 'fail-text' : ''}`}
            data-testid="feed-row-errors"
          >
            {run ? grouped(run.rowErrorCount) : '—'}
          </span>
          <span className="metric-label">row errors, last run</span>
        </div>
      </div>
      {run ? (
        <RunSummary feed={feed} run={run} />
      ) : (
        <p className="small muted">Not indexed in this sandbox yet.</p>
      )}
      {run?.error &&
        (running(feed) ? (
          // a run is going: the failure is the previous run's, not the current one's
          <p className="notice small muted" data-testid="feed-run-error" data-previous="true">
            Previous run failed: {run.error}
          </p>
        ) : (
          <p className="notice error small" data-testid="feed-run-error">
            {run.error}
          </p>
        ))}
      <SearchServes feed={feed} />
      {run && run.rowErrors.length > 0 && (
        <details className="row-errors">
          <summary>
            {plural(run.rowErrorCount, 'row error')}
            {run.rowErrorCount > run.rowErrors.length && ` (first ${run.rowErrors.length} shown)`}
          </summary>
          <ul>
            {run.rowErrors.map((e, i) => (
              <li key={i}>
                <span className="mono muted">line {e.line}</span> {e.message}
              </li>
            ))}
          </ul>
        </details>
      )}
      {run?.rowWarnings && run.rowWarnings.length > 0 && (
        <details className="row-errors" data-testid="feed-row-warnings">
          <summary>
            {plural(run.rowWarningCount ?? run.rowWarnings.length, 'row warning')}
            {(run.rowWarningCount ?? 0) > run.rowWarnings.length &&
              ` (first ${run.rowWarnings.length} shown)`}
          </summary>
          <ul>
            {run.rowWarnings.map((e, i) => (
              <li key={i}>
                <span className="mono muted">line {e.line}</span> {e.message}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

export function FeedCard({ feed, now }: { feed: FeedView; now: number }) {
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'error' | 'ok'; text: string } | null>(null);
  const key = `${feed.siteId}-${feed.id}`;

  async function act(action: () => Promise<FeedView | null>, success?: string) {
    setBusy(true);
    setNotice(null);
    try {
      const updated = await action();
      if (updated) store.upsertFeed(updated);
      if (success) setNotice({ tone: 'ok', text: success });
    } catch (err) {
      setNotice({ tone: 'error', text: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  }

  const move = (to: FeedState) => act(() => feedsApi.transition(feed, to), `Moved to ${to}.`);
  const patch = (p: FeedPatch) => act(() => feedsApi.patch(feed, p));

  return (
    <article
      className="card feed-card"
      data-testid={`feed-card-${feed.id}`}
      data-state={feed.state}
      aria-labelledby={`feed-title-${key}`}
    >
      <header className="card-head">
        <div className="feed-title">
          <h2 id={`feed-title-${key}`}>{feed.name}</h2>
          <span className="muted small">
            feed <span className="mono">{feed.id}</span> · site{' '}
            <span className="mono">{feed.siteId}</span> ·{' '}
            {feed.source.kind === 'cart' ? 'cart integration (PUT)' : 'file upload (POST)'}
            {feed.regeneration && ' · external regeneration'}
          </span>
        </div>
        <div className="feed-state">
          <span className={`badge big ${stateTone(feed.state)}`} data-testid="feed-state">
            {feed.state}
          </span>
          <span className="small" data-testid="feed-state-meaning">
            {feedStateMeaning(feed)}
          </span>
          {feed.indexStatus !== feed.state && (
            <span className="small muted">status API reports “{feed.indexStatus}”</span>
          )}
          {/* an armed fault is visible where the state is, not only as a ticked box further down */}
          {(feed.inject.nextIndexFails || feed.inject.regenerationFails) && (
            <span
              className="badge warn"
              data-testid="feed-fault-armed"
              title="Faults → untick to disarm"
            >
              armed:{' '}
              {[
                feed.inject.nextIndexFails && 'next index fails',
                feed.inject.regenerationFails && 'regeneration fails',
              ]
                .filter(Boolean)
                .join(', ')}
            </span>
          )}
        </div>
      </header>
      <div className="feed-body">
        <div className="feed-col">
          {/* the reason in full, unless the state's label above already says all of it */}
          {feed.paused && feed.pausedReason && feed.pausedReason !== feedStateMeaning(feed) && (
            <p className="notice warn small" data-testid="feed-paused-reason">
              {feed.pausedReason}
            </p>
          )}
          <TransitionDiagram
            state={feed.state}
            allowed={feed.allowedTransitions}
            regeneration={feed.regeneration}
            busy={busy}
            idPrefix={key}
            onPick={(to) => void move(to)}
          />
          <div className="btn-row" role="group" aria-label="Move by hand">
            <span className="small muted">Move by hand:</span>
            {feed.allowedTransitions.length === 0 && (
              <span className="small muted" data-testid="feed-no-moves">
                {feed.intervalMs === null && ['done', 'error', 'regen_error'].includes(feed.state)
                  ? 'none: interval Never, so nothing starts this feed, not even a hand; pick an interval to index it'
                  : `nothing allowed from ${feed.state}`}
              </span>
            )}
            {feed.allowedTransitions.map((to) => (
              <button
                key={to}
                type="button"
                className="btn small primary"
                disabled={busy}
                data-testid={`move-${to}`}
                onClick={() => void move(to)}
              >
                → {to}
              </button>
            ))}
          </div>
          <div className="feed-notice" aria-live="polite">
            {notice && (
              <p
                className={`notice small ${notice.tone === 'error' ? 'error' : 'ok'}`}
                data-testid={notice.tone === 'error' ? 'feed-refused' : 'feed-moved'}
                role={notice.tone === 'error' ? 'alert' : undefined}
              >
                {notice.text}
              </p>
            )}
          </div>
          <fieldset className="feed-controls" disabled={busy}>
            <legend className="visually-hidden">Autopilot and faults</legend>
            <label className="toggle">
              <input
                type="checkbox"
                checked={feed.autopilot}
                data-testid="feed-autopilot"
                onChange={(e) => void patch({ autopilot: e.target.checked })}
              />
              Autopilot <span className="muted small">(timed progress; off: only hand moves)</span>
              <ByHand feed={feed} setting="autopilot" />
            </label>
            <label className="toggle">
              <input
                type="checkbox"
                checked={feed.inject.nextIndexFails}
                data-testid="feed-inject-index"
                onChange={(e) => void patch({ inject: { nextIndexFails: e.target.checked } })}
              />
              Next index fails
            </label>
            {feed.regeneration && (
              <label className="toggle">
                <input
                  type="checkbox"
                  checked={feed.inject.regenerationFails}
                  data-testid="feed-inject-regen"
                  onChange={(e) => void patch({ inject: { regenerationFails: e.target.checked } })}
                />
                Regeneration fails
              </label>
            )}
            <label className="toggle">
              Interval
              <select
                value={feed.interval}
                data-testid="feed-interval"
                onChange={(e) => void patch({ interval: e.target.value })}
              >
                {[...new Set([feed.interval, ...INTERVALS])].map((i) => (
                  <option key={i} value={i}>
                    {i === 'Never' ? 'Never (requests refused)' : `every ${i}`}
                  </option>
                ))}
              </select>
              <ByHand feed={feed} setting="interval" />
            </label>
          </fieldset>
        </div>
        <div className="feed-col">
          <Schedule feed={feed} now={now} />
          <LastRun feed={feed} />
          <FeedUpload feed={feed} />
        </div>
      </div>
      <FeedHistory feed={feed} now={now} />
    </article>
  );
}

/** A setting set by hand, away from the config's: says so, and what the config says. */
function ByHand({ feed, setting }: { feed: FeedView; setting: 'interval' | 'autopilot' }) {
  const configured = feed.configured[setting];
  if (feed[setting] === configured) return null;
  const shown =
    setting === 'interval' ? String(configured) : configured ? 'autopilot on' : 'autopilot off';
  return (
    <span
      className="muted small"
      data-testid={`feed-${setting}-by-hand`}
      title="Set by hand: it stays after a restart until the config file's value is edited, which then applies"
    >
      set by hand; the config says {shown}
    </span>
  );
}
