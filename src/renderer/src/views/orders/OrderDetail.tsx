// One order (addressed by the eventId of its order/transaction: two orders may share an orderId, one may
// have none): what is wrong with it and the fix, the order it repeats or the orders that repeat it,
// links to its order page and visit, and each line's credit with a link to the crediting interaction.
import type { OrderDto } from '../../../../shared/visits';
import { fmtDateTime, parseTime, plural } from '../../format';
import { moneyFormat } from '../../../../shared/text';
import { routeHref } from '../../router';
import { pageKey } from '../../state/pages';
import { OrderFindings } from './OrderFindings';
import { OrderLines } from './OrderLines';

export function credited(o: OrderDto): number {
  return o.lines.filter((l) => l.credit).length;
}

/** What the order's lines add up to, as the provider's reports would count it (to the cent) */
function revenueOf(o: OrderDto): string {
  const sum = o.lines.reduce((total, l) => total + l.qty * l.price, 0);
  return moneyFormat([sum])(sum);
}

export const orderName = (o: Pick<OrderDto, 'orderId'>) => o.orderId || '(no orderId)';

function OrderLink({ order }: { order: OrderDto }) {
  return (
    <a href={routeHref({ view: 'orders', eventId: order.eventId })} className="mono">
      {orderName(order)} ({order.eventId}, {fmtDateTime(parseTime(order.receivedAt))})
    </a>
  );
}

/** The duplicate beside the order it repeats: which one, and what it adds to the reports. */
function Repeats({ order, all }: { order: OrderDto; all: readonly OrderDto[] }) {
  const first = order.duplicateOf ? all.find((o) => o.eventId === order.duplicateOf) : undefined;
  const repeats = all.filter((o) => o.duplicateOf === order.eventId);
  if (order.duplicateOf)
    return (
      <p className="notice error small" data-testid="order-duplicate-of">
        <strong>Counted twice.</strong> This repeats order{' '}
        {first ? <OrderLink order={first} /> : <span className="mono">{order.duplicateOf}</span>}:
        the provider counts both, so its reports add this order's {revenueOf(order)} again.
      </p>
    );
  if (repeats.length === 0) return null;
  return (
    <p className="notice error small" data-testid="order-repeated-by">
      <strong>Sent again</strong> {plural(repeats.length, 'time')}:{' '}
      {repeats.map((r, i) => (
        <span key={r.eventId}>
          {i > 0 && ', '}
          <OrderLink order={r} />
        </span>
      ))}
      . Each repeat counts this order's {revenueOf(order)} again in the provider's reports.
    </p>
  );
}

export function OrderDetail({ order, all }: { order: OrderDto; all: readonly OrderDto[] }) {
  return (
    <article className="card" data-testid="order-detail" data-event-id={order.eventId}>
      <header className="card-head">
        <h2>
          Order <span className="mono">{orderName(order)}</span>
        </h2>
        <span className={`badge ${credited(order) > 0 ? 'pass' : ''}`}>
          {credited(order)} of {plural(order.lines.length, 'line')} credited
        </span>
      </header>
      <div className="card-body">
        <Repeats order={order} all={all} />
        <OrderFindings order={order} />
        <dl className="kv small">
          <dt>eventId</dt>
          <dd className="mono">{order.eventId}</dd>
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
              data-testid="order-page-link"
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
            {order.driftedSessionId !== undefined && (
              <span className="muted" data-testid="order-drifted-session">
                {' '}
                (sent with sessionId <span className="mono">{order.driftedSessionId}</span>, which
                drifted from its page’s first: listed in the page’s visit; see context-drift)
              </span>
            )}
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
