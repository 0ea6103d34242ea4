// A player-key index (uuid → player id, friend code → player id) kept outside the
// JavaScript heap. With 100,000 players, two Maps of strings held ~16 MB of live
// heap (3.7 MB hash tables, a 56-byte string a uuid, a 32-byte one a code), and the
// heap's growth headroom (HEAP_GROWTH_PERCENT) half as much again in resident
// memory. Here a key is its bytes in one growing buffer (a tag byte, then latin1
// when every character fits in one, else UTF-16: every string, exactly), and the
// table is typed arrays: about 9 MB for both indexes, none of it scanned by the collector.
// Open addressing with linear probing; a removed key leaves a tombstone until the
// next rebuild. Entries keep their insertion order (a Map's), which the index log's
// full line follows.

const EMPTY = -1;
const TOMBSTONE = -2;
/** An entry whose key was removed (ids are player ids: never negative). */
const REMOVED = -1;
const MIN_SLOTS = 16;
/** A key's first byte: how the rest is written. */
const LATIN1 = 0;
const UTF16 = 1;

/** 32-bit FNV-1a of the key's UTF-16 code units. */
const hashOf = (key: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
};

export class KeyIndex {
  /** The keys' bytes (each a tag byte, then latin1 or UTF-16LE), entry after entry: entry i's are [starts[i], starts[i + 1]). */
  private bytes = Buffer.allocUnsafe(1024);
  private used = 0;
  private starts = new Uint32Array(MIN_SLOTS / 2 + 1);
  private ids = new Int32Array(MIN_SLOTS / 2);
  // Stryker disable next-line ArithmeticOperator: equivalent (a longer array holds the same first MIN_SLOTS / 2 hashes, all that are written before the first rebuild replaces it)
  private hashes = new Uint32Array(MIN_SLOTS / 2);
  /** Entries appended (removed ones included). */
  private count = 0;
  private live = 0;
  /** Entry number, or EMPTY, or TOMBSTONE. */
  private slots = new Int32Array(MIN_SLOTS).fill(EMPTY);
  /** The key being looked up, encoded as the keys are. */
  private scratch = Buffer.allocUnsafe(256);
  private scratchLength = 0;

  get size(): number {
    return this.live;
  }

  /**
   * The bytes the keys take in the key buffer: each a tag byte, then a byte a character
   * when every one is latin1, else two (UTF-16); a removed key's until the next rebuild.
   */
  get keyBytes(): number {
    return this.used;
  }

  private encode(key: string): void {
    if (key.length * 2 + 1 > this.scratch.length) this.scratch = Buffer.allocUnsafe(key.length * 2 + 1);
    let narrow = true;
    for (let i = 0; i < key.length && narrow; i++) narrow = key.charCodeAt(i) < 256;
    this.scratch[0] = narrow ? LATIN1 : UTF16;
    this.scratchLength = 1 + this.scratch.write(key, 1, narrow ? 'latin1' : 'utf16le');
  }

  private keyOf(entry: number): string {
    const start = this.starts[entry] as number;
    return this.bytes.toString(this.bytes[start] === LATIN1 ? 'latin1' : 'utf16le', start + 1, this.starts[entry + 1]);
  }

  private sameKey(entry: number): boolean {
    const start = this.starts[entry] as number;
    const n = this.scratchLength;
    if ((this.starts[entry + 1] as number) - start !== n) return false;
    for (let i = 0; i < n; i++) if (this.bytes[start + i] !== this.scratch[i]) return false;
    return true;
  }

