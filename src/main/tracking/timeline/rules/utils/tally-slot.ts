// What a page rule keeps of a page's requests, declared in the rule's own module: a slot of the page's
// tallies that only that rule reads and writes, typed by the rule. A new page rule with a tally of its own
// adds no field to the engine's page: it asks for a slot here when its module loads.
import type { Page } from '../../page';

let slots = 0;

export interface TallySlot<T> {
  /** what the rule kept of this page, if it kept anything yet */
  of(page: Page): T | undefined;
  /** what the rule keeps of this page, made with `init` the first time */
  make(page: Page, init: () => T): T;
}

export function tallySlot<T>(): TallySlot<T> {
  const i = slots++;
  return {
    of: (page) => page.tallies.rules?.[i] as T | undefined,
    make(page, init) {
      // as long as there are slots: an empty list given its first value at an index keeps room for 17
      const kept = (page.tallies.rules ??= new Array<unknown>(slots));
      let value = kept[i] as T | undefined;
      if (value === undefined) kept[i] = value = init();
      return value;
    },
  };
}
