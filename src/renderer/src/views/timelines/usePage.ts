// Load one full page timeline and keep it current: whenever the page's summary changes on the stream,
// fetch it again (one request in flight at a time; a change during a fetch triggers one more).
import { useEffect, useRef, useState } from 'react';
import type { PageTimelineDto } from '../../../../shared/timeline';
import { loadPage } from '../../state/pages';
import { useSandbox } from '../../state/store';

export type PageLoad =
  | { phase: 'loading' }
  | { phase: 'ready'; page: PageTimelineDto }
  | { phase: 'missing' }
  | { phase: 'error'; message: string };

export function usePage(key: string): [PageLoad, () => void] {
  const summary = useSandbox((s) => s.pages.summaries.get(key));
  const [state, setState] = useState<{ key: string; load: PageLoad }>({
    key,
    load: { phase: 'loading' },
  });
  const [retry, setRetry] = useState(0);
  const wanted = useRef(key);
  const pump = useRef({ inFlight: false, again: false, mounted: true });

  useEffect(() => {
    const p = pump.current;
    p.mounted = true;
    return () => {
      p.mounted = false;
    };
  }, []);

  useEffect(() => {
    wanted.current = key;
    const p = pump.current;
    if (p.inFlight) {
      p.again = true;
      return;
    }
    p.inFlight = true;
    void (async () => {
      do {
        p.again = false;
        const k = wanted.current;
        try {
          const page = await loadPage('', k);
          if (p.mounted && wanted.current === k)
            setState({ key: k, load: page ? { phase: 'ready', page } : { phase: 'missing' } });
        } catch (err) {
          // Keep showing the last good page on a transient failure; say so only when there is none.
          if (p.mounted && wanted.current === k)
            setState((prev) =>
              prev.key === k && prev.load.phase === 'ready'
                ? prev
                : {
                    key: k,
                    load: {
                      phase: 'error',
                      message: err instanceof Error ? err.message : String(err),
                    },
                  },
            );
        }
      } while (p.again && p.mounted);
      p.inFlight = false;
    })();
  }, [key, summary, retry]);

  const load: PageLoad = state.key === key ? state.load : { phase: 'loading' };
  return [load, () => setRetry((n) => n + 1)];
}
