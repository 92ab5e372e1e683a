// The event inspector: one recorded tracking request in full — why it was refused or rejected, the body
// pretty-printed with its validation errors in place, receive time against context.timestamp, who sent
// it, and "copy as curl".
import { useEffect, useRef, useState } from 'react';
import { admin, ApiError } from '../../api/client';
import type { RecordedEvent } from '../../api/types';
import { CopyButton, KindLabel, ResponseKind } from '../../components/common';
import { isTimelineEndpoint, isWidgetKind } from '../../../../shared/kinds';
import { fmtDateTime, fmtDuration, parseTime } from '../../format';
import { shellQuote } from '../../../../shared/snippets';
import { clockMovedNote, timestampDifferenceMs } from '../../../../shared/clock-offset';
import { useSandbox } from '../../state/store';
import { JsonView } from './JsonView';
import { UpstreamSection } from './UpstreamSection';
import { Rejection } from './Rejection';
import { eventMethod } from './event-method';
import { grouped } from '../../../../shared/text';

/**
 * The request as a curl command a developer can replay (same method, path, content type, origin and
 * body): a POST always with its Content-Type (the client's text/plain when none was recorded), another
 * method (OPTIONS, GET) with only the headers and body it was sent with.
 */
export function eventCurl(origin: string, e: RecordedEvent): string {
  const method = eventMethod(e);
  const url = shellQuote(`${origin}${e.path}`);
  const post = method === 'POST';
  // HEAD with -X waits for a body that never comes: curl's --head sends it and stops at the headers
  const parts = [
    method === 'HEAD'
      ? `curl --head ${url}`
      : `curl -X ${/^[A-Z]+$/.test(method) ? method : shellQuote(method)} ${url}`,
  ];
  if (post || e.contentType !== undefined)
    parts.push(
      `  -H ${shellQuote(`Content-Type: ${e.contentType ?? 'text/plain;charset=UTF-8'}`)}`,
    );
  if (e.origin) parts.push(`  -H ${shellQuote(`Origin: ${e.origin}`)}`);
  if (e.body !== null && e.body !== undefined) {
    parts.push(
      `  --data-raw ${shellQuote(typeof e.body === 'string' ? e.body : JSON.stringify(e.body))}`,
    );
  }
  return parts.join(' \\\n');
}

function contextTimestamp(e: RecordedEvent): string | null {
  const ctx =
    (e.body && typeof e.body === 'object'
      ? (e.body as { context?: { timestamp?: unknown } }).context
      : undefined) ?? undefined;
  return typeof ctx?.timestamp === 'string' ? ctx.timestamp : null;
}

/** The event from the store, or from the admin API when it is older than what the UI keeps. */
function useRecordedEvent(id: string): { event: RecordedEvent | null; error: string | null } {
  const fromStore = useSandbox((s) => s.eventsById.get(id) ?? null);
  const [fetched, setFetched] = useState<{
    id: string;
    event: RecordedEvent | null;
    error: string | null;
  } | null>(null);
  useEffect(() => {
    if (fromStore) return;
    let cancelled = false;
    admin('event', { params: { id } })
      .then((event) => !cancelled && setFetched({ id, event, error: null }))
      .catch((err: unknown) => {
        if (cancelled) return;
        const gone = err instanceof ApiError && err.status === 404;
        setFetched({
          id,
          event: null,
          error: gone
            ? `${id} is no longer recorded: ${err.message}`
            : err instanceof Error
              ? err.message
              : String(err),
        });
      });
    return () => {
      cancelled = true;
    };
  }, [id, fromStore]);
  if (fromStore) return { event: fromStore, error: null };
  if (fetched?.id === id) return { event: fetched.event, error: fetched.error };
  return { event: null, error: null };
}

export function EventInspector({ eventId, onClose }: { eventId: string; onClose(): void }) {
  const { event, error } = useRecordedEvent(eventId);
  const panel = useRef<HTMLElement>(null);

  // Opening moves focus into the panel; closing gives it back to what opened it (a marker, a row).
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    panel.current?.focus({ preventScroll: true });
    return () => {
      if (opener?.isConnected) opener.focus({ preventScroll: true });
    };
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <aside
      ref={panel}
      tabIndex={-1}
      className="inspector"
      aria-label="Event inspector"
      data-testid="inspector"
      data-event-id={eventId}
    >
      <header className="inspector-head">
        {event ? (
          <>
            <KindLabel kind={event.event} rejected={!event.accepted} />
            {isTimelineEndpoint(event.category, event.event) && (
              <ResponseKind kind={event.category} tag={widgetTag(event)} />
            )}
          </>
        ) : (
          <span className="mono">{eventId}</span>
        )}
        {event && (
          <span className={`badge ${event.accepted ? 'pass' : 'fail'}`}>{event.status}</span>
        )}
        <span className="spacer" />
        {event && (
          <CopyButton
            text={eventCurl(location.origin, event)}
            label="Copy as curl"
            testId="copy-curl"
          />
        )}
        <button
          type="button"
          className="btn small ghost"
          onClick={onClose}
          aria-label="Close the inspector"
          data-testid="inspector-close"
        >
          ✕
        </button>
      </header>
      <div className="inspector-body">
        {!event && !error && <p className="muted">Loading {eventId}…</p>}
        {error && <p className="notice error">{error}</p>}
        {event && <InspectorDetails event={event} />}
      </div>
    </aside>
  );
}

