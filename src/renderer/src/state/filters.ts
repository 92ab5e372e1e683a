// The timelines filters, shared by the list and the overview (a rule's row filters the list to it), kept
// in sessionStorage so they survive switching screens and reloads.
import { useSyncExternalStore } from 'react';
import { NO_FILTERS, type TimelineFilters } from './timeline-rows';
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

let current: TimelineFilters = read();

export function setFilters(
  next: TimelineFilters | ((prev: TimelineFilters) => TimelineFilters),
): void {
  current = typeof next === 'function' ? next(current) : next;
  try {
    sessionStorage.setItem(KEY, JSON.stringify(current));
  } catch {
    /* persistence is a convenience */
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
