// Timelines: the list of sessions → pages beside the selected page, with the event inspector over it.
// Narrow windows show one of the three at a time, with a way back.
import { ErrorBoundary } from '../components/ErrorBoundary';
import { useCallback, useMemo, useState } from 'react';
import type { TimelineRuleId } from '../../../shared/timeline';
import { useRules } from '../state/rules';
import { CodeBlock, Empty, Loaded, SeverityBadge } from '../components/common';
import { currentSandboxTime } from '../components/ClockControl';
import { plural } from '../format';
import { navigate, routeHref } from '../router';
import { beaconCurl, beaconBody, newSnippetIds } from '../../../shared/snippets';
import { store, useSandbox } from '../state/store';
import { setFilters, useFilters } from '../state/filters';
import { matchesFilters } from '../state/timeline-rows';
import { useServerMatches } from '../state/server-matches';
import { useSnippetAccount } from '../state/snippet-account';
import { EventInspector } from './inspector/EventInspector';
import { PageView } from './timelines/PageView';
import { TimelineList } from './timelines/TimelineList';
import { grouped } from '../../../shared/text';

/** First run: how to send the first event, right where it will appear. */
function FirstEvent() {
  const { siteId } = useSnippetAccount();
  const requests = useSandbox((s) => s.events.length);
  const [ids] = useState(() => newSnippetIds(currentSandboxTime()));
  const code = beaconCurl(
    location.origin,
    `/beacon/v2/${siteId}/search/render`,
    beaconBody('render', ids),
  );
  return (
    <Empty title="No pages yet" testId="timelines-empty">
      {requests > 0 ? (
        <p>
          {plural(requests, 'request')} recorded, none of them a search event with a page. See them
          under <a href="#/requests">Requests</a>.
        </p>
      ) : (
        <p>Point a storefront at this sandbox, or send a first event from a terminal:</p>
      )}
      <div className="empty-snippet">
        <CodeBlock title="search/render" code={code} testId="first-event-snippet" />
      </div>
      <p className="small">
        More snippets (beacon.js, every event, indexing) under <a href="#/connect">Connect</a>.
      </p>
    </Empty>
  );
}

/** The order of the Overview's rules: errors, warnings, infos (a rule turned off never has findings). */
const SEVERITY_RANK: Record<string, number> = { error: 0, warning: 1, info: 2 };
const rankOf = (severity: string) => SEVERITY_RANK[severity] ?? 3;

/** A rule's row of the Overview: on how many pages, and at which severity on which sites. */
interface RuleRow {
  rule: TimelineRuleId;
  pages: number;
  /** severity in force ('' before the rule list has told a rule's own) → the sites it has it on */
  sites: Map<string, Set<string>>;
}

/** The most severe of a row's severities: where it sorts. */
const worstOf = (row: RuleRow) => Math.min(...[...row.sites.keys()].map(rankOf));

/** At most this many sites are named beside a severity; more read as a count. */
const SITES_NAMED = 3;

function sitesText(sites: ReadonlySet<string>): string {
  const all = [...sites].sort();
  if (all.length <= SITES_NAMED) return all.join(', ');
  return `${all.slice(0, SITES_NAMED).join(', ')} and ${plural(all.length - SITES_NAMED, 'other site')}`;
}

/**
 * The severity the row's findings carry (the level in force, which the config may have set); when sites
 * differ, each severity with its sites, the rule's own (or the most common) read as "elsewhere".
 */
function RuleSeverity({ row, own }: { row: RuleRow; own: string | undefined }) {
  const levels = [...row.sites.entries()].filter(([severity]) => severity !== '');
  if (levels.length === 0) return null;
  if (levels.length === 1) return <SeverityBadge severity={levels[0]![0]} />;
  const elsewhere =
    levels.find(([severity]) => severity === own) ??
    [...levels].sort((a, b) => b[1].size - a[1].size || rankOf(b[0]) - rankOf(a[0]))[0]!;
  const named = levels.filter((l) => l !== elsewhere).sort((a, b) => rankOf(a[0]) - rankOf(b[0]));
  return (
    <span data-testid="rule-severity-by-site">
      {named.map(([severity, sites]) => (
        <span key={severity}>
          <SeverityBadge severity={severity} /> on {sitesText(sites)},{' '}
        </span>
      ))}
      <SeverityBadge severity={elsewhere[0]} /> elsewhere
    </span>
  );
}

