// A list of events chosen at one moment (EventLog.snapshot/select): each read back when reached.
import type { RecordedEvent } from '../../shared/events';
import type { EventList } from './types';
import type { ColdEvent } from './cold-events';

/** An event as the store holds it: as it came (the newest), or compact. */
export type Entry = RecordedEvent | ColdEvent;

/** Events chosen at one moment: each read back when reached, so a million cost no more at once. */
export class EventSnapshot implements EventList {
  constructor(
    private readonly entries: readonly Entry[],
    private readonly read: (entry: Entry) => RecordedEvent,
    private readonly text: (entry: Entry) => string,
  ) {}

  get length(): number {
    return this.entries.length;
  }

  /** `JSON.stringify` of each event in `slice(from, to)`: a cold one's is its kept line, not parsed again. */
  lines(from: number, to: number): string[] {
    return this.entries.slice(from, to).map(this.text);
  }

  lastSeq(): number | null {
    return this.entries.at(-1)?.seq ?? null;
  }

  newest(n: number): EventSnapshot {
    return new EventSnapshot(
      this.entries.slice(Math.max(0, this.entries.length - n)),
      this.read,
      this.text,
    );
  }

  *json(): Generator<string> {
    for (const entry of this.entries) yield this.text(entry);
  }

  *[Symbol.iterator](): Iterator<RecordedEvent> {
    for (const entry of this.entries) yield this.read(entry);
  }
}
