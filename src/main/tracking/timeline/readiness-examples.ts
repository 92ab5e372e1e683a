// Which page an `ok` row links as its example: the newest that shows the behaviour, preferring one on which no
// warning or error counts against the behaviour's area (for a widget, its tag's rows). A row is `ok` when no
// finding counts against it, but its newest page may fail a sibling behaviour of the same controller (the
// dropdown's render on a page whose autocomplete response `response-replaced` flags, a widget's render on a
// page that reused its responseId): linked from an `ok` row, that page reads as the behaviour failing.

/** A page that showed something, and when (pages come oldest first: a larger `at` is newer). */
export interface Sighting {
  pageLoadId: string;
  at: number;
}

/**
 * What one kind of evidence (a response kind's event, a visit endpoint, a finer test) last showed: its newest
 * page, and the newest page before it with nothing against the slot's area (`clean`).
 */
export interface Slot {
  newest: Sighting;
  clean?: Sighting;
}

/** An area's key: the behaviour area and, for a widget's rows, its tag ('' for others). */
export const areaKey = (area: string, tag: string) => `${area}\u0000${tag}`;

/** The pages with a warning or an error counted against an area's rows, and the slots that read them. */
export class ExamplePages {
  /** pageLoadId → the areas (`areaKey`) a warning or an error of the page counts against */
  private readonly flagged = new Map<string, Set<string>>();

  /** A warning or an error of page `pageLoadId` counts against a row of `area`. */
  flag(pageLoadId: string, area: string): void {
    const areas = this.flagged.get(pageLoadId);
    if (areas) areas.add(area);
    else this.flagged.set(pageLoadId, new Set([area]));
  }

  private clean(s: Sighting, area: string): boolean {
    return this.flagged.get(s.pageLoadId)?.has(area) !== true;
  }

  /**
   * The slot once `page` showed it. Pages come one at a time, each with its findings counted before the
   * next, so the page it replaces is judged whole: kept as the clean one when nothing of `area` is against it.
   */
  put(slot: Slot | undefined, page: Sighting, area: string): Slot {
    if (!slot) return { newest: page };
    if (slot.newest.pageLoadId !== page.pageLoadId && this.clean(slot.newest, area))
      slot.clean = slot.newest;
    slot.newest = page;
    return slot;
  }

  /** A row's example of `area` from its slots: the newest clean page, else the newest. */
  example(slots: Iterable<Slot | undefined>, area: string): Sighting | undefined {
    let newest: Sighting | undefined;
    let clean: Sighting | undefined;
    for (const slot of slots) {
      if (!slot) continue;
      if (!newest || slot.newest.at > newest.at) newest = slot.newest;
      const c = this.clean(slot.newest, area) ? slot.newest : slot.clean;
      if (c && (!clean || c.at > clean.at)) clean = c;
    }
    return clean ?? newest;
  }
}
