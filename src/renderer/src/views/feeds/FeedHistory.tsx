// A feed's history, newest first: each move with its cause and what the state means, and each bulk index
// request with how it measured up against the recommended workflow (check status, request only when done,
// once an hour), its notes folded until asked for. Entries keep the sandbox time they happened at: after the
// clock went back (reset to real time), those recorded on the advanced clock say they are ahead of it.
import { useState } from 'react';
import type { FeedView, HistoryEntry } from '../../../../shared/indexing';
import { fmtDateTime, parseTime, plural } from '../../format';
import { AheadOfClock } from '../../components/AheadOfClock';
import { transitionMeaning } from './state-names';

const CAUSE_LABEL: Record<HistoryEntry['cause'], string> = {
  api: 'API request',
  scheduler: 'schedule / autopilot',
  hand: 'by hand',
  fault: 'injected fault',
  sandbox: 'the sandbox',
};

/** What each cause covers, on hover: "the sandbox" is not a person's move nor a fault someone injected. */
const CAUSE_TITLE: Record<HistoryEntry['cause'], string> = {
  api: 'a bulk index request (PUT or POST /api/index/feed)',
  scheduler: "the feed's schedule or its autopilot",
  hand: 'a hand move or a setting changed on the Feeds board or the admin API',
  fault: 'a fault injected on purpose (PATCH … inject)',
  sandbox:
    'the sandbox itself: a restart, the clock going back, a reset to the fixtures, or the data directory',
};

/** The entry's time, and when it lies ahead of the sandbox clock, by how much. */
function When({ entry, now }: { entry: HistoryEntry; now: number }) {
  const at = parseTime(entry.at);
  return (
    <span className="mono muted history-time" title={entry.at}>
      {fmtDateTime(at)}
      <AheadOfClock at={at} now={now} testId="history-ahead" what="recorded" />
    </span>
  );
}

function Entry({ entry, now }: { entry: HistoryEntry; now: number }) {
  if (entry.kind === 'transition') {
    return (
      <li className="history-entry" data-kind="transition" data-to={entry.to}>
        <When entry={entry} now={now} />
        <span className="history-what">
          <span className="mono">{entry.from}</span> →{' '}
          <span className="mono strong">{entry.to}</span>{' '}
          <span className="muted small" data-testid="history-meaning">
            {transitionMeaning(entry)}
          </span>
        </span>
        <span className={`badge cause-${entry.cause}`} title={CAUSE_TITLE[entry.cause]}>
          {CAUSE_LABEL[entry.cause]}
        </span>
        {entry.detail && <span className="history-detail muted">{entry.detail}</span>}
      </li>
    );
  }
  if (entry.kind === 'note') {
    return (
      <li className="history-entry" data-kind="note">
        <When entry={entry} now={now} />
        <span className="history-what">{entry.detail}</span>
        <span className={`badge cause-${entry.cause}`} title={CAUSE_TITLE[entry.cause]}>
          {CAUSE_LABEL[entry.cause]}
        </span>
      </li>
    );
  }
  const findings = entry.scorecard.findings;
  const followed = entry.scorecard.followed;
  // this view's own upload: no status read is asked of it (its note says why)
  const fromBoard = findings.some((f) => f.flag === 'sandbox-ui');
  return (
    <li className="history-entry" data-kind="request">
      <When entry={entry} now={now} />
      <span className="history-what">
        <span className="mono">{entry.method} /api/index/feed</span>{' '}
        <span className={`badge ${entry.accepted ? 'pass' : 'fail'}`}>{entry.status}</span>
        {entry.requestedBy && <span className="muted small"> requestedBy {entry.requestedBy}</span>}
      </span>
      <span
        className={`badge ${followed ? (fromBoard ? 'info' : 'pass') : 'warn'}`}
        data-testid="workflow-badge"
        title={
          fromBoard
            ? 'Sent from this Feeds view: it shows the state itself, so it needs no status read'
            : 'Did the client follow the recommended workflow?'
        }
      >
        {followed
          ? fromBoard
            ? 'Feeds view: not scored'
            : 'workflow ok'
          : 'workflow not followed'}
      </span>
      {entry.detail && <span className="history-detail muted">{entry.detail}</span>}
      {findings.length > 0 && (
        // folded: a note such as plain HTTP on loopback is on every request, and must not shout
        <details className={`workflow-findings ${followed ? 'notes' : ''}`}>
          <summary data-testid="workflow-findings-summary">
            {followed
              ? plural(findings.length, 'workflow note')
              : plural(findings.length, 'workflow finding')}
          </summary>
          <ul data-testid="workflow-findings">
            {findings.map((f, i) => (
              <li key={i}>
                <code>{f.flag}</code> {f.message}
              </li>
            ))}
          </ul>
        </details>
      )}
    </li>
  );
}

export function FeedHistory({ feed, now }: { feed: FeedView; now: number }) {
  const entries = feed.history.slice().reverse();
  // Open by default and only the user closes it: a live entry must never fold the list away.
  const [open, setOpen] = useState(true);
  return (
    <details className="feed-history" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        History <span className="muted small">({entries.length})</span>
      </summary>
      {entries.length === 0 ? (
        <p className="small muted">No moves or requests yet in this sandbox.</p>
      ) : (
        <ol className="history-list" data-testid={`feed-history-${feed.id}`}>
          {entries.map((e, i) => (
            <Entry key={`${e.at}-${entries.length - i}`} entry={e} now={now} />
          ))}
        </ol>
      )}
    </details>
  );
}
