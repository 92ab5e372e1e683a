// The timelines filters, shared by the list and the overview (a rule's row filters the list to it), kept
// in sessionStorage so they survive switching screens and reloads.
import { useSyncExternalStore } from 'react';
import { NO_FILTERS, type TimelineFilters } from './timeline-rows';

const KEY = 'search-sandbox.timelineFilters';
const listeners = new Set<() => void>();

function read(): TimelineFilters {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? { ...NO_FILTERS, ...(JSON.parse(raw) as Partial<TimelineFilters>) } : NO_FILTERS;
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
