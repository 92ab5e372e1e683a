// Requests: every recorded tracking request as it arrives (search or not, accepted or rejected, with or
// without a page), newest first, in a virtualised list; selecting one opens the inspector.
import { useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { RecordedEvent } from '../api/types';
import { Empty, KindLabel, Loaded } from '../components/common';
import { fmtClock, parseTime, plural } from '../format';
import { clockMove } from '../../../shared/clock-offset';
import { navigate, routeHref } from '../router';
import { EVENT_WINDOW, store, useSandbox } from '../state/store';
import { pageKey } from '../state/pages';
import { pageProblem, pageProblemText } from '../state/arrivals';
import { EventInspector } from './inspector/EventInspector';
import { useScrollAnchor } from '../components/useScrollAnchor';
import { grouped } from '../../../shared/text';

const ROW_H = 36;

interface Body {
  context?: { pageLoadId?: unknown };
  data?: { responseId?: unknown };
}

function ids(e: RecordedEvent): { pageLoadId: string; responseId: string } {
  const b = (e.body && typeof e.body === 'object' ? e.body : {}) as Body;
  return {
    pageLoadId: typeof b.context?.pageLoadId === 'string' ? b.context.pageLoadId : '',
    responseId: typeof b.data?.responseId === 'string' ? b.data.responseId : '',
  };
}

function RequestRow({ e, selected }: { e: RecordedEvent; selected: boolean }) {
  const { pageLoadId, responseId } = ids(e);
  const page = useSandbox((s) =>
    pageLoadId ? s.pages.summaries.get(pageKey({ siteId: e.siteId, pageLoadId })) : undefined,
  );
  const problem = pageProblem(e, page);
  return (
    <a
      className="row request-row"
      href={routeHref({ view: 'requests', eventId: e.id })}
      aria-current={selected ? 'true' : undefined}
      data-testid="request-row"
      data-event-id={e.id}
      data-response-id={responseId}
      data-accepted={e.accepted}
    >
      <span
        className="mono muted"
        title={
          e.clockOffsetMs
            ? `Sandbox time: received while the sandbox clock was moved ${clockMove(e.clockOffsetMs)} off real time`
            : undefined
        }
      >
        {fmtClock(parseTime(e.receivedAt), true)}
        {e.clockOffsetMs ? <span aria-hidden="true">*</span> : null}
      </span>
      {/* the pill is the service's answer (a 200 is green whatever the page); the page's verdict has a
          column of its own, and where that column is hidden (390 px) a labelled mark beside the pill */}
      <span className="request-status">
        <span className={`badge ${e.accepted ? 'pass' : 'fail'}`} data-testid="request-status">
          {e.status}
        </span>
        {problem && (
          <span
            className={`verdict-mark ${problem.verdict}`}
            role="img"
            aria-label={`accepted, but ${pageProblemText(problem)}`}
            title={`accepted, but ${pageProblemText(problem)}`}
            data-testid="request-verdict-mark"
          >
            {problem.verdict === 'fail' ? '✕' : '!'}
          </span>
        )}
      </span>
      <span className="request-kind">
        <span className="muted small">{e.category}/</span>
        <KindLabel kind={e.event} />
      </span>
      <span className="mono small ellipsis muted">{e.siteId}</span>
      {/* whole, cut by the column's width: a session's pages differ at the end of their ids as often
          as at the start, so eight characters told them apart only on a narrow screen's terms */}
      <span className="mono small ellipsis" title={`pageLoadId ${pageLoadId}`}>
        {pageLoadId || '—'}
      </span>
      <span className="mono small ellipsis" title={`responseId ${responseId}`}>
        {responseId || '—'}
      </span>
      {problem ? (
        <span
          className="small ellipsis page-problem muted"
          data-testid="request-page-problem"
          title="accepted by the service, but its page breaks tracking rules"
        >
          {pageProblemText(problem)}
        </span>
      ) : (
        <span className="small ellipsis fail-text">{e.errors[0]?.message ?? ''}</span>
      )}
      {/* the time's mark said to a screen reader: out of the time's box, which keeps its width, and last,
          so the columns a narrow screen hides keep their places */}
      {e.clockOffsetMs ? (
        <span className="visually-hidden" data-testid="request-clock-moved">
          {` sandbox time, the clock moved ${clockMove(e.clockOffsetMs)}`}
        </span>
      ) : null}
    </a>
  );
}

type Accepted = '' | 'accepted' | 'rejected';

export function RequestsView({ eventId }: { eventId: string | null }) {
  const events = useSandbox((s) => s.events);
  const load = useSandbox((s) => s.load.events);
  const [accepted, setAccepted] = useState<Accepted>('');
  const [text, setText] = useState('');
  const needle = useDeferredValue(text.trim().toLowerCase());
  const list = useMemo(() => {
    const out: RecordedEvent[] = [];
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i]!;
      if (accepted === 'accepted' && !e.accepted) continue;
      if (accepted === 'rejected' && e.accepted) continue;
      if (
        needle &&
        !`${e.path} ${e.siteId} ${JSON.stringify(e.body)}`.toLowerCase().includes(needle)
      )
        continue;
      out.push(e);
    }
    return out;
  }, [events, accepted, needle]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: list.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_H,
    getItemKey: (i) => list[i]?.id ?? i,
    overscan: 15,
  });
  const rememberAnchor = useScrollAnchor(
    scrollRef,
    list,
    (e) => e.id,
    () => ROW_H,
    () => {
      const top = scrollRef.current?.scrollTop ?? 0;
      const first = virtualizer.getVirtualItems().find((v) => v.end > top);
      return first ? { key: String(first.key), start: first.start } : null;
    },
  );
  const close = useCallback(() => navigate({ view: 'requests', eventId: null }, true), []);

  return (
    <div className="requests" data-mode={eventId ? 'inspect' : 'list'} data-testid="requests-view">
      <section className="requests-list" aria-label="Recorded requests">
        <div className="filters filter-row">
          <input
            type="search"
            placeholder="Search path, site, body…"
            aria-label="Search requests"
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          <div className="segmented" role="group" aria-label="Outcome">
            {(['', 'accepted', 'rejected'] as const).map((v) => (
              <button
                key={v || 'all'}
                type="button"
                aria-pressed={accepted === v}
                onClick={() => setAccepted(v)}
              >
                {v || 'all'}
              </button>
            ))}
          </div>
          <span className="small muted nowrap" aria-live="polite" data-testid="requests-count">
            {plural(list.length, 'request')}
            {events.length >= EVENT_WINDOW && ` (newest ${grouped(EVENT_WINDOW)} kept here)`}
          </span>
        </div>
        <div className="request-head small muted" aria-hidden="true">
          <span>received</span>
          <span>status</span>
          <span>event</span>
          <span>site</span>
          <span>pageLoadId</span>
          <span>responseId</span>
          <span>first error, or the page's verdict</span>
        </div>
        <div
          className="list-scroll"
          ref={scrollRef}
          onScroll={rememberAnchor}
          data-testid="requests-scroll"
        >
          <Loaded state={load} what="requests" onRetry={() => void store.loadAll()}>
            {list.length === 0 ? (
              <Empty title={events.length ? 'No request matches' : 'No requests yet'}>
                {!events.length && (
                  <p>
                    Tracking requests appear here the moment they arrive. See{' '}
                    <a href="#/connect">Connect</a> for how to send one.
                  </p>
                )}
              </Empty>
            ) : (
              <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }} role="list">
                {virtualizer.getVirtualItems().map((v) => (
                  <div
                    key={v.key}
                    role="listitem"
                    className="vrow"
                    style={{ transform: `translateY(${v.start}px)`, height: ROW_H }}
                  >
                    <RequestRow e={list[v.index]!} selected={list[v.index]!.id === eventId} />
                  </div>
                ))}
              </div>
            )}
          </Loaded>
        </div>
      </section>
      {eventId && <EventInspector eventId={eventId} onClose={close} />}
    </div>
  );
}
