// A page's responses, in the order they first appeared on it, found by kind, tag and responseId. Read as a
// map by key (`responseKey`) by the rules, but kept as a list: a page holds one response or a few, and a
// Map of its own and a key string per response were most of what a page of one render kept. Beyond
// FEW_RESPONSES a Map by key is built, so a page of thousands of responses finds each in O(1).
import { NO_ENTRIES, responseKey } from './model';
import type { Response } from './response';

/** Up to this many responses on a page, a response is found by comparing, not by its key. */
const FEW_RESPONSES = 8;

export class PageResponses {
  /** in the order they first appeared on the page */
  private list: Response[] = NO_ENTRIES;
  /** by key, once the page holds more than FEW_RESPONSES */
  private byKey: Map<string, Response> | null = null;

  get size(): number {
    return this.list.length;
  }

  /** The response of this kind, tag and responseId, if the page has one. */
  find(kind: string, tag: string, responseId: string): Response | undefined {
    if (this.byKey !== null) return this.byKey.get(responseKey(kind, tag, responseId));
    for (const r of this.list)
      if (r.responseId === responseId && r.kind === kind && r.tag === tag) return r;
    return undefined;
  }

  /** A response the page did not hold goes last. */
  add(r: Response): void {
    // a few: a list of their exact length, copied at each (a list grown by push, or spread into a literal
    // with one more, keeps room for 17; a live sandbox keeps 100,000 pages); more: pushed
    if (this.list.length < FEW_RESPONSES) this.list = this.list.concat([r]);
    else this.list.push(r);
    if (this.byKey !== null) this.byKey.set(r.key, r);
    else if (this.list.length > FEW_RESPONSES)
      this.byKey = new Map(this.list.map((x) => [x.key, x]));
  }

  get(key: string): Response | undefined {
    if (this.byKey !== null) return this.byKey.get(key);
    // the key is kind, tag and responseId, each framed by U+0000 (responseKey): compared field by field
    const [kind, tag, responseId] = key.split('\u0000');
    if (responseId === undefined) return undefined;
    const r = this.find(kind!, tag!, responseId);
    return r?.key === key ? r : undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  values(): IterableIterator<Response> {
    return this.list.values();
  }

  *keys(): IterableIterator<string> {
    for (const r of this.list) yield r.key;
  }

  *entries(): IterableIterator<[string, Response]> {
    for (const r of this.list) yield [r.key, r];
  }

  [Symbol.iterator](): IterableIterator<[string, Response]> {
    return this.entries();
  }

  forEach(fn: (value: Response, key: string, responses: PageResponses) => void): void {
    for (const r of this.list) fn(r, r.key, this);
  }
}
