// What is wrong with an order, on the order itself: each finding that concerns it (GET /_sandbox/orders
// carries them) as text with its rule id, what happened and its fix, so nobody has to open the timelines.
import { plural } from '../../../../shared/text';
import type { OrderDto, OrderFindingDto } from '../../../../shared/visits';
import { followNote, followVerb, foldFindings } from '../../../../shared/timeline';
import { useRules } from '../../state/rules';
import { routeHref } from '../../router';
import { pageKey } from '../../state/pages';
import { SeverityBadge } from '../../components/common';
import './orders.css';

/** Does a line of the order rest its credit on this interaction (else the service rejected it: no credit)? */
function credits(order: Pick<OrderDto, 'lines'>, eventId: string): boolean {
  return order.lines.some((l) => l.credit?.eventId === eventId);
}

/**
 * Where a finding of a click sits: that click, linked on its page; a click a line's credit rests on, or one
 * the service rejected, which cost a line the credit it would have earned.
 */
function OnInteraction({
  order,
  f,
}: {
  order: Pick<OrderDto, 'siteId' | 'lines'>;
  f: OrderFindingDto;
}) {
  const i = f.interaction;
  if (!i) return null;
  const link = (
    <a
      href={routeHref({
        view: 'timelines',
        pageKey: pageKey({ siteId: order.siteId, pageLoadId: i.pageLoadId }),
        eventId: i.eventId,
      })}
      className="mono"
    >
      {i.eventId}
    </a>
  );
  const page = <span className="mono">{i.pageLoadId}</span>;
  return credits(order, i.eventId) ? (
    <span className="finding-message small" data-testid="order-finding-interaction">
      On the {i.event} this order's credit rests on: {link} (page {page}): the credit it earned is
      in doubt.
    </span>
  ) : (
    <span className="finding-message small" data-testid="order-finding-interaction">
      On the {i.event} the service rejected: {link} (page {page}): the line it would have credited
      has no credit.
    </span>
  );
}

export function OrderFindings({
  order,
}: {
  order: Pick<OrderDto, 'findings' | 'siteId' | 'lines'>;
}) {
  const rules = useRules();
  if (order.findings.length === 0)
    return (
      <p className="notice ok small" data-testid="order-no-findings">
        No findings: nothing about this order or its lines breaks a rule.
      </p>
    );
  // a finding that follows from another (causedBy) is folded under the one that names the cause, as the
  // page view folds its own
  const { leading, following } = foldFindings(order.findings);
  const item = (f: OrderFindingDto, cause?: OrderFindingDto) => {
    const folded = following.get(f.id) ?? [];
    return (
      <li
        key={f.id}
        className={`finding static ${f.severity}${cause ? ' follows' : ''}`}
        data-testid="order-finding"
        data-rule={f.rule}
        data-on={f.interaction ? 'interaction' : 'order'}
        {...(cause && { 'data-caused-by': cause.id })}
      >
        <span className="finding-head">
          <SeverityBadge severity={f.severity} />
          <code className="finding-rule">{f.rule}</code>
          <span className="strong">{rules.get(f.rule)?.title}</span>
        </span>
        {cause && (
          <span className="small muted" data-testid="order-finding-follows-from">
            follows from {cause.rule}: fix that first
          </span>
        )}
        <OnInteraction order={order} f={f} />
        <span className="finding-message">{f.message}</span>
        <span className="finding-message" data-testid="order-finding-fix">
          <strong>Fix:</strong> {f.fix}
        </span>
        {folded.length > 0 && (
          <details className="finding-consequences" data-testid="order-finding-consequences">
            <summary className="small">
              {plural(folded.length, 'more finding')} {followVerb(folded.length)} from this one
            </summary>
            <ul className="finding-list">{folded.map((c) => item(c, f))}</ul>
          </details>
        )}
      </li>
    );
  };
  return (
    <ul
      className="finding-list"
      aria-label="What is wrong with this order"
      data-testid="order-findings"
    >
      {leading.map((f) => item(f))}
    </ul>
  );
}

/**
 * What a list row says of an order's findings: how many errors and warnings, and the worst. Notes (info,
 * such as production mode's dev-flag on every order of a live shop) stay in the detail, so they do not
 * drown the problems in the list.
 */
export function listedProblems(order: Pick<OrderDto, 'findings' | 'lines'>): {
  /** the list's badge: its errors and warnings by name ("1 error, 2 warnings"); infos are the detail's */
  label: string;
  /** info findings, left out of the badge (its title says they are in the detail) */
  infos: number;
  worst: '' | 'error' | 'warning';
  /** problems of the interactions its lines are credited to: the credit is in doubt */
  onCredit: number;
  /** problems of clicks the service rejected that would have credited a line: credit lost */
  lostCredit: number;
  /** a line priced about 100× what its cart said (cents against units?) */
  priceUnit: boolean;
} {
  const problems = order.findings.filter((f) => f.severity !== 'info');
  const errors = problems.filter((f) => f.severity === 'error').length;
  const warnings = problems.length - errors;
  const worst = errors > 0 ? 'error' : warnings > 0 ? 'warning' : '';
  // the count says how many follow from another finding, as a page's counts do
  const { following } = foldFindings(order.findings);
  let follow = 0;
  for (const list of following.values()) follow += list.filter((f) => f.severity !== 'info').length;
  const counts = [
    errors > 0 ? plural(errors, 'error') : '',
    warnings > 0 ? plural(warnings, 'warning') : '',
  ]
    .filter(Boolean)
    .join(', ');
  return {
    label: follow > 0 ? `${counts} (${followNote(follow)})` : counts,
    infos: order.findings.length - problems.length,
    worst,
    onCredit: problems.filter((f) => f.interaction && credits(order, f.interaction.eventId)).length,
    lostCredit: problems.filter((f) => f.interaction && !credits(order, f.interaction.eventId))
      .length,
    priceUnit: order.lines.some((l) => l.unitMismatch),
  };
}
