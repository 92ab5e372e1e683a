// The inspector's "Real service" section: what the real beacon service answered when the event was
// forwarded (accounts[].tracking.forward), beside the sandbox's own verdict, ready to copy into a bug report.
import type { RecordedEvent, UpstreamAnswer } from '../../api/types';
import { CopyButton } from '../../components/common';
import { fmtDateTime, parseTime } from '../../format';
import { eventMethod } from './event-method';
import { JsonView } from './JsonView';

const OUTCOME: Record<UpstreamAnswer['outcome'], { label: string; cls: string }> = {
  accepted: { label: 'accepted', cls: 'pass' },
  rejected: { label: 'rejected', cls: 'fail' },
  unavailable: { label: 'no verdict', cls: 'warn' },
  'not-sent': { label: 'not sent', cls: 'warn' },
};

/** Both verdicts side by side; null when the real service gave none (nothing to compare). */
function comparison(event: RecordedEvent, up: UpstreamAnswer): string | null {
  if (up.outcome !== 'accepted' && up.outcome !== 'rejected') return null;
  const theirs = up.outcome === 'accepted';
  if (theirs === event.accepted) return 'Both agree.';
  return `They disagree: the sandbox ${event.accepted ? 'accepted' : 'rejected'} this event and the real service ${theirs ? 'accepted' : 'rejected'} it (finding upstream-disagrees).`;
}

function report(event: RecordedEvent, up: UpstreamAnswer): string {
  return [
    `Endpoint: ${eventMethod(event)} ${event.path} (${event.contentType ?? 'no content type'})`,
    `Sandbox: ${event.status} ${event.accepted ? '{"success":true}' : JSON.stringify(event.errors.map((e) => e.message))}`,
    `Real service (${up.url}): ${up.status ?? '—'} ${typeof up.body === 'string' ? up.body : JSON.stringify(up.body)}`,
    `Body: ${typeof event.body === 'string' ? event.body : JSON.stringify(event.body)}`,
  ].join('\n');
}

export function UpstreamSection({ event }: { event: RecordedEvent }) {
  const up = event.upstream;
  if (!up) return null;
  const outcome = OUTCOME[up.outcome];
  const compared = comparison(event, up);
  return (
    <section className="inspector-section" data-testid="upstream">
      <div className="section-head">
        <h3 className="section-title">Real service</h3>
        <CopyButton text={report(event, up)} label="Copy for a bug report" />
      </div>
      <dl className="kv">
        <dt>Answer</dt>
        <dd data-testid="upstream-outcome" data-outcome={up.outcome}>
          <span className={`badge ${outcome.cls}`}>{outcome.label}</span>{' '}
          <span className="mono">{up.status ?? '—'}</span>
          {up.error && <span className="muted"> · {up.error}</span>}
        </dd>
        <dt>Sent to</dt>
        <dd className="mono small">{up.url}</dd>
        <dt>Answered</dt>
        <dd className="mono">
          {fmtDateTime(parseTime(up.at), true)}
          {up.ms !== null && <span className="muted"> · {up.ms} ms</span>}
        </dd>
      </dl>
      {compared && (
        <p
          className={`notice small ${compared.startsWith('Both') ? 'ok' : 'error'}`}
          data-testid="upstream-comparison"
        >
          {compared}
        </p>
      )}
      {up.body !== null && <JsonView body={up.body} errors={[]} />}
    </section>
  );
}
