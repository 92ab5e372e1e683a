// One page: who and where, its findings (select one to light up its events), the events on a time
// axis per responseId, and the same events as a table. Updates live as the page receives events.
import { useMemo, useState } from 'react';
import {
  findingCount,
  followingCount,
  followNote,
  foldFindings,
  type PageTimelineDto,
  type TimelineEventDto,
  type TimelineFindingDto,
} from '../../../../shared/timeline';
import { useRuleDetail, useRules } from '../../state/rules';
import {
  CopyButton,
  ErrorBox,
  KindLabel,
  KindShape,
  Loading,
  ResponseKind,
  SeverityBadge,
  VerdictBadge,
} from '../../components/common';
import { fmtClock, fmtDateTime, parseTime, plural, shortId } from '../../format';
import { clockMove } from '../../../../shared/clock-offset';
import { isRefusedPreflight } from '../../../../shared/events';
import { eventTime, PageChart, type TimeBasis } from './PageChart';
import { usePage } from './usePage';
import { ResponseSources } from './ResponseSources';
import { VisitEvents } from './VisitEvents';
import { EventsTable, type EventColumn } from './EventsTable';
import { routeHref } from '../../router';

/** What the provider's client does that the finding's traffic contradicts, with where it was read. */
function ClientBehaviours({ rule }: { rule: string }) {
  const detail = useRuleDetail(rule);
  if (!detail || detail.behaviours.length === 0) return null;
  return (
    <div className="finding-fix small" data-testid="finding-client-behaviour">
      <strong>What the provider’s client does:</strong>
      <ul className="plain-list">
        {detail.behaviours.map((b) => (
          <li key={b.id}>
            {b.invariant}{' '}
            <span className="muted">
              ({b.title}; read in {b.source})
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A finding's name as a screen reader says it: its head, short (its message and fix are its description). */
function findingName(f: TimelineFindingDto, title: string | undefined): string {
  return `${f.severity}, ${f.rule}${title ? `: ${title}` : ''}, ${plural(f.eventCount, 'event')}`;
}

function Findings({
  findings,
  selected,
  onSelect,
}: {
  findings: TimelineFindingDto[];
  selected: string | null;
  onSelect(id: string | null): void;
}) {
  const rules = useRules();
  if (findings.length === 0) {
    return (
      <p className="notice ok small" data-testid="no-findings">
        No findings: this page follows the beacon spec's event order and responseId rules.
      </p>
    );
  }
  // a finding that follows from another (causedBy) is folded under the one that names the cause
  const { leading, following } = foldFindings(findings);
  const item = (f: TimelineFindingDto, cause?: TimelineFindingDto) => {
    const info = rules.get(f.rule);
    const isSelected = selected === f.id;
    const folded = following.get(f.id) ?? [];
    const domId = `finding-${f.id.replace(/[^\w-]/g, '_')}`;
    return (
      <li key={f.id} className={cause ? 'follows' : undefined}>
        {/* the head is the toggle, named short; the message and fix are its description, text beside it
            that a screen reader reads after the name and a reader can select to copy */}
        <div className={`finding ${f.severity}${isSelected ? ' selected' : ''}`}>
          <button
            type="button"
            className="finding-toggle"
            aria-label={findingName(f, info?.title)}
            aria-describedby={`${domId}-message ${domId}-fix`}
            aria-pressed={isSelected}
            onClick={() => onSelect(isSelected ? null : f.id)}
            data-testid="finding"
            data-rule={f.rule}
            data-finding-id={f.id}
            {...(cause && { 'data-caused-by': cause.id })}
          >
            <span className="finding-head">
              <SeverityBadge severity={f.severity} />
              <code className="finding-rule">{f.rule}</code>
              <span className="strong ellipsis">{info?.title}</span>
              <span className="muted small nowrap">{plural(f.eventCount, 'event')}</span>
            </span>
          </button>
          {cause && (
            <span className="small muted" data-testid="finding-follows-from">
              follows from {cause.rule}: fix that first
            </span>
          )}
          {/* the what may be clamped; the fix is never cut off */}
          <span
            id={`${domId}-message`}
            className={`finding-message ${isSelected ? '' : 'clamped'}`}
          >
            {f.message}
          </span>
          <span id={`${domId}-fix`} className="finding-message" data-testid="finding-fix">
            <strong>Fix:</strong> {f.fix}
          </span>
        </div>
        {f.severityFrom && (
          <p className="small muted" data-testid="finding-severity-from">
            {f.severity}
            {f.defaultSeverity && f.defaultSeverity !== f.severity
              ? ` (${f.defaultSeverity} by default)`
              : ''}{' '}
            as set by {f.severityFrom}
          </p>
        )}
        {/* what the spec expects; the fix is the finding's own, above: the rule's general fix may not
            be this message's (a responseId sent wrong is not a render to add) */}
        {isSelected && info && (
          <p className="finding-fix small" data-testid="finding-expected">
            <strong>Expected:</strong> {info.expects}
          </p>
        )}
        {isSelected && <ClientBehaviours rule={f.rule} />}
        {folded.length > 0 && (
          <details className="finding-consequences" data-testid="finding-consequences">
            <summary className="small">
              {plural(folded.length, 'more finding')} {folded.length === 1 ? 'follows' : 'follow'}{' '}
              from this one
            </summary>
            <ul className="finding-list">{folded.map((c) => item(c, f))}</ul>
          </details>
        )}
      </li>
    );
  };
  return (
    <ul className="finding-list" aria-label="Findings" data-testid="findings">
      {leading.map((f) => item(f))}
    </ul>
  );
}

const PAGE_COLUMNS: EventColumn<TimelineEventDto>[] = [
  {
    head: 'Event',
    cell: (e) => (
      <span className="event-cell">
        <button
          type="button"
          className="link-button"
          aria-label={`Inspect ${e.event} #${e.arrival}`}
        >
          <KindLabel kind={e.event} rejected={!e.accepted} />
        </button>
        {isRefusedPreflight(e.status, e.errors[0]) && (
          <span
            className="badge fail"
            title={`A browser's CORS preflight (OPTIONS) for ${e.kind}/${e.event}, refused: the ${e.event} itself was never sent`}
          >
            CORS preflight
          </span>
        )}
        {e.arrivedLate && (
          <span
            className="badge warn"
            title="An event that arrived earlier carries a later timestamp"
          >
            late
          </span>
        )}
      </span>
    ),
  },
  {
    head: 'context.timestamp',
    className: 'mono small',
    cell: (e) =>
      e.timestamp ? fmtClock(parseTime(e.timestamp), true) : <span className="muted">—</span>,
  },
  {
    head: 'Received',
    className: 'mono small',
    cell: (e) => (
      <>
        {fmtClock(parseTime(e.receivedAt), true)}
        {e.clockOffsetMs ? (
          <span
            className="muted"
            data-testid="clock-moved"
            title={`Sandbox time: the sandbox clock was moved ${clockMove(e.clockOffsetMs)} off real time (received ${fmtClock(parseTime(e.receivedAt) - e.clockOffsetMs, true)} real time)`}
          >
            {' '}
            clock {clockMove(e.clockOffsetMs)}
          </span>
        ) : null}
      </>
    ),
  },
  { head: 'Kind', cell: (e) => <ResponseKind kind={e.kind} tag={e.tag} /> },
  {
    head: 'responseId',
    // whole, cut at its start by the column's width: ids a storefront makes often differ only at their end
    className: 'mono small id-end',
    title: (e) => e.responseId,
    cell: (e) => e.responseId || '—',
  },
  {
    head: 'uids',
    className: 'mono small ellipsis',
    title: (e) => e.uids.join(', '),
    cell: (e) =>
      e.uids.length
        ? e.uids.slice(0, 3).join(', ') + (e.uids.length > 3 ? ` +${e.uids.length - 3}` : '')
        : e.redirect
          ? `→ ${e.redirect}`
          : '',
  },
];

/** The URL as a person reads it (`q=hiking jacket`, not `q=hiking%20jacket`); as sent when it cannot be. */
function readableUrl(url: string): string {
  try {
    return decodeURI(url);
  } catch {
    return url;
  }
}

function Header({ page }: { page: PageTimelineDto }) {
  return (
    <header className="page-view-head">
      <div className="page-title-line">
        <VerdictBadge verdict={page.verdict} />
        <span className="badge" data-testid="page-kind">
          {page.pageKind} page
        </span>
        <h2 className="ellipsis" title={page.pageUrl}>
          {page.pageUrl ? readableUrl(page.pageUrl) : '(no pageUrl)'}
        </h2>
      </div>
      <dl className="kv small page-ids">
        <dt>pageLoadId</dt>
        <dd className="mono id-with-copy">
          {page.pageLoadId || '—'}{' '}
          {page.pageLoadId && <CopyButton text={page.pageLoadId} label="Copy" />}
        </dd>
        <dt>session / user</dt>
        <dd className="mono">
          {/* events with no readable sessionId belong to no visit: nothing to link to */}
          {page.sessionId ? (
            <a
              href={routeHref({ view: 'visits', visitKey: `${page.siteId}/${page.sessionId}` })}
              title="The whole visit"
              data-testid="page-visit-link"
            >
              {shortId(page.sessionId, 13)}
            </a>
          ) : (
            <span title="no sessionId: the events belong to no visit" data-testid="page-no-session">
              —
            </span>
          )}{' '}
          / {shortId(page.userId, 13)} <span className="muted">· site {page.siteId}</span>
        </dd>
        <dt>seen</dt>
        <dd className="mono" data-testid="page-seen">
          {fmtDateTime(parseTime(page.firstSeen))} → {fmtClock(parseTime(page.lastSeen))} UTC{' '}
          {page.firstSeen !== null && <span className="muted small">received</span>}
        </dd>
        <dt>counts</dt>
        <dd>
          {plural(page.counts.events, 'event')} ({page.counts.accepted} accepted,{' '}
          <span className={page.counts.rejected ? 'fail-text' : ''}>
            {page.counts.rejected} rejected
          </span>
          ) · {plural(page.counts.responses, 'response')}
          <span className="response-kinds" data-testid="page-kinds">
            {[...new Set(page.responses.map((r) => r.kind))].map((k) => (
              <ResponseKind key={k} kind={k} />
            ))}
          </span>
        </dd>
      </dl>
    </header>
  );
}

export function PageView({
  pageKey,
  selectedEventId,
  onSelectEvent,
  findingId,
  onSelectFinding,
}: {
  pageKey: string;
  selectedEventId: string | null;
  onSelectEvent(id: string | null): void;
  /** the finding picked (in the URL, so a link can point at it) */
  findingId: string | null;
  onSelectFinding(id: string | null): void;
}) {
  const [load, retry] = usePage(pageKey);
  const setFindingId = onSelectFinding;
  const [basis, setBasis] = useState<TimeBasis>('timestamp');
  const page = load.phase === 'ready' ? load.page : null;
  const finding = page?.findings.find((f) => f.id === findingId) ?? null;
  const highlighted = useMemo(() => (finding ? new Set(finding.eventIds) : null), [finding]);
  const events = useMemo(() => {
    const list = page ? page.responses.flatMap((r) => r.events) : [];
    return list.sort((a, b) => eventTime(a, basis) - eventTime(b, basis) || a.arrival - b.arrival);
  }, [page, basis]);

  if (load.phase === 'loading') return <Loading what="the page" />;
  if (load.phase === 'error')
    return <ErrorBox title="Could not load this page" message={load.message} onRetry={retry} />;
  if (load.phase === 'missing' || !page)
    return (
      <ErrorBox
        title="This page is not in the sandbox"
        message="It may have been reset. Pick another page from the list."
      />
    );

  return (
    <div
      className="page-view"
      data-testid="page-view"
      data-page-load-id={page.pageLoadId}
      data-verdict={page.verdict}
    >
      <Header page={page} />
      <section className="section" aria-labelledby="findings-title">
        <h3 id="findings-title" className="section-title">
          Findings{' '}
          <span className="muted" data-testid="findings-count">
            — {findingCount(page.counts.errors, 'error')},{' '}
            {findingCount(page.counts.warnings, 'warning')},{' '}
            {findingCount(page.counts.infos, 'info')}
            {followingCount(page.following) > 0 &&
              ` (${followNote(followingCount(page.following))})`}
          </span>
        </h3>
        <Findings findings={page.findings} selected={finding?.id ?? null} onSelect={setFindingId} />
      </section>
      {page.visitEvents && page.visitEvents.length > 0 && (
        <section className="section" aria-labelledby="visit-events-title">
          <h3 id="visit-events-title" className="section-title">
            Product, cart, order and login events, and the client’s logs
          </h3>
          <VisitEvents
            events={page.visitEvents}
            highlighted={highlighted}
            selectedEventId={selectedEventId}
            onSelect={onSelectEvent}
          />
        </section>
      )}
      <ResponseSources
        responseIds={page.responses.map((r) => r.responseId).filter(Boolean)}
        siteId={page.siteId}
        pageLoadId={page.pageLoadId}
      />
      {page.responses.length > 0 && (
        <section className="section" aria-labelledby="chart-title">
          <div className="section-head">
            <h3 id="chart-title" className="section-title">
              Timeline
            </h3>
            <div className="legend small" aria-hidden="true">
              {['render', 'redirect', 'impression', 'clickthrough', 'addtocart'].map((k) => (
                <span key={k} className="legend-item">
                  <svg width="12" height="12" viewBox="-6 -6 12 12">
                    <KindShape kind={k} size={9} />
                  </svg>
                  {k}
                </span>
              ))}
              <span className="legend-item">
                <svg width="14" height="14" viewBox="-7 -7 14 14">
                  <circle r="5.5" className="reject-ring" />
                </svg>
                rejected
              </span>
            </div>
            <div className="segmented small" role="group" aria-label="Time axis">
              <button
                type="button"
                aria-pressed={basis === 'timestamp'}
                onClick={() => setBasis('timestamp')}
              >
                context.timestamp
              </button>
              <button
                type="button"
                aria-pressed={basis === 'received'}
                onClick={() => setBasis('received')}
              >
                received
              </button>
            </div>
          </div>
          <PageChart
            page={page}
            basis={basis}
            highlighted={highlighted}
            selectedEventId={selectedEventId}
            onSelectEvent={onSelectEvent}
          />
        </section>
      )}
      {page.responses.length > 0 && (
        <section className="section" aria-labelledby="events-title">
          <h3 id="events-title" className="section-title">
            Events
          </h3>
          <EventsTable
            events={events}
            columns={PAGE_COLUMNS}
            testId="page-events"
            rowTestId="page-event-row"
            highlighted={highlighted}
            selectedEventId={selectedEventId}
            onSelect={onSelectEvent}
          />
        </section>
      )}
    </div>
  );
}