/** What shows beside the list before a page is picked: verdicts and the rules that fire most. */
function Overview() {
  const ruleInfo = useRules();
  const pages = useSandbox((s) => s.pages);
  const filters = useFilters();
  const filtered = Object.values(filters).some(Boolean);
  const found = useServerMatches(filters, pages.version);
  // the same pages the list shows: the verdict cards count those passing the other filters
  const { verdicts, rules } = useMemo(() => {
    const v = { pass: 0, warn: 0, fail: 0 };
    const r = new Map<TimelineRuleId, RuleRow>();
    for (const p of pages.summaries.values()) {
      if (!matchesFilters(p, filters, found)) continue;
      v[p.verdict] += 1;
      if (filters.verdict && p.verdict !== filters.verdict) continue;
      for (const rule of p.rules) {
        let row = r.get(rule);
        if (!row) r.set(rule, (row = { rule, pages: 0, sites: new Map() }));
        row.pages += 1;
        // the severity the page's findings carry: the config's level, else the rule's own
        const severity = p.severities?.[rule] ?? ruleInfo.get(rule)?.defaultSeverity ?? '';
        let sites = row.sites.get(severity);
        if (!sites) row.sites.set(severity, (sites = new Set()));
        sites.add(p.siteId);
      }
    }
    // errors first, then warnings, then infos (a rule that is an error on one site is among the errors);
    // within a severity the rule on the most pages first
    return {
      verdicts: v,
      rules: [...r.values()].sort((a, b) => worstOf(a) - worstOf(b) || b.pages - a.pages),
    };
  }, [pages, filters, found, ruleInfo]);
  return (
    <div className="overview" data-testid="timelines-overview">
      <h2>Overview</h2>
      {filtered && (
        <p className="small muted" data-testid="overview-filtered">
          Of the pages matching the filters.
        </p>
      )}
      <div className="metric-row">
        {(['fail', 'warn', 'pass'] as const).map((v) => (
          <div key={v} className={`metric ${v}`}>
            <span className="metric-value">{grouped(verdicts[v])}</span>
            <span className="metric-label">{v} pages</span>
          </div>
        ))}
      </div>
      {rules.length > 0 ? (
        <>
          <h3 className="section-title">Findings by rule</h3>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">Severity</th>
                <th scope="col">What it checks</th>
                <th scope="col">Pages</th>
              </tr>
            </thead>
            <tbody>
              {rules.map((row) => (
                <tr key={row.rule}>
                  <td>
                    <button
                      type="button"
                      className="link-button rule-link"
                      onClick={() => setFilters({ ...filters, verdict: '', rule: row.rule })}
                      aria-label={`List the pages with ${row.rule} findings`}
                    >
                      <code>{row.rule}</code>
                    </button>
                  </td>
                  <td>
                    <RuleSeverity row={row} own={ruleInfo.get(row.rule)?.defaultSeverity} />
                  </td>
                  <td>{ruleInfo.get(row.rule)?.title}</td>
                  <td className="mono">{plural(row.pages, 'page')}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="small muted">Pick a rule to list its pages.</p>
        </>
      ) : (
        <p className="muted">No findings so far.</p>
      )}
      <p className="small muted">
        Select a page to see its events on a time axis. ↑/↓ move through the list.
      </p>
    </div>
  );
}

export function TimelinesView({
  pageKey,
  eventId,
  findingId = null,
}: {
  pageKey: string | null;
  eventId: string | null;
  findingId?: string | null;
}) {
  const load = useSandbox((s) => s.load.pages);
  const closeInspector = useCallback(
    () => navigate({ view: 'timelines', pageKey, eventId: null, findingId }, true),
    [pageKey, findingId],
  );
  const selectEvent = useCallback(
    (id: string | null) => navigate({ view: 'timelines', pageKey, eventId: id, findingId }, true),
    [pageKey, findingId],
  );
  const selectFinding = useCallback(
    (id: string | null) => navigate({ view: 'timelines', pageKey, eventId, findingId: id }, true),
    [pageKey, eventId],
  );
  const mode = eventId ? 'inspect' : pageKey ? 'page' : 'list';

  return (
    <div className="timelines" data-mode={mode} data-testid="timelines-view">
      <Loaded state={load} what="timelines" onRetry={() => void store.loadAll()}>
        <ErrorBoundary what="the page list">
          <TimelineList selectedKey={pageKey} emptyState={<FirstEvent />} />
        </ErrorBoundary>
        <div className="detail">
          {pageKey ? (
            <>
              <div className="detail-scroll">
                <a
                  className="btn small back-link"
                  href={routeHref({ view: 'timelines', pageKey: null, eventId: null })}
                >
                  ← All pages
                </a>
                <ErrorBoundary key={pageKey} what="this page">
                  <PageView
                    pageKey={pageKey}
                    selectedEventId={eventId}
                    onSelectEvent={selectEvent}
                    findingId={findingId}
                    onSelectFinding={selectFinding}
                  />
                </ErrorBoundary>
              </div>
              {eventId && (
                <ErrorBoundary key={eventId} what="this event">
                  <EventInspector eventId={eventId} onClose={closeInspector} />
                </ErrorBoundary>
              )}
            </>
          ) : (
            <div className="detail-scroll">
              <ErrorBoundary what="the overview">
                <Overview />
              </ErrorBoundary>
            </div>
          )}
        </div>
      </Loaded>
    </div>
  );
}
