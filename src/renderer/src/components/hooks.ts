// Small hooks shared by views: state that survives switching screens (sessionStorage), and the
// desktop shell's API when the UI runs inside the Electron window.
import { useCallback, useState } from 'react';

/** useState persisted in sessionStorage, so filters survive switching screens and reloads. */
export function useSessionState<T>(
  key: string,
  initial: T,
): [T, (next: T | ((prev: T) => T)) => void] {
  const [value, setValue] = useState<T>(() => {
    try {
      const raw = sessionStorage.getItem(`search-sandbox.${key}`);
      return raw ? ({ ...initial, ...(JSON.parse(raw) as T) } as T) : initial;
    } catch {
      return initial;
    }
  });
  const set = useCallback(
    (next: T | ((prev: T) => T)) => {
      setValue((prev) => {
        const resolved = typeof next === 'function' ? (next as (p: T) => T)(prev) : next;
        try {
          sessionStorage.setItem(`search-sandbox.${key}`, JSON.stringify(resolved));
        } catch {
          /* persistence is a convenience */
        }
        return resolved;
      });
    },
    [key],
  );
  return [value, set];
}

/** The desktop shell's API, or undefined in a plain browser (every native action is optional). */
export function desktopApi(): Window['sandboxDesktop'] {
  return typeof window !== 'undefined' ? window.sandboxDesktop : undefined;
}
