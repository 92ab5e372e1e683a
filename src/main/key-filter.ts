// Which parts of a ChunkedMap or ChunkedSet may hold a key (chunked.ts): a blocked Bloom filter per part,
// 8 bits per entry it may hold, 3 bits of one 32-bit word set for each key put in. A lookup of a key no
// part holds (every new page, response and session is one) asked every part's Map for it, one hash-table
// probe each (a million pages: 61 parts); now it computes one hash and reads one word per part, and asks
// the Map only where the word says "maybe" (about 3% of parts by chance). Keys are never taken out of a
// filter (a part only loses keys; a stale "maybe" costs one probe, never a wrong answer).

/** A 32-bit hash of a string or integer key; -1 for keys it cannot hash (objects: every part is asked). */
export function keyHash(key: unknown): number {
  if (typeof key === 'string') {
    // FNV-1a over the length and at most the first 16 and the last 48 characters (ids differ there)
    let h = 0x811c9dc5 ^ key.length;
    const n = key.length;
    const head = n > 64 ? 16 : n;
    for (let i = 0; i < head; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
    for (let i = Math.max(head, n - 48); i < n; i++)
      h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
    return h >>> 1;
  }
  if (typeof key === 'number' && Number.isInteger(key)) {
    const lo = key | 0;
    const hi = (key / 4294967296) | 0;
    return Math.imul(lo ^ Math.imul(hi, 0x27d4eb2d), 0x85ebca6b) >>> 1;
  }
  return -1;
}

export class KeyFilter {
  private readonly words: Int32Array;

  constructor(entries: number) {
    this.words = new Int32Array(Math.max(1, Math.ceil(entries / 4)));
  }

  add(hash: number): void {
    if (hash < 0) return;
    this.words[hash % this.words.length]! |= mask(hash);
  }

  /** false: the part certainly does not hold a key of this hash; true: it may (or the key has none) */
  mayHave(hash: number): boolean {
    if (hash < 0) return true;
    const m = mask(hash);
    return (this.words[hash % this.words.length]! & m) === m;
  }
}

/** Three bits from the product's high bits (the low ones follow the hash's low bits, which pick the word). */
function mask(hash: number): number {
  const h = Math.imul(hash, 0x9e3779b1);
  return (1 << ((h >>> 17) & 31)) | (1 << ((h >>> 22) & 31)) | (1 << (h >>> 27));
}
