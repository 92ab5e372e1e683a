// The outbox: the status e-mails the sandbox produced for `requestedBy`, the last written first, with the
// text a client's mailbox would receive and whether SMTP delivery was configured and worked. Each is dated
// on the sandbox clock: one written while it was advanced says so once the clock has gone back, as the
// feeds' history does, so dates out of order read as the clock's doing.
import type { OutboxMessage } from '../../../shared/indexing';
import { ClockPanel, useSandboxNow } from '../components/ClockControl';
import { AheadOfClock } from '../components/AheadOfClock';
import { Empty, Loaded, ViewHeader } from '../components/common';
import { fmtDateTime, parseTime } from '../format';
import { navigate } from '../router';
import { useSandbox } from '../state/store';

const OUTCOME_TONE: Record<OutboxMessage['outcome'], string> = {
  done: 'pass',
  error: 'fail',
  regen_error: 'fail',
};

function Delivery({ delivery }: { delivery: OutboxMessage['delivery'] }) {
  const tone = delivery.status === 'sent' ? 'pass' : delivery.status === 'failed' ? 'fail' : '';
  const label =
    delivery.status === 'not-configured' ? 'kept locally (no SMTP)' : `SMTP: ${delivery.status}`;
  return (
    <span className={`badge ${tone}`} title={delivery.error ?? undefined}>
      {label}
    </span>
  );
}

export function OutboxView({ mailId }: { mailId: string | null }) {
  const outbox = useSandbox((s) => s.outbox);
  const now = useSandboxNow();
  const load = useSandbox((s) => s.load.outbox);
  const messages = outbox.slice().reverse();
  const selected = messages.find((m) => m.id === mailId) ?? messages[0] ?? null;

  return (
    <div className="page-scroll" data-testid="outbox-view">
      <div className="page-wide">
        <ViewHeader title="Outbox">
          When an index run that named <code>requestedBy</code> ends, the sandbox writes the status
          e-mail here (and sends it when SMTP is configured).
        </ViewHeader>
        <ClockPanel idPrefix="outbox" compact />
        <Loaded state={load} what="the outbox">
          {messages.length === 0 ? (
            <Empty title="No e-mails yet" testId="outbox-empty">
              <p>
                Request an index with <code>&amp;requestedBy=you@example.com</code> (or fill in
                requestedBy on the Feeds screen); the e-mail appears when the run ends.
              </p>
            </Empty>
          ) : (
            <div className="split">
              <ul className="mail-list" aria-label="E-mails" data-testid="outbox-list">
                {messages.map((m) => (
                  <li key={m.id}>
                    <button
                      type="button"
                      className="mail-item"
                      aria-current={selected?.id === m.id ? 'true' : undefined}
                      onClick={() => navigate({ view: 'outbox', mailId: m.id }, true)}
                    >
                      <span className="mail-line">
                        <span className={`badge ${OUTCOME_TONE[m.outcome]}`}>{m.outcome}</span>
                        <span className="clamp-2 strong" title={m.subject}>
                          {m.subject}
                        </span>
                      </span>
                      <span className="mail-line small muted">
                        <span className="ellipsis">to {m.to}</span>
                        <span className="mono nowrap">{fmtDateTime(parseTime(m.at))}</span>
                      </span>
                      <AheadOfClock
                        at={parseTime(m.at)}
                        now={now}
                        testId="mail-ahead"
                        what="written"
                      />
                    </button>
                  </li>
                ))}
              </ul>
              {selected && (
                <article className="card mail" data-testid="outbox-message">
                  <header className="card-head">
                    <h2>{selected.subject}</h2>
                    <Delivery delivery={selected.delivery} />
                  </header>
                  <div className="card-body">
                    <dl className="kv small">
                      <dt>From</dt>
                      <dd>{selected.from}</dd>
                      <dt>To</dt>
                      <dd>{selected.to}</dd>
                      <dt>Sandbox time</dt>
                      <dd>
                        <span className="mono">{fmtDateTime(parseTime(selected.at))} UTC</span>
                        <AheadOfClock
                          at={parseTime(selected.at)}
                          now={now}
                          testId="mail-ahead"
                          what="written"
                        />
                      </dd>
                      <dt>Feed</dt>
                      <dd>
                        <a href="#/feeds">
                          {selected.siteId} / {selected.feedId}
                        </a>
                      </dd>
                    </dl>
                    <pre className="mail-text">{selected.text}</pre>
                    {selected.delivery.error && (
                      <p className="notice error small">{selected.delivery.error}</p>
                    )}
                  </div>
                </article>
              )}
            </div>
          )}
        </Loaded>
      </div>
    </div>
  );
}
