// A page's product, cart, order and login events (the rest of the visit): what each sent, in timestamp
// order; a selected finding lights up its events, a row opens the event in the inspector, an order's row
// links to the order (its findings, credit and summary in the Orders view).
import type { CartItemDto, VisitEventDto } from '../../../../shared/visits';
import { fmtClock, parseTime } from '../../format';
import { routeHref } from '../../router';
import { EventsTable, type EventColumn } from './EventsTable';

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
    case 'log/snap':
      return `the client reported: ${JSON.stringify(e.message ?? '')}`;
    default:
      return '';
  }
}

const COLUMNS: EventColumn<VisitEventDto>[] = [
  {
    head: 'Event',
    className: 'nowrap',
    cell: (e) => (
      <>
        <button type="button" className="link-button" aria-label={`Inspect ${e.endpoint}`}>
          {e.endpoint}
        </button>{' '}
        {!e.accepted && <span className="badge fail">rejected</span>}
      </>
    ),
  },
  {
    head: 'context.timestamp',
    className: 'mono',
    cell: (e) => (e.timestamp ? fmtClock(parseTime(e.timestamp), true) : '—'),
  },
  {
    head: 'What it sent',
    className: 'small',
    cell: (e) => (
      <>
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
      </>
    ),
  },
];

export function VisitEvents(props: {
  events: VisitEventDto[];
  highlighted: ReadonlySet<string> | null;
  selectedEventId: string | null;
  onSelect(id: string): void;
}) {
  return (
    <EventsTable {...props} columns={COLUMNS} testId="visit-events" rowTestId="visit-event-row" />
  );
}
