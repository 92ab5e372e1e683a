// The timelines filters, shared by the list and the overview (a rule's row filters the list to it). The URL
// is the truth: a timelines URL (`#/timelines?verdict=fail&rule=missing-render`) shows exactly the filters
// it carries, none when it has no query, however it was reached (pasted, typed, Back/Forward, a link `check`
// printed), so a QA engineer can paste a link to exactly what they see. sessionStorage keeps the last
// filters only for the app's own links back to the timelines from another screen (routeHref puts them in
// those links' URLs), so switching screens, or reloading another screen, does not lose them.
import { useSyncExternalStore } from 'react';
import { NO_FILTERS, type TimelineFilters } from './timeline-rows';
import { VERDICTS } from '../../../shared/verdict';
import { isResponseKind } from '../../../shared/kinds';

const KEY = 'search-sandbox.timelineFilters';
const listeners = new Set<() => void>();

function read(): TimelineFilters {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return NO_FILTERS;
    const f = { ...NO_FILTERS, ...(JSON.parse(raw) as Partial<TimelineFilters>) };
    // filters saved by an earlier version kept the event type in `kind`
    if (f.kind && !isResponseKind(f.kind)) return { ...f, kind: '', event: f.kind };
    return f;
  } catch {
    return NO_FILTERS;
  }
}

const URL_KEYS: Record<keyof TimelineFilters, string> = {
  siteId: 'site',
  verdict: 'verdict',
  kind: 'kind',
  event: 'event',
  text: 'q',
  rule: 'rule',
};

/** Whether a hash opens the timelines (the list, a page, an event): the URLs that carry the filters. */
export function isTimelinesHash(hash: string): boolean {
  const head = hash.replace(/^#\/?/, '').split(/[/?]/)[0];
  return head === '' || head === 'timelines';
}

/** The filters a timelines URL carries (`#/timelines/…?verdict=fail`): none when it has no query. */
function filtersFromHash(hash: string): TimelineFilters {
  const at = hash.indexOf('?');
  if (at < 0) return NO_FILTERS;
  const params = new URLSearchParams(hash.slice(at + 1));
  const f: TimelineFilters = { ...NO_FILTERS };
  for (const [key, name] of Object.entries(URL_KEYS) as Array<[keyof TimelineFilters, string]>) {
    const v = params.get(name);
    if (v !== null) (f as unknown as Record<string, string>)[key] = v;
  }
  if (f.verdict !== '' && !(VERDICTS as readonly string[]).includes(f.verdict)) f.verdict = '';
  return f;
}

/** `?verdict=fail&q=…` for the filters in force ('' when none). */
export function filtersQuery(f: TimelineFilters = current): string {
  const params = new URLSearchParams();
  for (const [key, name] of Object.entries(URL_KEYS) as Array<[keyof TimelineFilters, string]>)
    if (f[key]) params.set(name, f[key]);
  const q = params.toString();
  return q ? `?${q}` : '';
}

// opened on another screen, the timelines keep the tab's last filters for the app's links back to them
let current: TimelineFilters = isTimelinesHash(location.hash)
  ? filtersFromHash(location.hash)
  : read();
if (isTimelinesHash(location.hash)) save();

/** A timelines URL, however it was reached, shows its own filters: none when it has no query. */
window.addEventListener('hashchange', () => {
  if (!isTimelinesHash(location.hash)) return;
  const fromUrl = filtersFromHash(location.hash);
  if (filtersQuery(fromUrl) === filtersQuery(current)) return;
  current = fromUrl;
  save();
  for (const l of listeners) l();
});

function save(): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(current));
  } catch {
    /* persistence is a convenience */
  }
}

export function setFilters(
  next: TimelineFilters | ((prev: TimelineFilters) => TimelineFilters),
): void {
  current = typeof next === 'function' ? next(current) : next;
  save();
  // the timelines URL shows the filters in force (replaced, not pushed: typing is not history)
  const hash = location.hash || '#/timelines';
  if (isTimelinesHash(hash)) {
    const [base, query = ''] = hash.split('?') as [string, string?];
    // what else the query says (the picked finding) stays
    const rest = new URLSearchParams(query);
    for (const name of Object.values(URL_KEYS)) rest.delete(name);
    const params = new URLSearchParams(filtersQuery().slice(1));
    for (const [k, v] of rest) params.set(k, v);
    const q = params.toString();
    history.replaceState(
      null,
      '',
      `${base === '#' || base === '#/' ? '#/timelines' : base}${q ? `?${q}` : ''}`,
    );
  }
  for (const l of listeners) l();
}

export function useFilters(): TimelineFilters {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}
