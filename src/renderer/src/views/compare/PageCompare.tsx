// One page of a comparison: BASE's events beside CURRENT's, in order, each change marked on the event it
// concerns (missing on BASE's side, extra on CURRENT's, a field on both with its path, before and after, a
// moved event on both with the place it has on the other side).
import type { DiffChange, DiffPage } from '../../../../shared/baseline';
import { fieldChange, shownValue, uidsOf } from '../../../../shared/diff-words';
import { routeHref } from '../../router';
import { pageKey } from '../../state/pages';

const STATUS_TONE: Record<DiffPage['status'], string> = {
  same: 'pass',
  changed: 'warn',
  added: 'info',
  removed: 'fail',
};

/** JSON values cut here: a page's column is narrower than a CI log's line */
const MAX_VALUE = 160;

/**
 * A changed field: a list of items said as `diff` says it (the uids each run impressed, or the uids in
 * order), any other value as before → after.
 */
function FieldLine({ change }: { change: DiffChange }) {
  const lists = uidsOf(change.base) !== null && uidsOf(change.current) !== null;
  return (
    <li className="compare-field" data-testid="compare-field">
      <code>{change.path}</code>
      {lists ? (
        fieldChange(change)
      ) : (
        <>
          : <del>{shownValue(change.base, MAX_VALUE)}</del> →{' '}
          <ins>{shownValue(change.current, MAX_VALUE)}</ins>
        </>
      )}
    </li>
  );
}

function EventList(props: { side: 'base' | 'current'; events: string[]; changes: DiffChange[] }) {
  const { side, events, changes } = props;
  const at = (c: DiffChange) => (side === 'base' ? c.baseIndex : c.currentIndex);
  const lone = side === 'base' ? 'missing' : 'extra';
  return (
    <ol className="compare-events" aria-label={side === 'base' ? 'BASE events' : 'CURRENT events'}>
      {events.map((event, i) => {
        const mine = changes.filter((c) => at(c) === i);
        const fields = mine.filter((c) => c.change === 'field');
        const moved = mine.find((c) => c.change === 'moved');
        const mark = mine.some((c) => c.change === lone)
          ? lone
          : moved
            ? 'moved'
            : fields.length
              ? 'field'
              : '';
        return (
          <li
            key={i}
            className={`compare-event ${mark}`}
            data-testid={`compare-${side}-event`}
            data-change={mark || undefined}
          >
            <span className="mono">{event}</span>
            {mark === lone && <span className="compare-tag">{lone}</span>}
            {moved && (
              <span className="compare-tag">
                {side === 'base'
                  ? `moved to event ${moved.currentIndex! + 1}`
                  : `moved from event ${moved.baseIndex! + 1}`}
              </span>
            )}
            {fields.length > 0 && side === 'current' && (
              <ul className="compare-fields">
                {fields.map((c, k) => (
                  <FieldLine key={k} change={c} />
                ))}
              </ul>
            )}
          </li>
        );
      })}
      {events.length === 0 && <li className="muted">not on this side</li>}
    </ol>
  );
}

export function PageCompare({
  page,
  showSite = false,
}: {
  page: DiffPage;
  /** the comparison holds pages of more than one site: the same URL on two sites is two pages */
  showSite?: boolean;
}) {
  const timeline =
    page.pageLoadId && page.status !== 'removed'
      ? routeHref({
          view: 'timelines',
          pageKey: pageKey({ siteId: page.siteId, pageLoadId: page.pageLoadId }),
          eventId: null,
        })
      : null;
  return (
    <section
      className={`card compare-page ${page.status}`}
      data-testid="compare-page"
      data-status={page.status}
    >
      <div className="card-head">
        <div className="compare-title">
          <span className={`badge ${STATUS_TONE[page.status]}`}>{page.status}</span>
          <span className="badge">{page.kind}</span>
          {showSite && page.siteId && (
            <span className="badge" data-testid="compare-site">
              site <span className="mono">{page.siteId}</span>
            </span>
          )}
          <span className="mono ellipsis" title={page.pageUrl}>
            {page.pageUrl || '(no pageUrl)'}
          </span>
        </div>
        {timeline && (
          <a className="btn small" href={timeline} data-testid="compare-timeline-link">
            Timeline
          </a>
        )}
      </div>
      <div className="card-body compare-sides">
        <div>
          <div className="section-title">BASE (the recording)</div>
          <EventList side="base" events={page.baseEvents} changes={page.changes} />
        </div>
        <div>
          <div className="section-title">CURRENT (the sandbox)</div>
          <EventList side="current" events={page.currentEvents} changes={page.changes} />
        </div>
      </div>
    </section>
  );
}
