// An order's lines, each with the credit it earned (the interaction, its kind and query or widget tag,
// a link to that event on its page's timeline) or why it has none.
import type { OrderDto, OrderLineDto } from '../../../../shared/visits';
import { ResponseKind } from '../../components/common';
import { routeHref } from '../../router';
import { pageKey } from '../../state/pages';

function Credit({ line, siteId }: { line: OrderLineDto; siteId: string }) {
  const c = line.credit;
  if (!c)
    return (
      <span className="muted" data-testid="no-credit">
        <span className="badge">no credit</span> {line.noCreditReason}
      </span>
    );
  return (
    <span data-testid="credit" data-kind={c.kind}>
      <span className="badge pass">credited</span> <ResponseKind kind={c.kind} tag={c.tag} />
      {c.q !== undefined && (
        <>
          {' '}
          query <q className="strong">{c.q}</q>
        </>
      )}{' '}
      <a
        href={routeHref({
          view: 'timelines',
          pageKey: pageKey({ siteId, pageLoadId: c.pageLoadId }),
          eventId: c.eventId,
        })}
        className="mono"
      >
        {c.event} {c.eventId}
      </a>
    </span>
  );
}

export function OrderLines({ order }: { order: OrderDto }) {
  return (
    <div className="table-wrap">
      <table className="table small" data-testid="order-lines">
        <thead>
          <tr>
            <th scope="col">uid</th>
            <th scope="col">parentId</th>
            <th scope="col">sku</th>
            <th scope="col">qty × price</th>
            <th scope="col">credit</th>
          </tr>
        </thead>
        <tbody>
          {order.lines.map((l, i) => (
            <tr key={`${l.uid}-${i}`} data-testid="order-line">
              <td className="mono">{l.uid || '—'}</td>
              <td className="mono">{l.parentId || '—'}</td>
              <td className="mono">{l.sku || '—'}</td>
              <td className="mono nowrap">
                {l.qty} × {l.price}
                {l.unitMismatch && (
                  <span
                    className="badge fail"
                    data-testid="line-unit-mismatch"
                    title={`the cart (${l.unitMismatch.eventId}) carried ${l.unitMismatch.cartPrice}: cents against units`}
                  >
                    {' '}
                    cart: {l.unitMismatch.cartPrice}
                  </span>
                )}
              </td>
              <td>
                <Credit line={l} siteId={order.siteId} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
