// What the merchant's revenue report would show (`GET /_sandbox/orders/summary`): revenue as sent (a
// duplicate's lines counted again, as a report would), grouped by the kind of the interaction each line
// is credited to, and how much of it sits on orders with errors or with lines priced in another unit
// than their cart.
import type { ResponseKind } from '../../../shared/kinds';
import type { OrderDto, OrdersSummaryDto, RevenueDto } from '../../../shared/visits';
import type { OrderBaseDto, OrderEntry } from './order-book';
import { orderFindings, type PageFindings } from './order-findings';

/** Sums of prices carry binary noise (0.1 + 0.2): answers are rounded far below any currency's unit. */
const round = (n: number) => Math.round(n * 1e6) / 1e6;

type SummedOrder = Pick<OrderDto, 'lines' | 'duplicateOf' | 'findings'>;

export class OrdersSummer {
  private orders = 0;
  private lines = 0;
  private revenue = 0;
  private readonly bySource = new Map<ResponseKind, RevenueDto>();
  private readonly uncredited = { lines: 0, revenue: 0 };
  private readonly duplicates = { orders: 0, revenue: 0 };
  private readonly withErrors = { orders: 0, revenue: 0 };
  private readonly pricesInDoubt = { orders: 0, revenue: 0 };

  add(order: SummedOrder): void {
    this.orders++;
    let orderRevenue = 0;
    const sources = new Set<ResponseKind>();
    for (const line of order.lines) {
      const value = line.qty * line.price;
      this.lines++;
      orderRevenue += value;
      const kind = line.credit?.kind;
      if (kind === undefined) {
        this.uncredited.lines++;
        this.uncredited.revenue += value;
        continue;
      }
      let s = this.bySource.get(kind);
      if (!s) this.bySource.set(kind, (s = { orders: 0, lines: 0, revenue: 0 }));
      s.lines++;
      s.revenue += value;
      // an order counts once in each source one of its lines is credited to
      if (!sources.has(kind)) {
        sources.add(kind);
        s.orders++;
      }
    }
    this.revenue += orderRevenue;
    const tally = (t: { orders: number; revenue: number }) => {
      t.orders++;
      t.revenue += orderRevenue;
    };
    if (order.duplicateOf !== undefined) tally(this.duplicates);
    if (order.findings.some((f) => f.severity === 'error')) tally(this.withErrors);
    if (order.lines.some((l) => l.unitMismatch)) tally(this.pricesInDoubt);
  }

  result(): OrdersSummaryDto {
    const bySource: OrdersSummaryDto['bySource'] = {};
    for (const [kind, s] of this.bySource)
      bySource[kind] = { orders: s.orders, lines: s.lines, revenue: round(s.revenue) };
    return {
      orders: this.orders,
      lines: this.lines,
      revenue: round(this.revenue),
      bySource,
      uncredited: { lines: this.uncredited.lines, revenue: round(this.uncredited.revenue) },
      duplicates: { orders: this.duplicates.orders, revenue: round(this.duplicates.revenue) },
      withErrors: { orders: this.withErrors.orders, revenue: round(this.withErrors.revenue) },
      pricesInDoubt: {
        orders: this.pricesInDoubt.orders,
        revenue: round(this.pricesInDoubt.revenue),
      },
    };
  }
}

/**
 * The summary of the orders, giving the event loop back between slices (`breathe`): 10,000 orders are
 * read from their cached JSON one by one.
 */
export async function summarizeOrders(
  orders: Iterable<SummedOrder>,
  breathe: () => Promise<void> | void = () => undefined,
): Promise<OrdersSummaryDto> {
  const sum = new OrdersSummer();
  for (const o of orders) {
    sum.add(o);
    await breathe();
  }
  return sum.result();
}

/**
 * The lines (with credit) of each listed order, read from its cached JSON, whether it repeats one, and the
 * findings that concern it (as GET /_sandbox/orders lists them).
 */
export function* summed(
  orders: Iterable<OrderEntry>,
  pageFindings: PageFindings,
): Generator<SummedOrder> {
  for (const o of orders)
    yield {
      lines: (JSON.parse(o.json) as OrderBaseDto).lines,
      duplicateOf: o.duplicateOf,
      findings: orderFindings(o, pageFindings),
    };
}
