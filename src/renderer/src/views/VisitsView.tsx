// Visits: each shopper's session as the path they took (search → product → cart → order), every step
// with its verdict and a link to its timeline, the cart as the last cart event left it, and the orders
// with each line's credit. All of it from GET /_sandbox/visits and /_sandbox/orders.
import type { OrderDto, VisitDto, VisitPageDto } from '../../../shared/visits';
import { Empty, ErrorBox, Loading, VerdictBadge, ViewHeader } from '../components/common';
import { fmtClock, fmtDateTime, parseTime, plural, shortId, urlPath } from '../format';
import { navigate, routeHref } from '../router';
import { pageKey } from '../state/pages';
import { useLiveList } from '../state/useLiveList';
import { adminPath } from '../../../shared/admin-api';
import { OrderLines } from './orders/OrderLines';
import { OrderFindings } from './orders/OrderFindings';
import '../components/rows.css';

export function visitKey(v: Pick<VisitDto, 'siteId' | 'sessionId'>): string {
  return `${v.siteId}/${v.sessionId}`;
}

/** A step's name: its kind, or that its every event was refused (the service dropped the page). */
const stepLabel = (p: VisitPageDto) => (p.refused ? 'Refused' : STEP_LABEL[p.kind]);

const STEP_LABEL: Record<VisitPageDto['kind'], string> = {
  search: 'Search',
  category: 'Category',
  product: 'Product',
  cart: 'Cart',
  order: 'Order',
  other: 'Page',
};

function Path({ visit }: { visit: VisitDto }) {
  return (
    <ol className="visit-path" aria-label="The shopper's path" data-testid="visit-path">
      {visit.pages.map((p, i) => (
        <li key={`${p.pageLoadId}-${i}`} className={`visit-step ${p.kind}`} data-kind={p.kind}>
          <a
            href={routeHref({
              view: 'timelines',
              pageKey: pageKey({ siteId: visit.siteId, pageLoadId: p.pageLoadId }),
              eventId: null,
            })}
            data-testid="visit-step"
            data-verdict={p.verdict}
            title={
              p.refused
                ? 'every event of this page was refused: the service dropped them; it belongs to the visit by the sessionId its bodies carried'
                : undefined
            }
          >
            <span className="visit-step-head">
              <span className="strong">{stepLabel(p)}</span>
              <VerdictBadge verdict={p.verdict} />
            </span>
            <span className="small muted ellipsis" title={p.pageUrl}>
              {urlPath(p.pageUrl) || p.pageLoadId}
            </span>
          </a>
        </li>
      ))}
    </ol>
  );
}

function VisitDetail({ visit }: { visit: VisitDto }) {
  const [orders] = useLiveList<OrderDto>(
    adminPath('orders', {}, { siteId: visit.siteId, sessionId: visit.sessionId }),
  );
  return (
    <article className="card" data-testid="visit-detail" data-verdict={visit.verdict}>
      <header className="card-head">
        <h2>
          Visit <span className="mono">{shortId(visit.sessionId, 13)}</span>
        </h2>
        <VerdictBadge verdict={visit.verdict} />
      </header>
      <div className="card-body">
        <dl className="kv small">
          <dt>site</dt>
          <dd className="mono">{visit.siteId}</dd>
          <dt>sessionId</dt>
          <dd className="mono">{visit.sessionId}</dd>
          <dt>userId</dt>
          <dd className="mono">
            {visit.userIds.join(', ')}
            {visit.userIds.length > 1 && (
              <span className="badge warn" title="The shopper's identity changed inside the visit">
                changed
              </span>
            )}
          </dd>
          {visit.shopperId && (
            <>
              <dt>shopperId</dt>
              <dd className="mono">{visit.shopperId} (logged in)</dd>
            </>
          )}
          {/* a visit is the shopper's path: its span is the storefront's clock, where a page's "seen"
              is when the sandbox received it (the two differ by the storefront's delay or skew) */}
          <dt>time</dt>
          <dd className="mono" data-testid="visit-time">
            {fmtDateTime(parseTime(visit.start))} → {fmtClock(parseTime(visit.end))} UTC{' '}
            <span className="muted small">by the events' timestamps</span>
          </dd>
        </dl>
        <h3 className="section-title">Path</h3>
        <Path visit={visit} />
        <h3 className="section-title">Cart</h3>
        {visit.cart.length === 0 ? (
          <p className="muted small" data-testid="visit-cart-empty">
            Empty{visit.orders.length > 0 ? ' (emptied by the order, as the tracker does)' : ''}.
          </p>
        ) : (
          <ul className="plain-list small mono" data-testid="visit-cart">
            {visit.cart.map((c, i) => (
              <li key={`${c.uid}-${i}`}>
                {c.qty} × {c.uid || c.sku || c.parentId}
                {c.parentId && c.parentId !== c.uid ? ` (of ${c.parentId})` : ''} @ {c.price}
              </li>
            ))}
          </ul>
        )}
        <h3 className="section-title">Orders</h3>
        {orders.phase === 'ready' && orders.items.length === 0 && (
          <p className="muted small">No order in this visit.</p>
        )}
        {orders.phase === 'ready' &&
          orders.items.map((o) => (
            <section key={o.eventId} className="visit-order" data-testid="visit-order">
              <p className="small">
                <a href={routeHref({ view: 'orders', eventId: o.eventId })} className="strong">
                  Order {o.orderId || '(no orderId)'}
                </a>{' '}
                <span className="muted">
                  · transactionTotal {o.transactionTotal} · total {o.total}
                </span>{' '}
                {o.duplicateOf && (
                  <span className="badge fail" title={`repeats ${o.duplicateOf}`}>
                    repeat: counted twice
                  </span>
                )}
              </p>
              <OrderFindings order={o} />
              <OrderLines order={o} />
            </section>
          ))}
        {orders.phase === 'error' && <p className="notice error small">{orders.message}</p>}
      </div>
    </article>
  );
}

