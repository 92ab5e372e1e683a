// The timelines filters, shared by the list and the overview (a rule's row filters the list to it). They
// live in the URL (`#/timelines?verdict=fail&rule=missing-render`), so a QA engineer can paste a link to
// exactly what they see, and in sessionStorage, so they survive switching screens.
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

/** The filters a timelines URL carries (`#/timelines/…?verdict=fail`), or null when it carries none. */
function filtersFromHash(hash: string): TimelineFilters | null {
  const at = hash.indexOf('?');
  if (at < 0) return null;
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

let current: TimelineFilters = filtersFromHash(location.hash) ?? read();

/** A timelines URL that was pasted or navigated to brings its filters. */
window.addEventListener('hashchange', () => {
  const fromUrl = filtersFromHash(location.hash);
  if (!fromUrl || filtersQuery(fromUrl) === filtersQuery(current)) return;
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
  if (/^#\/?(timelines|$)/.test(hash) || hash === '#') {
    const base = hash.split('?')[0]!;
    history.replaceState(
      null,
      '',
      `${base === '#' || base === '#/' ? '#/timelines' : base}${filtersQuery()}`,
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
