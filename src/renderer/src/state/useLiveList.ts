// What the admin API computes (a list of visits or orders, the orders' summary, one page's timeline), fetched
// again whenever pages change on the stream: at most one request in flight, and at most one more queued for
// the changes that came meanwhile.
import { useEffect, useRef, useState } from 'react';
import { getJson } from '../api/client';
import { useSandbox } from './store';

export type LiveList<T> =
  { phase: 'loading' } | { phase: 'ready'; items: T[] } | { phase: 'error'; message: string };

export type LiveJson<T> =
  { phase: 'loading' } | { phase: 'ready'; value: T } | { phase: 'error'; message: string };

/** A fetched answer with the key it answers (the key may have changed since). */
export interface Refetched<T> {
  key: string | null;
  load: LiveJson<T>;
}

export function useLiveList<T>(path: string): [LiveList<T>, () => void] {
  const [state, retry] = useLiveJson<T[]>(path);
  return [state.phase === 'ready' ? { phase: 'ready', items: state.value } : state, retry];
}

/** The answer of `path` (null: none wanted), fetched again as pages change; the last one shows until the next. */
export function useLiveJson<T>(path: string | null): [LiveJson<T>, () => void] {
  const version = useSandbox((s) => s.pages.version);
  const [state, retry] = useRefetched<T>(path, getJson, version);
  return [state.load, retry];
}

/**
 * `fetch(key)` (key null: none wanted), again whenever `change` changes and on retry. A failure keeps the
 * key's last good answer and is said only when there is none.
 */
export function useRefetched<T>(
  key: string | null,
  fetch: (key: string) => Promise<T>,
  change: unknown,
): [Refetched<T>, () => void] {
  const [state, setState] = useState<Refetched<T>>({ key, load: { phase: 'loading' } });
  const [retry, setRetry] = useState(0);
  const pump = useRef({ inFlight: false, again: false, mounted: true, key, fetch });
  pump.current.fetch = fetch;

  useEffect(() => {
    const p = pump.current;
    p.mounted = true;
    return () => {
      p.mounted = false;
    };
  }, []);

  useEffect(() => {
    const p = pump.current;
    p.key = key;
    if (key === null) return;
    if (p.inFlight) {
      p.again = true;
      return;
    }
    p.inFlight = true;
    void (async () => {
      do {
        p.again = false;
        const wanted = p.key;
        if (wanted === null) break;
        try {
          const value = await p.fetch(wanted);
          if (p.mounted && p.key === wanted)
            setState({ key: wanted, load: { phase: 'ready', value } });
        } catch (err) {
          if (p.mounted && p.key === wanted)
            setState((prev) =>
              prev.key === wanted && prev.load.phase === 'ready'
                ? prev
                : {
                    key: wanted,
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
  }, [key, change, retry]);

  return [state, () => setRetry((n) => n + 1)];
}
