// "Watching for traffic": a live list of what reaches the sandbox while the screen is open, the way a
// payment provider's CLI listens for webhooks. Until something arrives it says it is waiting, and how to
// send the first request; each arrival shows site, endpoint, verdict (with the first error) and links.
import type { ReactNode } from 'react';
import { KindShape } from '../../components/common';
import { fmtClock, plural } from '../../format';
import { pageProblemText, type Arrival, type Watch } from '../../state/arrivals';
import { useSandbox } from '../../state/store';
import { RefusalExplanation } from '../../components/RefusalExplanation';

function ArrivalRow({ a, onShowFeed }: { a: Arrival; onShowFeed?: (feedId: number) => void }) {
  const event = a.what.split('/')[1] ?? a.what;
  return (
    <li
      className="arrival"
      data-testid="live-row"
      data-kind={a.kind}
      data-accepted={a.accepted ? 'true' : 'false'}
    >
      <span className="mono muted arrival-time">{fmtClock(a.at)}</span>
      <code className="arrival-site">{a.siteId || '—'}</code>
      <span className="arrival-what mono">
        {a.kind === 'beacon' && (
          <svg
            className="kind-glyph"
            width="14"
            height="14"
            viewBox="-7 -7 14 14"
            aria-hidden="true"
          >
            <KindShape kind={event} size={10} />
          </svg>
        )}
        {a.what}
      </span>
      <span
        className={`badge ${a.accepted ? 'pass' : 'fail'}`}
        data-testid="live-verdict"
        title={`HTTP ${a.status}`}
      >
        {a.accepted ? 'accepted' : 'rejected'} {a.status}
      </span>
      <span className={`arrival-message ${a.accepted ? 'muted' : 'error'}`}>
        {a.pageProblem && (
          <span
            className={`badge page-verdict ${a.pageProblem.verdict}`}
            data-testid="live-page-problem"
            title="the service accepts the event, but the page it belongs to breaks tracking rules"
          >
            {pageProblemText(a.pageProblem)}
          </span>
        )}
        {a.message}
        {a.workflow && <span className="warn-text"> · workflow: {a.workflow}</span>}
      </span>
      <span className="arrival-links">
        {a.timelineHref && (
          <a href={a.timelineHref} data-testid="live-timeline-link">
            timeline
          </a>
        )}
        {onShowFeed && a.feedId !== null ? (
          <button
            type="button"
            className="link-button"
            data-testid="live-detail-link"
            onClick={() => onShowFeed(a.feedId!)}
          >
            show feed {a.feedId}
          </button>
        ) : (
          <a href={a.detailHref} data-testid="live-detail-link">
            {a.detailLabel}
          </a>
        )}
      </span>
      {a.explained && (
        <RefusalExplanation explained={a.explained} className="arrival-explanation" />
      )}
    </li>
  );
}

/**
 * The panel: `waiting` is the line shown until the first arrival (e.g. "Waiting for the first event
 * from your storefront…"), `hint` says how to send one, `earlier` mentions what was there before.
 */
export function TrafficWatch({
  title,
  watch,
  waiting,
  hint,
  earlier,
  testId,
  onShowFeed,
}: {
  title: string;
  watch: Watch;
  waiting: string;
  hint: ReactNode;
  earlier: (n: number) => ReactNode;
  testId: string;
  /** on the feed board: index rows scroll to their feed's card instead of linking to the board */
  onShowFeed?: (feedId: number) => void;
}) {
  const connection = useSandbox((s) => s.connection.state);
  const live = connection === 'live';
  const { arrivals, total, before } = watch;
  return (
    <section
      className="card traffic-watch"
      data-testid={testId}
      data-state={arrivals.length ? 'receiving' : 'waiting'}
      aria-labelledby={`${testId}-title`}
    >
      <div className="card-head">
        <h2 id={`${testId}-title`} className="section-title traffic-title">
          {/* it pulses once per arrival (a new element each time), and is still while it listens: an
              endless pulse repainted the page 60 times a second, ~13% of a core for a screen left open */}
          <span
            key={total}
            className="watch-dot"
            data-live={live ? 'true' : 'false'}
            data-pulse={live && total > 0 ? 'true' : 'false'}
            aria-hidden="true"
          />
          {title}
        </h2>
        <span className="small muted" role="status" data-testid={`${testId}-count`}>
          {!live
            ? 'not connected: arrivals show again once the live stream is back'
            : total
              ? `${plural(total, 'arrival')} since you opened this screen`
              : 'listening'}
        </span>
      </div>
      <div className="card-body">
        {arrivals.length === 0 ? (
          <div className="watch-waiting" data-testid={`${testId}-waiting`}>
            {/* with history already there, "waiting for the first" would be untrue: say what is new */}
            <p className="watch-waiting-line">
              {!watch.ready
                ? 'Loading…'
                : before > 0
                  ? 'Nothing new since you opened this screen: waiting for the next one…'
                  : waiting}
            </p>
            {before > 0 && <p className="small muted">{earlier(before)}</p>}
            <p className="small muted">{hint}</p>
          </div>
        ) : (
          <ol className="arrival-list" aria-live="polite">
            {arrivals.map((a) => (
              <ArrivalRow key={a.key} a={a} onShowFeed={onShowFeed} />
            ))}
          </ol>
        )}
        {total > arrivals.length && (
          <p className="small muted">
            {plural(total - arrivals.length, 'earlier arrival')} not shown:{' '}
            <a href="#/requests">Requests</a> lists every tracking request.
          </p>
        )}
      </div>
    </section>
  );
}
