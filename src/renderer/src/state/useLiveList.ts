// A list (visits, orders) or an answer (the orders' summary) the admin API computes, fetched again whenever
// pages change on the stream: at most one request in flight, and at most one more queued for the changes
// that came meanwhile.
import { useEffect, useRef, useState } from 'react';
import { getJson } from '../api/client';
import { useSandbox } from './store';

export type LiveList<T> =
  { phase: 'loading' } | { phase: 'ready'; items: T[] } | { phase: 'error'; message: string };

export type LiveJson<T> =
  { phase: 'loading' } | { phase: 'ready'; value: T } | { phase: 'error'; message: string };

export function useLiveList<T>(path: string): [LiveList<T>, () => void] {
  const [state, retry] = useLiveJson<T[]>(path);
  return [state.phase === 'ready' ? { phase: 'ready', items: state.value } : state, retry];
}

/** The answer of `path` (null: none wanted), fetched again as pages change. */
export function useLiveJson<T>(path: string | null): [LiveJson<T>, () => void] {
  const version = useSandbox((s) => s.pages.version);
  const [state, setState] = useState<LiveJson<T>>({ phase: 'loading' });
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
    if (path === null) return;
    if (p.inFlight) {
      p.again = true;
      return;
    }
    p.inFlight = true;
    void (async () => {
      do {
        p.again = false;
        const wanted = p.path;
        if (wanted === null) break;
        try {
          const value = await getJson<T>(wanted);
          if (p.mounted && p.path === wanted) setState({ phase: 'ready', value });
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
