// The pages a text or event-type filter keeps, asked of the server (`GET /_sandbox/timelines?q=&event=`):
// it searches inside every page it holds (uids its events reported, ids, rule ids), where the UI only
// has summaries. Asked again as the filters change (debounced) and as pages change (at most once a second,
// and no sooner than ten times its last answer took), for the pages' keys only (`view=keys`): a text every
// page of a million events matches was 42 MB of summaries each time.
import { useEffect, useRef, useState } from 'react';
import { admin } from '../api/client';
import { pageKey } from './pages';
import { askAgainIn } from '../../../shared/pace';
import type { TimelineFilters } from './timeline-rows';

const TYPING_MS = 150;
const LIVE_MS = 1000;
/**
 * Asked again as pages change, a filter waits at least this many times what its last answer took: a text
 * over a million stored events' pages (~0.3 s to answer) is asked every ~3 s rather than every second, so a
 * UI left open on it keeps the sandbox at most ~10% busy.
 */
const LIVE_COST = 10;

/** null when no text or event filter is in force; else the keys of the pages the server found. */
export function useServerMatches(
  filters: TimelineFilters,
  version: number,
): ReadonlySet<string> | null {
  const text = filters.text.trim();
  const event = filters.event;
  const wanted = text !== '' || event !== '';
  const [found, setFound] = useState<{ key: string; keys: ReadonlySet<string> } | null>(null);
  const key = `${text}\n${event}`;
  const [asked, setAsked] = useState({ key: '', version: -Infinity });
  /** ms the last answer took */
  const took = useRef(0);
  useEffect(() => {
    if (!wanted) return;
    const again = asked.key === key;
    const wait = again
      ? askAgainIn(Date.now() - asked.version, took.current, LIVE_MS, LIVE_COST)
      : TYPING_MS;
    let cancelled = false;
    const timer = setTimeout(() => {
      const at = Date.now();
      setAsked({ key, version: at });
      void admin('timelines', {
        query: {
          view: 'keys',
          limit: 100_000,
          ...(text && { q: text }),
          ...(event && { event }),
        },
      })
        .then((body) => {
          took.current = Date.now() - at;
          if (cancelled) return;
          setFound({ key, keys: new Set(body.pages.map(pageKey)) });
        })
        .catch(() => undefined);
    }, wait);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
    // asked is read, not watched: a change of version asks again, throttled by it
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wanted, key, version]);
  if (!wanted) return null;
  // while the answer for new filters is on its way, the last answer stands (no flash of an empty list)
  return found?.keys ?? EMPTY;
}

const EMPTY: ReadonlySet<string> = new Set();
