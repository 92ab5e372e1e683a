// Why a request was not accepted, headed by what kind of no it was: refused before its body was read (a
// 404 path, a 405 method, a 413 size, a 415 Content-Type), or a body read and failed by validation (400).
import type { RecordedEvent } from '../../api/types';
import { isRefusal, refusalExplained, REFUSALS } from '../../../../shared/events';
import { RefusalExplanation } from '../../components/RefusalExplanation';

function title(event: RecordedEvent): string {
  if (isRefusal(event)) return `Refused: ${event.status} ${REFUSALS.get(event.status)}`;
  const n = event.errors.length;
  return `Rejected: ${n === 1 ? '1 validation error' : `${n} validation errors`}`;
}

export function Rejection({ event }: { event: RecordedEvent }) {
  if (event.errors.length === 0) return null;
  const refused = isRefusal(event);
  const explained = refused ? refusalExplained(event) : null;
  return (
    <section className="inspector-section">
      <h3
        className="section-title"
        data-testid="rejection-title"
        data-refused={refused ? 'true' : 'false'}
      >
        {title(event)}
      </h3>
      {refused && (
        <p className="muted">
          The service refused the request itself before reading its body, so the body was not
          validated.
        </p>
      )}
      <ul className="error-list" data-testid={refused ? 'refusal-reasons' : 'validation-errors'}>
        {event.errors.map((e, i) => (
          <li key={i}>
            {e.path && <code>{e.path}</code>} {e.message}
          </li>
        ))}
      </ul>
      {explained && <RefusalExplanation explained={explained} />}
    </section>
  );
}