/** data.tag of a recommendations or bundles event, as sent. */
function widgetTag(event: RecordedEvent): string | undefined {
  if (!isWidgetKind(event.category)) return undefined;
  const body = event.body as { data?: { tag?: unknown } } | null;
  return typeof body?.data?.tag === 'string' ? body.data.tag : undefined;
}

function InspectorDetails({ event }: { event: RecordedEvent }) {
  const received = parseTime(event.receivedAt);
  const stamp = contextTimestamp(event);
  const stampMs = parseTime(stamp);
  // as timestamp-skew judges it: from the sandbox receive time, or from the real one when the clock had
  // been moved, whichever is nearer
  const offset = event.clockOffsetMs ?? 0;
  const skew = Number.isFinite(stampMs) ? timestampDifferenceMs(received, stampMs, offset) : NaN;
  const againstReal = skew !== received - stampMs;
  return (
    <>
      <section className="inspector-section">
        <h3 className="section-title">Time</h3>
        <dl className="kv">
          <dt>Received (sandbox)</dt>
          <dd className="mono" data-testid="received-at">
            {fmtDateTime(received, true)}
          </dd>
          {offset !== 0 && (
            <>
              <dt>Sandbox clock</dt>
              <dd data-testid="clock-moved">
                {clockMovedNote(offset)}{' '}
                <span className="muted">
                  (received <span className="mono">{fmtDateTime(received - offset, true)}</span>{' '}
                  real time)
                </span>
              </dd>
            </>
          )}
          <dt>context.timestamp</dt>
          <dd className="mono" data-testid="context-timestamp">
            {stamp ?? <span className="muted">not sent</span>}
            {stamp && !Number.isFinite(stampMs) && (
              <span className="fail-text"> (not RFC 3339)</span>
            )}
          </dd>
          <dt>Difference</dt>
          <dd>
            {Number.isFinite(skew) ? (
              <span className={Math.abs(skew) > 5 * 60_000 ? 'warn-text' : ''}>
                {Math.abs(skew) < 1
                  ? 'none'
                  : skew > 0
                    ? `sent ${fmtDuration(skew)} before it arrived`
                    : `timestamp ${fmtDuration(skew)} after arrival (client clock ahead?)`}
                {againstReal && ' (real time: the sandbox clock was moved)'}
              </span>
            ) : (
              '—'
            )}
          </dd>
        </dl>
      </section>
      <section className="inspector-section">
        <h3 className="section-title">Request</h3>
        <dl className="kv">
          <dt>Path</dt>
          <dd className="mono" data-testid="event-request-line">
            {eventMethod(event)} {event.path}
          </dd>
          <dt>Event id</dt>
          <dd className="mono">
            {event.id} <span className="muted">(seq {event.seq})</span>
          </dd>
          <dt>Content type</dt>
          <dd className="mono">{event.contentType ?? '—'}</dd>
          <dt>Origin</dt>
          <dd className="mono" data-testid="event-origin">
            {event.origin ?? <span className="muted">none (not sent by a browser page)</span>}
          </dd>
          <dt>User agent</dt>
          <dd className="mono small" data-testid="event-user-agent">
            {event.userAgent ?? '—'}
          </dd>
        </dl>
      </section>
      <Rejection event={event} />
      <UpstreamSection event={event} />
      <section className="inspector-section">
        <div className="section-head">
          <h3 className="section-title">Body</h3>
          <CopyButton
            text={typeof event.body === 'string' ? event.body : JSON.stringify(event.body, null, 2)}
            label="Copy body"
          />
        </div>
        {event.bodyTruncated && (
          <p className="muted">
            The first {grouped(event.bodyTruncated.kept)} of {grouped(event.bodyTruncated.length)}{' '}
            characters: a rejected body over 64 KiB keeps only its start (the real service drops
            it).
          </p>
        )}
        <JsonView body={event.body} errors={event.errors} />
      </section>
    </>
  );
}
