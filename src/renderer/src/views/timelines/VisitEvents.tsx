// A page's product, cart, order and login events (the rest of the visit): what each sent, in timestamp
// order; a selected finding lights up its events, a row opens the event in the inspector, an order's row
// links to the order (its findings, credit and summary in the Orders view).
import type { CartItemDto, VisitEventDto } from '../../../../shared/visits';
import { fmtClock, parseTime } from '../../format';
import { routeHref } from '../../router';

function items(list: readonly CartItemDto[]): string {
  if (list.length === 0) return '(none)';
  const shown = list
    .slice(0, 4)
    .map(
      (i) =>
        `${i.qty > 0 ? `${i.qty} × ` : ''}${i.uid || i.sku || i.parentId || '?'}${i.parentId && i.parentId !== i.uid ? ` (of ${i.parentId})` : ''}${i.price > 0 ? ` @ ${i.price}` : ''}`,
    );
  return list.length > 4 ? `${shown.join(', ')} and ${list.length - 4} more` : shown.join(', ');
}

function what(e: VisitEventDto): string {
  switch (e.endpoint) {
    case 'product/pageview':
      return `viewed ${items(e.items)}`;
    case 'cart/add':
    case 'cart/remove':
      return `${e.endpoint === 'cart/add' ? 'added' : 'removed'} ${items(e.items)} · cart now ${items(e.cart ?? [])}`;
    case 'order/transaction':
      return `order ${JSON.stringify(e.orderId ?? '')} · transactionTotal ${e.transactionTotal} · total ${e.total} · ${items(e.items)}`;
    case 'shopper/login':
      return `login as ${e.shopperId ?? '(no shopperId)'}`;
    default:
      return '';
  }
}

export function VisitEvents(props: {
  events: VisitEventDto[];
  highlighted: ReadonlySet<string> | null;
  selectedEventId: string | null;
  onSelect(id: string): void;
}) {
  const { events, highlighted, selectedEventId, onSelect } = props;
  return (
    <div className="table-wrap">
      <table className="table events-table" data-testid="visit-events">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Event</th>
            <th scope="col">context.timestamp</th>
            <th scope="col">What it sent</th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => (
            <tr
              key={e.id}
              className="clickable"
              data-selected={selectedEventId === e.id}
              data-highlight={highlighted?.has(e.id) ?? false}
              data-testid="visit-event-row"
              data-event-id={e.id}
              onClick={() => onSelect(e.id)}
            >
              <td className="mono muted">{e.arrival}</td>
              <td className="nowrap">
                <button type="button" className="link-button" aria-label={`Inspect ${e.endpoint}`}>
                  {e.endpoint}
                </button>{' '}
                {!e.accepted && <span className="badge fail">rejected</span>}
              </td>
              <td className="mono">{e.timestamp ? fmtClock(parseTime(e.timestamp), true) : '—'}</td>
              <td className="small">
                {e.accepted ? what(e) : e.errors[0]}
                {e.accepted && e.endpoint === 'order/transaction' && (
                  <>
                    {' '}
                    <a
                      href={routeHref({ view: 'orders', eventId: e.id })}
                      onClick={(ev) => ev.stopPropagation()}
                      data-testid="visit-event-order-link"
                    >
                      open the order
                    </a>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