/** Why an address names no visit: a visit's key is `{siteId}/{sessionId}` (visitKey). */
function UnknownVisit({ visitKey: key }: { visitKey: string }) {
  const slash = key.indexOf('/');
  if (slash < 0)
    return (
      <>
        No visit <code>{key}</code> (a visit is named by its site and sessionId,{' '}
        <code>siteId/sessionId</code>)
      </>
    );
  const siteId = key.slice(0, slash);
  const sessionId = key.slice(slash + 1);
  if (!sessionId)
    return (
      <>
        No visit without a sessionId on site <code>{siteId}</code> (events with no readable
        sessionId belong to no visit)
      </>
    );
  return (
    <>
      No visit with sessionId <code>{sessionId}</code> on site <code>{siteId}</code> (it was reset,
      or retention dropped its pages)
    </>
  );
}

export function VisitsView({ visitKey: selectedKey }: { visitKey: string | null }) {
  const [load, retry] = useLiveList<VisitDto>(adminPath('visits'));
  const visits = load.phase === 'ready' ? load.items.slice().reverse() : [];
  const selected = visits.find((v) => visitKey(v) === selectedKey) ?? visits[0] ?? null;
  return (
    <div className="page-scroll" data-testid="visits-view">
      <div className="page-wide">
        <ViewHeader title="Visits">
          Each shopper's session as the path they took: search, product pages, cart and order, each
          page with its verdict. Orders show the credit of each line (the sandbox's model: README,
          "Credit").
        </ViewHeader>
        {load.phase === 'loading' && <Loading what="visits" />}
        {load.phase === 'error' && (
          <ErrorBox title="Could not load visits" message={load.message} onRetry={retry} />
        )}
        {load.phase === 'ready' && visits.length === 0 && (
          <Empty title="No visits yet" testId="visits-empty">
            <p>A visit appears with the first accepted event of a session.</p>
          </Empty>
        )}
        {selectedKey && visits.length > 0 && selected && visitKey(selected) !== selectedKey && (
          <p className="notice warn small" data-testid="visit-not-found">
            <UnknownVisit visitKey={selectedKey} />; showing the newest visit instead.
          </p>
        )}
        {visits.length > 0 && (
          <div className="split">
            <ul className="mail-list" aria-label="Visits" data-testid="visit-list">
              {visits.map((v) => (
                <li key={visitKey(v)}>
                  <button
                    type="button"
                    className="mail-item"
                    aria-current={selected === v ? 'true' : undefined}
                    onClick={() => navigate({ view: 'visits', visitKey: visitKey(v) }, true)}
                    data-testid="visit-item"
                  >
                    {/* nothing in a row is cut: the path and the metadata wrap in a narrow list */}
                    <span className="mail-line visit-row-head">
                      <VerdictBadge verdict={v.verdict} />
                      <span className="strong visit-row-path" data-testid="visit-item-path">
                        {v.pages.map(stepLabel).join(' → ')}
                      </span>
                    </span>
                    <span className="row-meta small muted" data-testid="visit-item-meta">
                      <span className="mono">{v.siteId}</span>
                      <span className="mono">{shortId(v.sessionId, 10)}</span>
                      <span>{plural(v.pages.length, 'page')}</span>
                      {v.orders.length > 0 && <span>{plural(v.orders.length, 'order')}</span>}
                      <span
                        className="mono"
                        title="the visit's first event, by its timestamp (the storefront's clock)"
                      >
                        {fmtClock(parseTime(v.start))}
                      </span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
            {selected && <VisitDetail key={visitKey(selected)} visit={selected} />}
          </div>
        )}
      </div>
    </div>
  );
}