  /** The slot holding `key` (encoded into scratch, hashed to `h`), or −1. */
  private find(key: string, h: number): number {
    this.encode(key);
    const mask = this.slots.length - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const e = this.slots[s] as number;
      if (e === EMPTY) return -1;
      if (e !== TOMBSTONE && this.hashes[e] === h && this.sameKey(e)) return s;
    }
  }

  get(key: string): number | undefined {
    const s = this.find(key, hashOf(key));
    return s < 0 ? undefined : this.ids[this.slots[s] as number];
  }

  has(key: string): boolean {
    return this.find(key, hashOf(key)) >= 0;
  }

  set(key: string, id: number): this {
    if (!Number.isInteger(id) || id < 0 || id > 0x7fffffff)
      throw new RangeError(`a key index holds player ids, not ${id}`);
    const h = hashOf(key);
    const s = this.find(key, h);
    if (s >= 0) {
      this.ids[this.slots[s] as number] = id;
      return this;
    }
    // Slots in use (live, removed and this one) stay at most half the table, which the entries' arrays are sized to.
    if (this.count + 1 > this.ids.length) this.rebuild(this.live + 1);
    const n = this.scratchLength;
    if (this.used + n > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + n));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    this.scratch.copy(this.bytes, this.used, 0, n);
    const e = this.count++;
    this.used += n;
    this.starts[e + 1] = this.used;
    this.ids[e] = id;
    this.hashes[e] = h;
    const mask = this.slots.length - 1;
    let t = h & mask;
    while (this.slots[t] !== EMPTY && this.slots[t] !== TOMBSTONE) t = (t + 1) & mask;
    this.slots[t] = e;
    this.live++;
    return this;
  }

  delete(key: string): boolean {
    const s = this.find(key, hashOf(key));
    if (s < 0) return false;
    this.ids[this.slots[s] as number] = REMOVED;
    this.slots[s] = TOMBSTONE;
    this.live--;
    return true;
  }

  /** Copies the live entries, in order, into tables sized for `want` of them (and room to grow). */
  private rebuild(want: number): void {
    let slots = MIN_SLOTS;
    while (slots < want * 2.5) slots *= 2;
    const capacity = slots / 2;
    const starts = new Uint32Array(capacity + 1);
    const ids = new Int32Array(capacity);
    const hashes = new Uint32Array(capacity);
    let bytesNeeded = 0;
    for (let e = 0; e < this.count; e++)
      if (this.ids[e] !== REMOVED) bytesNeeded += (this.starts[e + 1] as number) - (this.starts[e] as number);
    const bytes = Buffer.allocUnsafe(Math.max(1024, Math.ceil(bytesNeeded * 1.5)));
    const table = new Int32Array(slots).fill(EMPTY);
    let n = 0;
    let used = 0;
    for (let e = 0; e < this.count; e++) {
      const id = this.ids[e] as number;
      if (id === REMOVED) continue;
      const from = this.starts[e] as number;
      const to = this.starts[e + 1] as number;
      this.bytes.copy(bytes, used, from, to);
      used += to - from;
      starts[n + 1] = used;
      ids[n] = id;
      const h = this.hashes[e] as number;
      hashes[n] = h;
      let t = h & (slots - 1);
      while (table[t] !== EMPTY) t = (t + 1) & (slots - 1);
      table[t] = n;
      n++;
    }
    this.bytes = bytes;
    this.used = used;
    this.starts = starts;
    this.ids = ids;
    this.hashes = hashes;
    this.slots = table;
    this.count = n;
  }

  /** [key, id] in insertion order, as a Map gives them. */
  *[Symbol.iterator](): IterableIterator<[string, number]> {
    for (let e = 0; e < this.count; e++) {
      const id = this.ids[e] as number;
      if (id !== REMOVED) yield [this.keyOf(e), id];
    }
  }

  /**
   * The entries as they are now, to be read later (the index log's full line, written in
   * pieces while commits go on): a copy of the used part of the tables, a memcpy
   * (about a millisecond for 100,000 keys), read with the same rules as the iterator.
   */
  frozen(): Iterable<[string, number]> {
    const bytes = Buffer.from(this.bytes.subarray(0, this.used));
    const starts = this.starts.slice(0, this.count + 1);
    const ids = this.ids.slice(0, this.count);
    const count = this.count;
    return {
      *[Symbol.iterator]() {
        for (let e = 0; e < count; e++) {
          const id = ids[e] as number;
          if (id === REMOVED) continue;
          const start = starts[e] as number;
          yield [bytes.toString(bytes[start] === LATIN1 ? 'latin1' : 'utf16le', start + 1, starts[e + 1]), id];
        }
      },
    };
  }

  *values(): IterableIterator<number> {
    for (let e = 0; e < this.count; e++) {
      const id = this.ids[e] as number;
      if (id !== REMOVED) yield id;
    }
  }
}
