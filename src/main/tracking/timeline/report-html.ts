// The timelines as one self-contained HTML file a QA can attach to a ticket: a summary on top (the verdicts,
// and each rule with the pages it fails), then the failing pages first, then the warned, then the passing
// (each group in time order), every page with its events: responses' events and its product, cart, order
// and login events alike.
import type {
  PageEventDto,
  PageTimelineDto,
  TimelineFindingDto,
  Verdict,
} from '../../../shared/timeline';
import { findingSubject, followNote } from '../../../shared/timeline';
import { RuleTallies, type TalliedFinding } from '../../../shared/rule-tally';
import { clockMovedNote } from '../../../shared/clock-offset';
import type { CartItemDto, VisitEventDto } from '../../../shared/visits';
import { kindsOf, LABEL, pageTitle } from './report';
import { WiderScope, type ListedElsewhere } from './wider-scope';

function esc(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px;color:#1d2330;background:#fff}
h1{font-size:20px;margin:0 0 4px}h2{font-size:15px;margin:0;overflow-wrap:anywhere}.muted{color:#5b6475}
.totals span{display:inline-block;margin-right:14px;font-weight:600}
.badge{display:inline-block;min-width:40px;text-align:center;border-radius:4px;padding:1px 6px;font-size:12px;font-weight:700;color:#fff}
.pass{background:#1f7a3d}.warn{background:#a86200}.fail{background:#b42318}.info{background:#41618c}.error{background:#b42318}.warning{background:#a86200}
section{border:1px solid #d6dae3;border-radius:6px;margin:16px 0;padding:12px 14px}
section header{display:flex;gap:10px;align-items:baseline;flex-wrap:wrap}
.finding{margin:8px 0;padding:6px 10px;border-left:4px solid #d6dae3;background:#f7f8fa}
.finding.error{border-color:#b42318;background:#fdf3f2}.finding.warning{border-color:#a86200;background:#fff8ec}.finding.info{border-color:#41618c}
.finding .badge{margin-right:6px}.finding .fix{margin-top:4px}.finding.follows{margin-left:28px}code{font:12px ui-monospace,Menlo,Consolas,monospace}
table{border-collapse:collapse;width:100%;margin:6px 0 10px;font-size:12.5px}th,td{text-align:left;padding:3px 8px;border-bottom:1px solid #eceef3;vertical-align:top}
th{color:#5b6475;font-weight:600}.kind{display:inline-block;border:1px solid #c5cbd8;border-radius:10px;padding:0 7px;color:#1d2330;font-weight:600}tr.rejected td{color:#b42318}.late{color:#a86200}
.summary{border:1px solid #d6dae3;border-radius:6px;padding:10px 14px;margin:12px 0 20px}.summary h2{margin-bottom:6px}.summary table{width:auto;min-width:min(640px,100%)}
.group{font-size:16px;margin:24px 0 0}
@media print{section{break-inside:avoid}}`;

/** The summary on top as pages come: the verdicts and each rule's tally. */
export class HtmlSummary {
  private readonly rules = new RuleTallies();
  private readonly verdicts: Record<Verdict, number> = { fail: 0, warn: 0, pass: 0 };

  /** A page's verdict and the findings it shows (a wider rule listed for an earlier page left out). */
  add(verdict: Verdict, findings: readonly TalliedFinding[]): void {
    this.verdicts[verdict]++;
    this.rules.add(findings);
  }

  /** The file's head with this summary, before the failing pages. */
  head(source: string, now: number): string {
    return htmlHead(this.verdicts, source, now, this.rules);
  }
}

/**
 * The whole file, in pieces: the summary's head, then the pages of each verdict (their sections made only
 * when their turn comes), the failing first, then the warned, then the passing.
 */
export function* htmlParts<T>(
  summary: HtmlSummary,
  groups: Record<Verdict, readonly T[]>,
  section: (page: T) => string,
  source: string,
  now: number,
): Generator<string> {
  yield summary.head(source, now);
  for (const verdict of ['fail', 'warn', 'pass'] as const) {
    const list = groups[verdict];
    if (list.length === 0) continue;
    yield `\n<h2 class="group">${GROUP[verdict]} (${list.length})</h2>`;
    for (const page of list) yield `\n${section(page)}`;
  }
  yield HTML_END;
}

const GROUP: Record<Verdict, string> = {
  fail: 'Failing pages',
  warn: 'Pages with warnings',
  pass: 'Passing pages',
};

export function htmlReport(pages: readonly PageTimelineDto[], source: string, now: number): string {
  return [...htmlReportParts(pages, source, now)].join('');
}

/** The HTML report in pieces (a page's section each), for writing it as a stream. */
export function htmlReportParts(
  pages: readonly PageTimelineDto[],
  source: string,
  now: number,
): Iterable<string> {
  const summary = new HtmlSummary();
  // a finding about the whole session or site is written on its first page in time (wider-scope.ts)
  const once = new WiderScope();
  const groups: Record<Verdict, Array<{ page: PageTimelineDto; elsewhere: ListedElsewhere[] }>> = {
    fail: [],
    warn: [],
    pass: [],
  };
  for (const p of pages) {
    const shown = once.shown(p);
    summary.add(p.verdict, shown.page.findings);
    groups[p.verdict].push(shown);
  }
  return htmlParts(summary, groups, (s) => htmlSection(s.page, s.elsewhere), source, now);
}

function htmlHead(
  v: Record<Verdict, number>,
  source: string,
  now: number,
  rules: RuleTallies,
): string {
  const total = v.fail + v.warn + v.pass;
  const byRule = rules
    .sorted()
    .map(
      ({ rule, ...t }) =>
        `<tr><td><span class="badge ${t.severity}">${t.severity}</span></td><td><b>${esc(rule)}</b></td><td>${t.pages}</td><td>${t.findings}${t.following > 0 ? ` <span class="muted">(${followNote(t.following)})</span>` : ''}</td></tr>`,
    )
    .join('');
  const summary =
    total === 0
      ? '<p>No tracked events recorded.</p>'
      : `<div class="summary"><h2>Summary</h2><p>${
          v.fail > 0
            ? `${plural(v.fail, 'page')} ${v.fail === 1 ? 'fails' : 'fail'}; ${v.fail === 1 ? 'it is' : 'they are'} listed first.`
            : v.warn > 0
              ? 'No page fails; the pages with warnings are listed first.'
              : 'Every page passes.'
        }</p>${
          byRule
            ? `<table><thead><tr><th>worst</th><th>rule</th><th>pages</th><th>findings</th></tr></thead><tbody>${byRule}</tbody></table>`
            : ''
        }</div>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Beacon timelines report — ${esc(source)}</title><style>${CSS}</style></head>
<body><h1>Beacon timelines report</h1>
<p class="muted">Source: ${esc(source)} · generated ${new Date(now).toISOString()} by search-sandbox</p>
<p class="totals"><span>${plural(total, 'page')}:</span><span>fail <span class="badge fail">${v.fail}</span></span><span>warn <span class="badge warn">${v.warn}</span></span><span>pass <span class="badge pass">${v.pass}</span></span></p>
${summary}`;
}

const HTML_END = `
</body></html>
`;

/** `events ev_1, ev_2 (+3 more)` */
function eventsHtml(f: TimelineFindingDto): string {
  const more =
    f.eventCount > f.eventIds.length ? ` (+${f.eventCount - f.eventIds.length} more)` : '';
  return `${f.eventIds.length === 1 && !more ? 'event' : 'events'} ${esc(f.eventIds.join(', '))}${more}`;
}

function findingHtml(f: TimelineFindingDto, cause?: TimelineFindingDto): string {
  // a finding that follows from another is folded under it (it is listed right after its cause)
  const follows = cause ? `<span class="muted"> follows from ${esc(cause.rule)}</span>` : '';
  return `<div class="finding ${f.severity}${cause ? ' follows' : ''}"><span class="badge ${f.severity}">${f.severity}</span><b>${esc(f.rule)}</b>${esc(findingSubject(f))}${follows} <span class="muted">${eventsHtml(f)}</span><div>${esc(f.message)}</div><div class="fix"><b>Fix:</b> ${esc(f.fix)}</div></div>`;
}

/** A finding about the whole session or site told with an earlier page: named here in a line. */
function elsewhereHtml({ finding: f, scope, page }: ListedElsewhere): string {
  return `<div class="finding ${f.severity}"><span class="badge ${f.severity}">${f.severity}</span><b>${esc(f.rule)}</b>${esc(findingSubject(f))} <span class="muted">${eventsHtml(f)} · about the whole ${scope}: told with page ${esc(page)}</span></div>`;
}

/** When an event was received (sandbox time), and how far the clock was moved then: `(clock moved +1 h 01 min)`. */
function receivedHtml(e: PageEventDto): string {
  const at = esc(e.receivedAt ?? '—');
  const realMs = Date.parse(e.receivedAt ?? '') - (e.clockOffsetMs ?? 0);
  if (!e.clockOffsetMs || !Number.isFinite(realMs)) return at;
  const real = new Date(realMs).toISOString();
  return `${at} <span class="muted" title="sandbox time; real time ${esc(real)}">(${esc(clockMovedNote(e.clockOffsetMs))})</span>`;
}

function responsesHtml(p: PageTimelineDto): string {
  return p.responses
    .map((r) => {
      const rows = r.events
        .map(
          (e) =>
            `<tr class="${e.accepted ? '' : 'rejected'}"><td><code>${esc(e.id)}</code></td><td>${esc(e.event)}</td><td>${esc(e.timestamp ?? '—')}</td><td>${receivedHtml(e)}</td><td${e.arrivedLate ? ' class="late" title="arrived after an event with a later timestamp"' : ''}>${e.arrival}${e.arrivedLate ? ' (late)' : ''}</td><td>${esc([...e.uids, ...e.bannerUids.map((b) => `banner ${b}`), ...(e.redirect ? [`→ ${e.redirect}`] : [])].join(', '))}</td><td>${e.accepted ? '' : esc(e.errors.join('; '))}</td></tr>`,
        )
        .join('');
      return `<h3 class="muted" style="font-size:13px;margin:10px 0 0"><span class="kind">${esc(r.kind)}</span>${r.tag ? ` tag <code>${esc(r.tag)}</code>` : ''} responseId <code>${esc(r.responseId || '(none)')}</code></h3><table><thead><tr><th>id</th><th>event</th><th>timestamp</th><th>received</th><th>arrival</th><th>items</th><th>errors</th></tr></thead><tbody>${rows}</tbody></table>`;
    })
    .join('');
}

/** `2 × 1030 at 25` (uid, else parentId or sku) */
function itemText(i: CartItemDto): string {
  const id = i.uid || i.parentId || i.sku || '(no id)';
  return `${i.qty} × ${id} at ${i.price}`;
}

function visitEventDetail(e: VisitEventDto): string {
  const parts: string[] = [];
  if (e.orderId !== undefined) parts.push(`order ${e.orderId === '' ? '(no orderId)' : e.orderId}`);
  if (e.transactionTotal !== undefined)
    parts.push(`transactionTotal ${e.transactionTotal}, total ${e.total ?? '—'}`);
  if (e.items.length > 0)
    parts.push(
      e.endpoint === 'product/pageview'
        ? `product ${e.items.map((i) => i.uid || i.parentId || i.sku).join(', ')}`
        : e.items.map(itemText).join(', '),
    );
  if (e.cart) parts.push(`cart: ${e.cart.length ? e.cart.map(itemText).join(', ') : 'empty'}`);
  return parts.join('; ');
}

/** The page's product, cart, order and login events, as the responses' events are shown. */
function visitEventsHtml(p: PageTimelineDto): string {
  const events = p.visitEvents ?? [];
  if (events.length === 0) return '';
  const rows = events
    .map(
      (e) =>
        `<tr class="${e.accepted ? '' : 'rejected'}"><td><code>${esc(e.id)}</code></td><td>${esc(e.endpoint)}</td><td>${esc(e.timestamp ?? '—')}</td><td>${receivedHtml(e)}</td><td>${e.arrival}</td><td>${esc(visitEventDetail(e))}</td><td>${e.accepted ? '' : esc(e.errors.join('; '))}</td></tr>`,
    )
    .join('');
  return `<h3 class="muted" style="font-size:13px;margin:10px 0 0"><span class="kind">${esc(p.pageKind)}</span> events</h3><table><thead><tr><th>id</th><th>event</th><th>timestamp</th><th>received</th><th>arrival</th><th>what</th><th>errors</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The page's line under its title: what it is, where, whose, how many events, when. */
function pageMeta(p: PageTimelineDto): string {
  const kinds = kindsOf(p);
  const what =
    p.pageKind === 'product' || p.pageKind === 'cart' || p.pageKind === 'order'
      ? `${p.pageKind} page${kinds ? ` (${kinds})` : ''}`
      : kinds || `${p.pageKind} page`;
  return [
    what,
    ...(p.judgedAsFinished ? ['judged as finished'] : []),
    `site ${p.siteId}`,
    `session ${p.sessionId || '(none)'}`,
    `user ${p.userId || '(none)'}`,
    plural(p.counts.events, 'event'),
    ...(p.firstSeen ? [p.firstSeen] : []),
  ].join(' · ');
}

/**
 * One page's section: its verdict, findings and events. `elsewhere`: its findings about the whole session
 * or site told with an earlier page (wider-scope.ts), named in a line each.
 */
export function htmlSection(
  p: PageTimelineDto,
  elsewhere: readonly ListedElsewhere[] = [],
): string {
  const byId = new Map(p.findings.map((f) => [f.id, f]));
  const findings =
    p.findings
      .map((f) => findingHtml(f, f.causedBy !== undefined ? byId.get(f.causedBy) : undefined))
      .join('') + elsewhere.map(elsewhereHtml).join('');
  return `<section data-verdict="${p.verdict}"><header><span class="badge ${p.verdict}">${LABEL[p.verdict]}</span><h2>${esc(pageTitle(p))}</h2><span class="muted">${esc(pageMeta(p))}</span></header>${findings || '<p class="muted">No findings.</p>'}${responsesHtml(p)}${visitEventsHtml(p)}</section>`;
}
