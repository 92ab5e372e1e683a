// Orders: every order/transaction the sandbox received, newest first, each line with its credit or the
// reason it has none, and links to the order's page and the crediting click (GET /_sandbox/orders).
import { adminPath } from '../../../shared/admin-api';
import type { OrderDto } from '../../../shared/visits';
import { Empty, ErrorBox, Loading } from '../components/common';
import { fmtDateTime, parseTime, plural, shortId } from '../format';
import { navigate, routeHref } from '../router';
import { pageKey } from '../state/pages';
import { useLiveList } from '../state/useLiveList';
import { OrderLines } from './orders/OrderLines';

function credited(o: OrderDto): number {
  return o.lines.filter((l) => l.credit).length;
}

function OrderDetail({ order }: { order: OrderDto }) {
  return (
    <article className="card" data-testid="order-detail">
      <header className="card-head">
        <h2>
          Order <span className="mono">{order.orderId || '(no orderId)'}</span>
        </h2>
        <span className={`badge ${credited(order) > 0 ? 'pass' : ''}`}>
          {credited(order)} of {plural(order.lines.length, 'line')} credited
        </span>
      </header>
      <div className="card-body">
        <dl className="kv small">
          <dt>totals</dt>
          <dd className="mono">
            transactionTotal {order.transactionTotal} · total {order.total}
          </dd>
          <dt>order page</dt>
          <dd>
            <a
              href={routeHref({
                view: 'timelines',
                pageKey: pageKey({ siteId: order.siteId, pageLoadId: order.pageLoadId }),
                eventId: order.eventId,
              })}
              className="mono"
            >
              {order.pageLoadId}
            </a>
          </dd>
          <dt>visit</dt>
          <dd>
            <a
              href={routeHref({ view: 'visits', visitKey: `${order.siteId}/${order.sessionId}` })}
              className="mono"
            >
              {order.siteId} · {order.sessionId}
            </a>
          </dd>
          <dt>userId</dt>
          <dd className="mono">{order.userId}</dd>
          <dt>received</dt>
          <dd className="mono">{fmtDateTime(parseTime(order.receivedAt))} UTC</dd>
        </dl>
        <OrderLines order={order} />
        <p className="small muted">
          A line is credited to the latest clickthrough or addtocart of the same product (uid,
          parentId or sku) by the same userId before the order, within the attribution window. This
          is the sandbox's model, not the provider's (README, "Credit").
        </p>
      </div>
    </article>
  );
}

export function OrdersView({ orderId }: { orderId: string | null }) {
  const [load, retry] = useLiveList<OrderDto>(adminPath('orders'));
  const orders = load.phase === 'ready' ? load.items.slice().reverse() : [];
  // an orderId sent before (oldest first) is counted twice by the provider: order-duplicate on its page
  const repeated = new Set<string>();
  if (load.phase === 'ready') {
    const seen = new Set<string>();
    for (const o of load.items) {
      const k = `${o.siteId}/${o.orderId}`;
      if (o.orderId && seen.has(k)) repeated.add(o.eventId);
      seen.add(k);
    }
  }
  const selected = orders.find((o) => o.eventId === orderId) ?? orders[0] ?? null;
  return (
    <div className="page-scroll" data-testid="orders-view">
      <div className="page-wide">
        <div className="page-head">
          <div>
            <h1>Orders</h1>
            <p>
              Every <code>order/transaction</code> received, with the credit each line earned and
              why a line earned none.
            </p>
          </div>
        </div>
        {load.phase === 'loading' && <Loading what="orders" />}
        {load.phase === 'error' && (
          <ErrorBox title="Could not load orders" message={load.message} onRetry={retry} />
        )}
        {load.phase === 'ready' && orders.length === 0 && (
          <Empty title="No orders yet" testId="orders-empty">
            <p>
              A thank-you page sends <code>order/transaction</code>; each one is listed here.
            </p>
          </Empty>
        )}
        {orders.length > 0 && (
          <div className="split">
            <ul className="mail-list" aria-label="Orders" data-testid="order-list">
              {orders.map((o) => (
                <li key={o.eventId}>
                  <button
                    type="button"
                    className="mail-item"
                    aria-current={selected === o ? 'true' : undefined}
                    onClick={() => navigate({ view: 'orders', orderId: o.eventId }, true)}
                    data-testid="order-item"
                  >
                    <span className="mail-line">
                      <span className="ellipsis strong mono">
                        {o.orderId || '(no orderId)'}{' '}
                        {repeated.has(o.eventId) && (
                          <span className="badge fail" title="order-duplicate: counted twice">
                            sent again
                          </span>
                        )}
                      </span>
                      <span className={`badge ${credited(o) > 0 ? 'pass' : ''}`}>
                        {credited(o)}/{o.lines.length} credited
                      </span>
                    </span>
                    <span className="mail-line small muted">
                      <span className="ellipsis mono">
                        {o.siteId} · {shortId(o.userId, 10)} · total {o.total}
                      </span>
                      <span className="mono nowrap">{fmtDateTime(parseTime(o.receivedAt))}</span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
            {selected && <OrderDetail order={selected} />}
          </div>
        )}
      </div>
    </div>
  );
}
