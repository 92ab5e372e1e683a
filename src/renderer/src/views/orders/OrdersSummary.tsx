// What the merchant's revenue report would show for one site (GET /_sandbox/orders/summary): revenue by
// the source each line is credited to, what no interaction earned, and what duplicates add.
import { useEffect } from 'react';
import { adminPath } from '../../../../shared/admin-api';
import type { OrdersSummaryDto } from '../../../../shared/visits';
import { ResponseKind } from '../../components/common';
import { plural } from '../../format';
import { moneyFormat } from '../../../../shared/text';
import { useLiveJson } from '../../state/useLiveList';

/**
 * A part's share of the whole, in whole per cent, but with a decimal near the ends: 99.7 % is not all of it,
 * nor 0.3 % none (a part that is not the whole never reads 100 %, nor a part above 0 as 0 %)
 */
const share = (part: number, whole: number) => {
  if (whole <= 0) return '—';
  const p = (part / whole) * 100;
  const rounded = Math.round(p);
  if ((rounded === 100 && part < whole) || (rounded === 0 && part > 0))
    return `${(Math.floor(p * 10) / 10 || 0.1).toFixed(1)} %`;
  return `${rounded} %`;
};

export function OrdersSummary({
  siteId,
  onShown,
}: {
  siteId: string;
  /** told the site once its summary (or its error) is on screen: the layout below it moved */
  onShown?: (siteId: string) => void;
}) {
  const [load] = useLiveJson<OrdersSummaryDto>(adminPath('ordersSummary', {}, { siteId }));
  const settled = load.phase === 'ready' || load.phase === 'error';
  useEffect(() => {
    if (settled) onShown?.(siteId);
  }, [settled, siteId, onShown]);
  if (load.phase === 'error')
    return <p className="notice error small">Could not load the summary: {load.message}</p>;
  if (load.phase !== 'ready') return null;
  const s = load.value;
  const sources = Object.entries(s.bySource).sort((a, b) => b[1].revenue - a[1].revenue);
  // every amount of the summary with cents, or none
  const money = moneyFormat([
    s.revenue,
    ...sources.map(([, r]) => r.revenue),
    s.uncredited.revenue,
    s.duplicates.revenue,
    s.withErrors.revenue,
    s.pricesInDoubt.revenue,
  ]);
  return (
    <section
      className="card orders-summary"
      data-testid="orders-summary"
      aria-label="Revenue summary"
    >
      <header className="card-head">
        <h2>
          Revenue of <span className="mono">{siteId}</span>
        </h2>
        <span className="small muted" data-testid="orders-summary-total">
          {plural(s.orders, 'order')} · {plural(s.lines, 'line')} · revenue {money(s.revenue)}
        </span>
      </header>
      <div className="card-body">
        <div className="table-wrap">
          <table className="table small" data-testid="orders-summary-table">
            <thead>
              <tr>
                <th scope="col">credited to</th>
                <th scope="col">orders</th>
                <th scope="col">lines</th>
                <th scope="col">revenue</th>
                <th scope="col">share</th>
              </tr>
            </thead>
            <tbody>
              {sources.map(([kind, r]) => (
                <tr key={kind} data-testid="orders-summary-source" data-kind={kind}>
                  <td>
                    <ResponseKind kind={kind} />
                  </td>
                  <td className="mono">{r.orders}</td>
                  <td className="mono">{r.lines}</td>
                  <td className="mono">{money(r.revenue)}</td>
                  <td className="mono">{share(r.revenue, s.revenue)}</td>
                </tr>
              ))}
              <tr data-testid="orders-summary-uncredited">
                <td className="muted">no credit</td>
                <td className="mono">—</td>
                <td className="mono">{s.uncredited.lines}</td>
                <td className="mono">{money(s.uncredited.revenue)}</td>
                <td className="mono">{share(s.uncredited.revenue, s.revenue)}</td>
              </tr>
            </tbody>
          </table>
        </div>
        {s.duplicates.orders > 0 ? (
          <p className="notice error small" data-testid="orders-summary-duplicates">
            {plural(s.duplicates.orders, 'order')} sent again{' '}
            {s.duplicates.orders === 1 ? 'adds' : 'add'} {money(s.duplicates.revenue)} to this
            revenue: the provider counts every <code>order/transaction</code>, so its reports would
            too (order-duplicate, or order-reloaded for a reload of the thank-you page).
          </p>
        ) : (
          <p className="small muted" data-testid="orders-summary-duplicates">
            No order was sent twice.
          </p>
        )}
        {s.withErrors.orders > 0 ? (
          <p className="notice error small" data-testid="orders-summary-errors">
            {money(s.withErrors.revenue)} of this revenue ({share(s.withErrors.revenue, s.revenue)})
            sits on {plural(s.withErrors.orders, 'order')} with errors: on the order, its lines or
            the click a line is credited to. Open an order below for each finding and its fix.
          </p>
        ) : (
          <p className="small muted" data-testid="orders-summary-errors">
            No order has an error.
          </p>
        )}
        {s.pricesInDoubt.orders > 0 && (
          <p className="notice error small" data-testid="orders-summary-prices">
            <strong>Prices in cents?</strong> {plural(s.pricesInDoubt.orders, 'order')} (
            {money(s.pricesInDoubt.revenue)} of the revenue) price a line about 100× what the
            visit's cart said for it: the revenue above counts those lines as sent.
          </p>
        )}
        <p className="small muted">
          Revenue is Σ qty × price of the lines as sent; a line counts for the kind of the
          interaction it is credited to (the sandbox's model: README, "Credit").
        </p>
      </div>
    </section>
  );
}
