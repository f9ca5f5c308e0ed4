/**
 * The move-to-front list of the encoder, organised so that moving a symbol from
 * position j to the front costs about j/16 + j%16 steps instead of j.
 *
 * The 256 symbols live in 16 buckets of 16, each bucket contiguous inside a larger
 * store. Moving a symbol to the front shifts only part of its own bucket; every bucket
 * before it then hands its last symbol to the next bucket's front and slides down one
 * slot (its other symbols stay where they are). `where` and `bucketOf` track each
 * symbol's slot, so its position is found without searching. When the first bucket
 * reaches the start of the store, everything is laid out again at the end.
 * (The same layout bzip2's decoder uses for the inverse transform.)
 */
const STORE_SIZE = 4096;
const BUCKETS = 16;
const BUCKET_SIZE = 16;

export class MtfList {
  private readonly store = new Uint8Array(STORE_SIZE);
  /** Slot of each bucket's first symbol. */
  private readonly base = new Int32Array(BUCKETS);
  /** Slot of each symbol. */
  private readonly where = new Int32Array(256);
  /** Bucket of each symbol. */
  private readonly bucketOf = new Uint8Array(256);
  private readonly scratch = new Uint8Array(256);

  /** Resets the list to 0, 1, ..., 255. */
  reset(): void {
    for (let s = 0; s < 256; s++) this.scratch[s] = s;
    this.layOut();
  }

  /** Moves `c` to the front and returns the position it had (0 = already in front). */
  moveToFront(c: number): number {
    const { store, base, where, bucketOf } = this;
    const bucket = bucketOf[c];
    let p = where[c];
    const start = base[bucket];
    const position = bucket * BUCKET_SIZE + (p - start);
    if (position === 0) return 0;
    // Open a gap at the front of c's bucket, overwriting c.
    for (; p > start; p--) {
      const v = store[p - 1];
      store[p] = v;
      where[v] = p;
    }
    // Each earlier bucket passes its last symbol to the front of the next one.
    for (let b = bucket; b > 0; b--) {
      const front = base[b];
      const v = store[base[b - 1] + BUCKET_SIZE - 1];
      store[front] = v;
      where[v] = front;
      bucketOf[v] = b;
      base[b - 1]--;
    }
    const front = base[0];
    store[front] = c;
    where[c] = front;
    bucketOf[c] = 0;
    if (front === 0) this.relayOut();
    return position;
  }

  /** Copies the list in order to the end of the store again. */
  private relayOut(): void {
    const { store, base, scratch } = this;
    for (let b = 0; b < BUCKETS; b++) {
      scratch.set(store.subarray(base[b], base[b] + BUCKET_SIZE), b * BUCKET_SIZE);
    }
    this.layOut();
  }

  /** Places `scratch` (the list in order) at the end of the store. */
  private layOut(): void {
    const { store, base, where, bucketOf, scratch } = this;
    const first = STORE_SIZE - 256;
    store.set(scratch, first);
    for (let b = 0; b < BUCKETS; b++) base[b] = first + b * BUCKET_SIZE;
    for (let k = 0; k < 256; k++) {
      const s = scratch[k];
      where[s] = first + k;
      bucketOf[s] = k >>> 4;
    }
  }
}
