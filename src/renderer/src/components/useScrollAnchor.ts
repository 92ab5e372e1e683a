// Live lists insert new rows at the top. When the reader has scrolled down, keep the row they are looking
// at exactly where it is instead of letting the new rows push it away (no jumps on live updates).
import { useLayoutEffect, useRef, type RefObject } from 'react';

export interface VisibleRow {
  key: string;
  /** the row's offset from the top of the list, px */
  start: number;
}

/**
 * Returns the list's onScroll handler. `firstVisible` names the top visible row (from the virtualiser);
 * `keyOf` and `heightOf` describe every row so its new offset can be found after an update.
 */
export function useScrollAnchor<T>(
  scrollRef: RefObject<HTMLElement | null>,
  items: readonly T[],
  keyOf: (item: T) => string,
  heightOf: (item: T) => number,
  firstVisible: () => VisibleRow | null,
): () => void {
  const anchor = useRef<{ key: string; delta: number } | null>(null);
  const previous = useRef(items);
  const describe = useRef({ keyOf, heightOf });
  useLayoutEffect(() => {
    describe.current = { keyOf, heightOf };
  });

  useLayoutEffect(() => {
    const el = scrollRef.current;
    const a = anchor.current;
    if (el && a && previous.current !== items && el.scrollTop > 0) {
      const { keyOf: key, heightOf: height } = describe.current;
      let offset = 0;
      for (const item of items) {
        if (key(item) === a.key) {
          el.scrollTop = offset + a.delta;
          break;
        }
        offset += height(item);
      }
    }
    previous.current = items;
  }, [items, scrollRef]);

  return () => {
    const el = scrollRef.current;
    const first = el ? firstVisible() : null;
    if (el && first) anchor.current = { key: first.key, delta: el.scrollTop - first.start };
  };
}
