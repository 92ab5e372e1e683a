// Orders: every order/transaction the sandbox received, newest first (a repeat right below the order it
// repeats), the revenue summary of the site in view, and the selected order with what is wrong with it,
// its lines' credit and links to its order page and the crediting clicks (GET /_sandbox/orders).
import { plural } from '../../../shared/text';
import { useEffect, useRef, useState } from 'react';
import { adminPath } from '../../../shared/admin-api';
import type { OrderDto } from '../../../shared/visits';
import { Empty, ErrorBox, Loading, SitePicker, ViewHeader } from '../components/common';
import { fmtDateTime, parseTime, shortId } from '../format';
import { navigate } from '../router';
import { useLiveList } from '../state/useLiveList';
import { credited, OrderDetail, orderName } from './orders/OrderDetail';
import { listedProblems } from './orders/OrderFindings';
import { OrdersSummary } from './orders/OrdersSummary';
import '../components/rows.css';

/** Newest first, each repeat right after the order it repeats (whose place is its own). */
function listed(items: readonly OrderDto[]): Array<{ order: OrderDto; repeat: boolean }> {
  const newest = items.slice().reverse();
  const present = new Set(items.map((o) => o.eventId));
  const out: Array<{ order: OrderDto; repeat: boolean }> = [];
  for (const o of newest) {
    if (o.duplicateOf && present.has(o.duplicateOf)) continue;
    out.push({ order: o, repeat: Boolean(o.duplicateOf) });
    for (const r of newest) if (r.duplicateOf === o.eventId) out.push({ order: r, repeat: true });
  }
  return out;
}

const SEVERITY_LABEL = { error: 'fail', warning: 'warn' } as const;

function OrderItem(props: { order: OrderDto; repeat: boolean; selected: boolean }) {
  const { order: o, repeat, selected } = props;
  const { label, infos, worst, onCredit, lostCredit, priceUnit } = listedProblems(o);
  return (
    <button
      type="button"
      className={`mail-item order-item ${repeat ? 'order-repeat' : ''}`}
      aria-current={selected ? 'true' : undefined}
      onClick={() => navigate({ view: 'orders', eventId: o.eventId }, true)}
      data-testid="order-item"
      data-event-id={o.eventId}
    >
      <span className="mail-line">
        <span className="order-name strong mono">
          {repeat && <span aria-hidden="true">↳ </span>}
          {orderName(o)}
        </span>
        <span className="badges">
          {o.duplicateOf && (
            <span className="badge fail" title={`repeats ${o.duplicateOf}: counted twice`}>
              repeat
            </span>
          )}
          {worst && (
            <span
              className={`badge ${SEVERITY_LABEL[worst]}`}
              data-testid="order-item-findings"
              title={
                infos > 0
                  ? `and ${plural(infos, 'info finding')}: the order's detail lists them`
                  : undefined
              }
            >
              {label}
            </span>
          )}
          {onCredit > 0 && (
            <span
              className="badge warn"
              data-testid="order-item-credit-doubt"
              title="the click or quick add a line is credited to has findings"
            >
              credit in doubt
            </span>
          )}
          {lostCredit > 0 && (
            <span
              className="badge fail"
              data-testid="order-item-credit-lost"
              title="the service rejected a click or quick add that would have credited a line"
            >
              credit lost
            </span>
          )}
          {priceUnit && (
            <span
              className="badge fail"
              data-testid="order-item-price-unit"
              title="a line priced about 100× what its cart said: cents against units"
            >
              cents?
            </span>
          )}
          <span className={`badge ${credited(o) > 0 ? 'pass' : ''}`}>
            {credited(o)}/{o.lines.length} credited
          </span>
        </span>
      </span>
      <span className="row-meta small muted" data-testid="order-item-meta">
        <span className="mono">{o.siteId}</span>
        <span className="mono">{shortId(o.userId, 10)}</span>
        <span className="mono">total {o.total}</span>
        <span className="mono">{fmtDateTime(parseTime(o.receivedAt))}</span>
      </span>
    </button>
  );
}

export function OrdersView({ eventId }: { eventId: string | null }) {
  const [load, retry] = useLiveList<OrderDto>(adminPath('orders'));
  const [site, setSite] = useState<string | null>(null);
  const items = load.phase === 'ready' ? load.items : [];
  const rows = listed(items);
  const selected = items.find((o) => o.eventId === eventId) ?? rows[0]?.order ?? null;
  const sites = [...new Set(items.map((o) => o.siteId))].sort();
  // the site in view: the one picked, else the selected order's
  const siteInView = site !== null && sites.includes(site) ? site : (selected?.siteId ?? null);
  // an order's address (#/orders/{eventId}) brings its detail into view: on a narrow screen it sits
  // below the whole list, so a deep link would otherwise open on the list
  // (again once the summary above it has loaded and pushed it down)
  const detailRef = useRef<HTMLDivElement>(null);
  const [summaryShown, setSummaryShown] = useState<string | null>(null);
  const shown = selected?.eventId ?? null;
  useEffect(() => {
    const el = detailRef.current;
    if (!eventId || shown !== eventId || !el) return;
    const top = el.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight * 0.5) el.scrollIntoView({ block: 'start' });
  }, [eventId, shown, summaryShown]);
  return (
    <div className="page-scroll" data-testid="orders-view">
      <div className="page-wide">
        <ViewHeader
          title="Orders"
          actions={
            sites.length > 1 && (
              <SitePicker
                sites={sites}
                value={siteInView}
                onChange={setSite}
                testId="orders-site"
              />
            )
          }
        >
          Every <code>order/transaction</code> received, with what is wrong with it, the credit each
          line earned and why a line earned none.
        </ViewHeader>
        {load.phase === 'loading' && <Loading what="orders" />}
        {load.phase === 'error' && (
          <ErrorBox title="Could not load orders" message={load.message} onRetry={retry} />
        )}
        {load.phase === 'ready' && items.length === 0 && (
          <Empty title="No orders yet" testId="orders-empty">
            <p>
              A thank-you page sends <code>order/transaction</code>; each one is listed here.
            </p>
          </Empty>
        )}
        {eventId &&
          load.phase === 'ready' &&
          items.length > 0 &&
          !items.some((o) => o.eventId === eventId) && (
            <p className="notice warn small" data-testid="order-not-found">
              No order/transaction with eventId <code>{eventId}</code> (it was reset, or retention
              dropped its page); showing the newest order instead.
            </p>
          )}
        {siteInView && <OrdersSummary siteId={siteInView} onShown={setSummaryShown} />}
        {rows.length > 0 && (
          <div className="split">
            <ul className="mail-list" aria-label="Orders" data-testid="order-list">
              {rows.map(({ order, repeat }) => (
                <li key={order.eventId}>
                  <OrderItem order={order} repeat={repeat} selected={selected === order} />
                </li>
              ))}
            </ul>
            {selected && (
              <div ref={detailRef} className="order-detail-anchor">
                <OrderDetail order={selected} all={items} />
              </div>
            )}
          </div>
        )}
      </div>
    </div>
  );
}
