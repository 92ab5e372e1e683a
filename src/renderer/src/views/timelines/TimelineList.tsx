// The timelines list: sessions (newest first) → their pages in visit order, with filters, in a virtualised list that keeps
// the rows you are looking at in place while new pages arrive above them.
import {
  useDeferredValue,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { SEARCH_EVENTS } from '../../../../shared/events';
import { RESPONSE_KINDS } from '../../../../shared/kinds';
import {
  findingCount,
  followNote,
  followVerb,
  type TimelineRuleId,
} from '../../../../shared/timeline';
import { IdEnd, ResponseKind, VerdictBadge } from '../../components/common';
import { PageUrl } from '../../components/PageUrl';
import { setFilters, useFilters } from '../../state/filters';
import { useScrollAnchor } from '../../components/useScrollAnchor';
import { fmtClock, parseTime, plural, urlPath } from '../../format';
import { navigate, routeHref } from '../../router';
import { useServerMatches } from '../../state/server-matches';
import { useSandbox } from '../../state/store';
import { useRules } from '../../state/rules';
import {
  buildRows,
  matchesFilters,
  NO_FILTERS,
  type PageRow,
  type SessionRow,
  type TimelineFilters,
} from '../../state/timeline-rows';
import { grouped } from '../../../../shared/text';

const SESSION_H = 34;
const PAGE_H = 58;

function SessionHeader({
  row,
  showSite,
  onToggle,
}: {
  row: SessionRow;
  /** the list shows more than one site: sessions of two sites may share a sessionId */
  showSite: boolean;
  onToggle(): void;
}) {
  return (
    <button
      type="button"
      className="row session-row"
      aria-expanded={!row.collapsed}
      onClick={onToggle}
      data-testid="session-row"
      data-session-id={row.sessionId}
      data-site-id={row.siteId}
    >
      <span className="chevron" aria-hidden="true">
        {row.collapsed ? '▸' : '▾'}
      </span>
      <span
        className="session-label"
        title={`${row.sessionId ? `session ${row.sessionId}` : 'no sessionId'}, user ${row.userId || '(none)'}, site ${row.siteId}`}
      >
        {showSite && (
          <span className="session-site" data-testid="session-site">
            <span className="mono">{row.siteId}</span> ·{' '}
          </span>
        )}
        session{' '}
        {row.sessionId ? (
          <IdEnd id={row.sessionId} />
        ) : (
          <span className="muted" data-testid="session-none">
            (no sessionId)
          </span>
        )}
        <span className="muted"> · {plural(row.pages, 'page')}</span>
      </span>
      <span className={`dot-verdict ${row.verdict}`} title={`worst verdict: ${row.verdict}`} />
      <span className="mono muted small">{fmtClock(parseTime(row.lastSeen))}</span>
    </button>
  );
}

/** Kinds a row names (a search or category page says so by its response kinds already). */
const ROW_PAGE_KINDS: ReadonlySet<string> = new Set(['order', 'product', 'cart', 'other']);

/**
 * A row's name as a screen reader says it, one line: its verdict, its path whole (the row shows it in two
 * parts so that its tail stays readable), then its counts — "PASS, /search?q=jacket, 3 events".
 */
function rowName(row: PageRow): string {
  const p = row.page;
  const kinds = (p.kinds ?? []).some((k) => k !== 'search') ? (p.kinds ?? []) : [];
  return [
    p.verdict.toUpperCase(),
    p.pageLoadId ? urlPath(p.pageUrl) : 'events without a readable pageLoadId',
    plural(p.counts.events, 'event'),
    p.counts.responses > 1 && `${p.counts.responses} responses`,
    ROW_PAGE_KINDS.has(p.pageKind) && `${p.pageKind} page`,
    ...kinds,
    p.counts.rejected > 0 && `${p.counts.rejected} rejected`,
    row.counts.errors > 0 && findingCount(row.counts.errors, 'error'),
    row.counts.warnings > 0 && findingCount(row.counts.warnings, 'warning'),
    row.counts.infos > 0 && findingCount(row.counts.infos, 'info'),
    row.following > 0 && followNote(row.following),
    row.elsewhere && elsewhereNote(row.elsewhere),
  ]
    .filter(Boolean)
    .join(', ');
}

function PageLine({
  row,
  selected,
  tabbable,
}: {
  row: PageRow;
  selected: boolean;
  tabbable: boolean;
}) {
  const p = row.page;
  const counts = useRef<HTMLSpanElement>(null);
  const kinds = useRef<HTMLSpanElement>(null);
  useWordsGiveWay(counts, kinds, row);
  return (
    <a
      className="row page-row"
      href={routeHref({ view: 'timelines', pageKey: row.key, eventId: null })}
      aria-label={rowName(row)}
      aria-current={selected ? 'true' : undefined}
      data-testid="page-row"
      data-page-key={row.key}
      data-page-load-id={p.pageLoadId}
      data-verdict={p.verdict}
      // one tab stop for the whole list (roving tabindex); the arrow keys move within it
      tabIndex={tabbable ? 0 : -1}
    >
      <VerdictBadge verdict={p.verdict} />
      <span className="page-row-main">
        <span className="page-row-line">
          {p.pageLoadId ? (
            <PageUrl url={p.pageUrl} className="strong" />
          ) : (
            <span className="ellipsis strong">events without a readable pageLoadId</span>
          )}
          <span className="mono muted small nowrap">{fmtClock(parseTime(p.firstSeen))}</span>
        </span>
        <span className="page-row-line small muted">
          <span className="page-row-count" data-testid="row-event-count">
            {plural(p.counts.events, 'event')}
            {p.counts.responses > 1 && ` · ${p.counts.responses} responses`}
          </span>
          {/* where the row is tight the badges shorten their words first (useWordsGiveWay) */}
          <span className="page-row-kinds" ref={kinds}>
            {ROW_PAGE_KINDS.has(p.pageKind) && (
              <span className="badge" data-testid="row-page-kind" title={`${p.pageKind} page`}>
                {p.pageKind}
                <span className="kind-word"> page</span>
              </span>
            )}
            {/* a page that is only search says nothing more; other kinds are named */}
            {(p.kinds ?? []).some((k) => k !== 'search') && (
              <span className="response-kinds" data-testid="row-kinds">
                {(p.kinds ?? []).map((k) => (
                  <ResponseKind key={k} kind={k} short={SHORT_KIND[k] ?? k} />
                ))}
              </span>
            )}
          </span>
          <span className="finding-counts" data-testid="finding-counts" ref={counts}>
            {p.counts.rejected > 0 && (
              <CountChip className="rejected" n={p.counts.rejected} word="rejected" short="rej" />
            )}
            {row.counts.errors > 0 && (
              <CountChip
                className="fail"
                short="err"
                n={row.counts.errors}
                word={findingCount(row.counts.errors, 'error').replace(/^\d+ /, '')}
              />
            )}
            {row.counts.warnings > 0 && (
              <CountChip
                className="warn"
                short="warn"
                n={row.counts.warnings}
                word={findingCount(row.counts.warnings, 'warning').replace(/^\d+ /, '')}
              />
            )}
            {row.counts.infos > 0 && (
              <CountChip className="info" n={row.counts.infos} word="info" short="info" />
            )}
            {row.following > 0 && (
              // folded under the finding that names the cause in the page view (↳, as check prints them);
              // on a tight line its word gives way first, never a number; the note says it whole
              <span
                className="count-chip following"
                title={followNote(row.following)}
                aria-label={followNote(row.following)}
                data-testid="row-following"
              >
                <span className="following-count">↳ {row.following}</span>
                <span className="following-word"> {followVerb(row.following)}</span>
              </span>
            )}
            {row.elsewhere && <ElsewhereChip {...row.elsewhere} />}
          </span>
        </span>
      </span>
    </a>
  );
}

/**
 * When the row's line is too tight for its counts' words, the words give way whole — the note's word first,
 * then every count's is shortened ("2 err"), then they go — and the numbers stay whole in their colours (a cut "3 err…" or "1 r…" reads as nothing); each count says itself whole in
 * its label and tooltip. Measured on layout and whenever the line's width changes.
 */
function useWordsGiveWay(
  ref: React.RefObject<HTMLSpanElement | null>,
  kindsRef: React.RefObject<HTMLSpanElement | null>,
  row: unknown,
): void {
  useLayoutEffect(() => {
    const el = ref.current;
    const kinds = kindsRef.current;
    const line = el?.closest('.page-row-line');
    if (!el || !line) return;
    const cut = (selector: string) =>
      [...el.querySelectorAll<HTMLElement>(selector)].some(
        (c) => c.scrollWidth > c.clientWidth + 0.5,
      );
    const fit = () => {
      el.classList.remove('numbers-only', 'short-words', 'no-follow-word');
      kinds?.classList.remove('short-kinds');
      // the badges' words are shortened first ("product", "recs"), then the note's word goes, then the
      // counts' words are shortened ("2 err"), then they go
      if (kinds && (kinds.scrollWidth > kinds.clientWidth + 0.5 || cut('.count-chip')))
        kinds.classList.add('short-kinds');
      if (cut('.following-word')) el.classList.add('no-follow-word');
      if (!cut('.count-chip:not(.following)')) return;
      el.classList.add('short-words');
      if (cut('.count-chip:not(.following)')) el.classList.add('numbers-only');
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(line);
    return () => observer.disconnect();
  }, [ref, kindsRef, row]);
}

/** A response kind's word on a tight row (its badge's title names it whole). */
const SHORT_KIND: Readonly<Record<string, string>> = {
  search: 'search',
  category: 'cat',
  autocomplete: 'ac',
  recommendations: 'recs',
  bundles: 'bndl',
};

/**
 * A count of the row's line: its number, then its word, shortened or gone when the line is too tight
 * (`useWordsGiveWay`); the whole count is its label.
 */
function CountChip({
  className,
  n,
  word,
  short,
}: {
  className: string;
  n: number;
  word: string;
  /** the word where the line is tight: "err", "warn" */
  short: string;
}) {
  return (
    <span className={`count-chip ${className}`} title={`${n} ${word}`} aria-label={`${n} ${word}`}>
      <span className="count-number">{n}</span>
      <span className="count-word"> {word}</span>
      <span className="count-short" aria-hidden="true">
        {' '}
        {short}
      </span>
    </span>
  );
}

/**
 * A page's errors and warnings about its whole session (production mode's dev-flag raised by a rule level),
 * shown with the session's first page: named here so that the row's verdict has what makes it beside it.
 */
function elsewhereNote({ errors, warnings }: { errors: number; warnings: number }): string {
  return [
    errors > 0 && `${errors} session error${errors === 1 ? '' : 's'}`,
    warnings > 0 && `${warnings} session warning${warnings === 1 ? '' : 's'}`,
  ]
    .filter(Boolean)
    .join(', ');
}

function ElsewhereChip({ errors, warnings }: { errors: number; warnings: number }) {
  const what = elsewhereNote({ errors, warnings });
  return (
    <span
      className={`count-chip elsewhere ${errors > 0 ? 'fail' : 'warn'}`}
      data-testid="told-elsewhere"
      title="about the whole session: shown with the session's first page"
    >
      {what}
    </span>
  );
}

type Option = [value: string, text: string];

/** One of the list's drop-down filters: '' is "any". Options may come in labelled groups. */
function FilterSelect(props: {
  label: string;
  testId: string;
  value: string;
  onChange(value: string): void;
  any: string;
  options: Option[] | Array<{ label: string; options: Option[] }>;
  /** the full text of the chosen option, shown on hover */
  title?: string;
  /** as wide as its longest option (a rule id is never cut) */
  wide?: boolean;
}) {
  const option = ([value, text]: Option) => (
    <option key={value} value={value}>
      {text}
    </option>
  );
  return (
    <select
      aria-label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      data-testid={props.testId}
      title={props.title}
      className={props.wide ? 'select-wide' : undefined}
    >
      <option value="">{props.any}</option>
      {props.options.map((o) =>
        Array.isArray(o) ? (
          option(o)
        ) : o.options.length > 0 ? (
          <optgroup key={o.label} label={o.label}>
            {o.options.map(option)}
          </optgroup>
        ) : null,
      )}
    </select>
  );
}

/**
 * The Rule filter's options: the rules the pages here have, most pages first, each with its count of
 * pages. A rule no page has is listed only while a link names it (so the choice shows what is chosen).
 */
function ruleOptions(
  summaries: Iterable<{ rules: readonly TimelineRuleId[] }>,
  chosen: string,
): Array<{ label: string; options: Option[] }> {
  const counts = new Map<TimelineRuleId, number>();
  for (const p of summaries)
    for (const rule of p.rules) counts.set(rule, (counts.get(rule) ?? 0) + 1);
  const found = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return [
    {
      label: 'Found on pages here',
      options: found.map(([rule, n]) => [rule, `${rule} (${grouped(n)})`]),
    },
    {
      label: 'On no page here',
      options: chosen && !counts.has(chosen) ? [[chosen, `${chosen} (0)`]] : [],
    },
  ];
}

function Filters({
  filters,
  set,
  sites,
  verdicts,
  rules,
}: {
  filters: TimelineFilters;
  set(f: Partial<TimelineFilters>): void;
  sites: string[];
  verdicts: Record<string, number>;
  rules: Array<{ label: string; options: Option[] }>;
}) {
  const rule = filters.rule as TimelineRuleId | '';
  const ruleInfo = useRules();
  return (
    <div className="filters" role="search" aria-label="Filter pages">
      <input
        type="search"
        className="filter-text"
        placeholder="Search responseId, uid, pageUrl…"
        // what a page is found by (Page.matches): no event id, which a page does not keep once its events go
        aria-label="Search pageUrl, responseId, item uid, orderId, pageLoadId, sessionId, userId or rule id"
        title="Finds pages by pageUrl, responseId, item uid, orderId, pageLoadId, sessionId, userId or rule id (an event id: Requests)"
        value={filters.text}
        onChange={(e) => set({ text: e.target.value })}
        data-testid="filter-text"
      />
      <div className="filter-row">
        {(
          [
            ['siteId', 'Site', 'All sites', sites.map((v) => [v, v])],
            ['kind', 'Kind of response', 'Any kind', RESPONSE_KINDS.map((v) => [v, v])],
            ['event', 'Event type', 'Any event', SEARCH_EVENTS.map((v) => [v, `with ${v}`])],
            ['rule', 'Rule', 'Any rule', rules],
          ] as const
        ).map(([field, label, any, options]) => (
          <FilterSelect
            key={field}
            label={label}
            testId={field === 'siteId' ? 'filter-site' : `filter-${field}`}
            wide={field === 'rule'}
            value={filters[field]}
            onChange={(value) => set({ [field]: value })}
            any={any}
            options={options as React.ComponentProps<typeof FilterSelect>['options']}
            title={
              field === 'rule' && rule
                ? `${rule}: ${ruleInfo.size === 0 ? '' : (ruleInfo.get(rule)?.title ?? 'not a rule of this version')}`
                : undefined
            }
          />
        ))}
        <div className="segmented" role="group" aria-label="Verdict">
          {(['', 'fail', 'warn', 'pass'] as const).map((v) => (
            <button
              key={v || 'all'}
              type="button"
              aria-pressed={filters.verdict === v}
              onClick={() => set({ verdict: v })}
              data-testid={`filter-verdict-${v || 'all'}`}
            >
              {v || 'all'}
              {v && <span className="seg-count">{verdicts[v] ?? 0}</span>}
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}

export function TimelineList({
  selectedKey,
  emptyState,
}: {
  selectedKey: string | null;
  emptyState: React.ReactNode;
}) {
  const pages = useSandbox((s) => s.pages);
  const filters = useFilters();
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  // Typing stays responsive with thousands of pages: filtering runs at lower priority than the input.
  const text = useDeferredValue(filters.text);
  // text and event type are searched inside the pages by the server
  const found = useServerMatches(filters, pages.version);
  const result = useMemo(
    () => buildRows(pages, { ...filters, text }, collapsed, found),
    [pages, filters, text, collapsed, found],
  );
  const { rows } = result;
  // counted over every page here, whatever the filters: the count says what picking the rule lists (at a
  // lower priority than the list itself, as the text filter: a live store changes many times a second)
  const counted = useDeferredValue(pages);
  const rules = useMemo(
    () => ruleOptions(counted.summaries.values(), filters.rule),
    [counted, filters.rule],
  );
  // The list's one tab stop: the selected page when it is listed, else the first page.
  const tabStop = rows.some((r) => r.key === selectedKey)
    ? selectedKey
    : (rows.find((r) => r.type === 'page')?.key ?? null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows[i]?.type === 'session' ? SESSION_H : PAGE_H),
    getItemKey: (i) => rows[i]?.key ?? i,
    overscan: 12,
  });

  const rememberAnchor = useScrollAnchor(
    scrollRef,
    rows,
    (r) => r.key,
    (r) => (r.type === 'session' ? SESSION_H : PAGE_H),
    () => {
      const top = scrollRef.current?.scrollTop ?? 0;
      const first = virtualizer.getVirtualItems().find((v) => v.end > top);
      return first ? { key: String(first.key), start: first.start } : null;
    },
  );

  const setFilter = (patch: Partial<TimelineFilters>) => setFilters((f) => ({ ...f, ...patch }));
  const toggle = (key: string) =>
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  function onKeyDown(e: KeyboardEvent) {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const pageRows = rows.map((r, i) => [r, i] as const).filter(([r]) => r.type === 'page');
    if (!pageRows.length) return;
    e.preventDefault();
    // Move from the focused row when there is one, else from the selected page.
    const focused = (document.activeElement as HTMLElement | null)?.dataset.pageKey ?? selectedKey;
    const at = pageRows.findIndex(([r]) => r.key === focused);
    const nextAt =
      at === -1
        ? 0
        : Math.min(pageRows.length - 1, Math.max(0, at + (e.key === 'ArrowDown' ? 1 : -1)));
    const [row, index] = pageRows[nextAt]!;
    virtualizer.scrollToIndex(index, { align: 'auto' });
    navigate({ view: 'timelines', pageKey: row.key, eventId: null }, true);
    requestAnimationFrame(() =>
      scrollRef.current
        ?.querySelector<HTMLElement>(`[data-page-key="${CSS.escape(row.key)}"]`)
        ?.focus(),
    );
  }

  const filtered =
    filters.siteId || filters.verdict || filters.kind || filters.event || filters.text;
  // the page open beside the list but left out of it by the filters in force: said, not silently omitted
  const open = selectedKey ? pages.summaries.get(selectedKey) : undefined;
  const openHidden =
    open !== undefined &&
    !(
      matchesFilters(open, { ...filters, text }, found) &&
      (!filters.verdict || open.verdict === filters.verdict)
    );
  return (
    <section className="timeline-list" aria-label="Pages" data-testid="timeline-list">
      <Filters
        filters={filters}
        set={setFilter}
        sites={result.sites}
        verdicts={result.verdicts}
        rules={rules}
      />
      <div className="list-status small muted" aria-live="polite">
        <span data-testid="pages-shown">
          {result.shown === result.total
            ? plural(result.total, 'page')
            : `${grouped(result.shown)} of ${plural(result.total, 'page')}`}
        </span>
        {filtered && (
          <button type="button" className="btn small ghost" onClick={() => setFilters(NO_FILTERS)}>
            Clear filters
          </button>
        )}
      </div>
      {openHidden && (
        <div className="list-hidden-open small" role="status" data-testid="open-page-hidden">
          <span>The open page is hidden by the filters.</span>
          <button type="button" className="btn small ghost" onClick={() => setFilters(NO_FILTERS)}>
            Clear filters
          </button>
        </div>
      )}
      <div
        className="list-scroll"
        ref={scrollRef}
        onScroll={rememberAnchor}
        onKeyDown={onKeyDown}
        data-testid="timeline-scroll"
      >
        {rows.length === 0 ? (
          result.total === 0 ? (
            emptyState
          ) : (
            <div className="state-box" data-testid="no-match">
              <h2>No page matches these filters</h2>
              <button type="button" className="btn" onClick={() => setFilters(NO_FILTERS)}>
                Clear filters
              </button>
            </div>
          )
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }} role="list">
            {virtualizer.getVirtualItems().map((v) => {
              const row = rows[v.index]!;
              return (
                <div
                  key={v.key}
                  role="listitem"
                  className="vrow"
                  style={{ transform: `translateY(${v.start}px)`, height: v.size }}
                >
                  {row.type === 'session' ? (
                    <SessionHeader
                      row={row}
                      showSite={result.sitesShown > 1}
                      onToggle={() => toggle(row.key)}
                    />
                  ) : (
                    <PageLine
                      row={row}
                      selected={row.key === selectedKey}
                      tabbable={row.key === tabStop}
                    />
                  )}
                </div>
              );
            })}
          </div>
        )}
      </div>
    </section>
  );
}
