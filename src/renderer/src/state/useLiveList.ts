// A list the admin API computes (visits, orders), fetched again whenever pages change on the stream:
// at most one request in flight, and at most one more queued for the changes that came meanwhile.
import { useEffect, useRef, useState } from 'react';
import { getJson } from '../api/client';
import { useSandbox } from './store';

export type LiveList<T> =
  { phase: 'loading' } | { phase: 'ready'; items: T[] } | { phase: 'error'; message: string };

export function useLiveList<T>(path: string): [LiveList<T>, () => void] {
  const version = useSandbox((s) => s.pages.version);
  const [state, setState] = useState<LiveList<T>>({ phase: 'loading' });
  const [retry, setRetry] = useState(0);
  const pump = useRef({ inFlight: false, again: false, mounted: true, path });

  useEffect(() => {
    const p = pump.current;
    p.mounted = true;
    return () => {
      p.mounted = false;
    };
  }, []);

  useEffect(() => {
    const p = pump.current;
    p.path = path;
    if (p.inFlight) {
      p.again = true;
      return;
    }
    p.inFlight = true;
    void (async () => {
      do {
        p.again = false;
        const wanted = p.path;
        try {
          const items = await getJson<T[]>(wanted);
          if (p.mounted && p.path === wanted) setState({ phase: 'ready', items });
        } catch (err) {
          // keep the last good list on a transient failure; say so only when there is none
          if (p.mounted)
            setState((prev) =>
              prev.phase === 'ready'
                ? prev
                : { phase: 'error', message: err instanceof Error ? err.message : String(err) },
            );
        }
      } while (p.again && p.mounted);
      p.inFlight = false;
    })();
  }, [path, version, retry]);

  return [state, () => setRetry((n) => n + 1)];
}
