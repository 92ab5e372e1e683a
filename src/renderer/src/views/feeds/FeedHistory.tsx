// A feed's history, newest first: each move with its cause, and each bulk index request with how it
// measured up against the recommended workflow (check status, request only when done, once an hour).
import { useState } from 'react';
import type { FeedView, HistoryEntry } from '../../../../shared/indexing';
import { fmtDateTime, parseTime } from '../../format';

const CAUSE_LABEL: Record<HistoryEntry['cause'], string> = {
  api: 'API request',
  scheduler: 'schedule / autopilot',
  hand: 'by hand',
  fault: 'injected fault',
};

function Entry({ entry }: { entry: HistoryEntry }) {
  const at = fmtDateTime(parseTime(entry.at));
  if (entry.kind === 'transition') {
    return (
      <li className="history-entry" data-kind="transition">
        <span className="mono muted history-time">{at}</span>
        <span className="history-what">
          <span className="mono">{entry.from}</span> →{' '}
          <span className="mono strong">{entry.to}</span>
        </span>
        <span className={`badge cause-${entry.cause}`}>{CAUSE_LABEL[entry.cause]}</span>
        {entry.detail && <span className="history-detail muted">{entry.detail}</span>}
      </li>
    );
  }
  if (entry.kind === 'note') {
    return (
      <li className="history-entry" data-kind="note">
        <span className="mono muted history-time">{at}</span>
        <span className="history-what">{entry.detail}</span>
        <span className={`badge cause-${entry.cause}`}>{CAUSE_LABEL[entry.cause]}</span>
      </li>
    );
  }
  const findings = entry.scorecard.findings;
  return (
    <li className="history-entry" data-kind="request">
      <span className="mono muted history-time">{at}</span>
      <span className="history-what">
        <span className="mono">{entry.method} /api/index/feed</span>{' '}
        <span className={`badge ${entry.accepted ? 'pass' : 'fail'}`}>{entry.status}</span>
        {entry.requestedBy && <span className="muted small"> requestedBy {entry.requestedBy}</span>}
      </span>
      <span
        className={`badge ${entry.scorecard.followed ? 'pass' : 'warn'}`}
        title="Did the client follow the recommended workflow?"
      >
        {entry.scorecard.followed
          ? 'workflow ok'
          : `${findings.length} workflow finding${findings.length === 1 ? '' : 's'}`}
      </span>
      {entry.detail && <span className="history-detail muted">{entry.detail}</span>}
      {findings.length > 0 && (
        <ul className="workflow-findings" data-testid="workflow-findings">
          {findings.map((f, i) => (
            <li key={i}>
              <code>{f.flag}</code> {f.message}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

export function FeedHistory({ feed }: { feed: FeedView }) {
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
            <Entry key={`${e.at}-${entries.length - i}`} entry={e} />
          ))}
        </ol>
      )}
    </details>
  );
}
