/**
 * Sorting of the cyclic rotations of a block, the heart of the Burrows–Wheeler
 * transform. bzip2 sorts rotations (not suffixes): rotation i is
 * `block[i..n) + block[0..i)`, compared as strings of length n.
 *
 * Method: prefix doubling with group refinement (Manber–Myers / Larsson–Sadakane
 * style) on the cyclic string. Rotations are first bucketed by their first four bytes;
 * afterwards, while rotations sharing their first `h` bytes form a group, each such
 * group is re-sorted by the rank of the rotation starting `h` bytes later, which orders
 * them by their first `2h` bytes. Only groups that are still unsorted are touched, and
 * the total work is O(n log n) whatever the input: all-zero blocks or short repeated
 * patterns cost about log2(n) linear passes, never the quadratic blow-up of naive
 * string comparison. Groups still tied once `h` reaches n are identical rotations
 * (periodic blocks); their order does not matter for the transform.
 */

/** Groups at least this large are sorted with a linear-time radix sort. */
const RADIX_THRESHOLD = 2048;
/** Groups at most this large are sorted by insertion. */
const INSERTION_THRESHOLD = 12;

/** Reusable buffers for sorting the rotations of blocks of up to `capacity` bytes. */
export class RotationSorter {
  /** Sorted rotation start positions; `[0, n)` is valid after {@link sort}. */
  readonly order: Int32Array;
  /** rank[i]: the group of rotation i, as the index of the group's last slot in `order`. */
  private readonly rank: Int32Array;
  /** keys[k]: the sort key of `order[k]` during a refinement pass. */
  private readonly keys: Int32Array;
  private readonly tmpOrder: Int32Array;
  private readonly tmpKeys: Int32Array;
  /** Unsorted groups as (first, last) slot pairs, for this pass and the next. */
  private groups: Int32Array;
  private nextGroups: Int32Array;
  /** Digit counters: 2^16 + 1 for the first sort of large blocks, else 2^11 + 1. */
  private readonly counts: Int32Array;

  constructor(capacity: number) {
    const n = Math.max(1, capacity);
    this.order = new Int32Array(n);
    this.rank = new Int32Array(n);
    this.keys = new Int32Array(n);
    this.tmpOrder = new Int32Array(n);
    this.tmpKeys = new Int32Array(n);
    this.groups = new Int32Array(n + 2);
    this.nextGroups = new Int32Array(n + 2);
    this.counts = new Int32Array(n >= 65536 ? 65537 : 2049);
  }

  /** Sorts the rotations of `block[0..n)`; the result is `order[0..n)`. */
  sort(block: Uint8Array, n: number): Int32Array {
    const { order, rank, keys } = this;
    if (n === 1) {
      order[0] = 0;
      return order;
    }
    let groupCount = this.bucketByFourBytes(block, n);
    for (let h = 4; groupCount > 0 && h < n; h *= 2) {
      const groups = this.groups;
      const next = this.nextGroups;
      let nextCount = 0;
      for (let g = 0; g < groupCount; g++) {
        const first = groups[2 * g];
        const last = groups[2 * g + 1];
        // Key: the group of the rotation h bytes further on (its first h bytes' rank).
        let minKey = n;
        let maxKey = -1;
        for (let k = first; k <= last; k++) {
          let p = order[k] + h;
          if (p >= n) p -= n;
          const key = rank[p];
          keys[k] = key;
          if (key < minKey) minKey = key;
          if (key > maxKey) maxKey = key;
        }
        if (minKey === maxKey) {
          // No split at this depth: the group stays as it is.
          next[2 * nextCount] = first;
          next[2 * nextCount + 1] = last;
          nextCount++;
          continue;
        }
        this.sortRange(first, last, minKey, maxKey);
        // Split into runs of equal keys; each run becomes a group numbered by its last slot.
        let runStart = first;
        for (let k = first + 1; k <= last + 1; k++) {
          if (k <= last && keys[k] === keys[runStart]) continue;
          const runLast = k - 1;
          for (let j = runStart; j <= runLast; j++) rank[order[j]] = runLast;
          if (runLast > runStart) {
            next[2 * nextCount] = runStart;
            next[2 * nextCount + 1] = runLast;
            nextCount++;
          }
          runStart = k;
        }
      }
      this.groups = next;
      this.nextGroups = groups;
      groupCount = nextCount;
    }
    return order;
  }

  /**
   * Sorts all rotations by their first four bytes (wrapping around) with an LSD
   * counting sort, fills `order` and `rank`, and lists the runs with more than one
   * rotation as groups. Returns the number of groups. Four bytes at once keep the first
   * refinement passes (scattered rank lookups) off most of the block. Large blocks use
   * two 16-bit digits; small ones four 8-bit digits, whose counters are cheap to clear.
   */
  private bucketByFourBytes(block: Uint8Array, n: number): number {
    const { order, rank, keys, tmpOrder, tmpKeys, counts, groups } = this;
    // keys[i] = bytes i..i+3 of the cyclic block, built backwards from the key of 0.
    let key = (block[0] << 24) | (block[1 % n] << 16) | (block[2 % n] << 8) | block[3 % n];
    for (let i = n - 1; i >= 0; i--) {
      key = (block[i] << 24) | (key >>> 8);
      keys[i] = key;
    }
    const digitBits = n >= 65536 ? 16 : 8;
    const radix = 1 << digitBits;
    const mask = radix - 1;
    // First pass reads positions in order; later passes are stable and carry the keys
    // along (in tmpKeys / keys alternately) so no pass looks keys up at random.
    // The pass count is even, so writing to tmpOrder first leaves the result in order.
    let srcOrder = order;
    let dstOrder = tmpOrder;
    let srcKeys = keys;
    let dstKeys = tmpKeys;
    const passes = 32 / digitBits;
    for (let pass = 0, shift = 0; pass < passes; pass++, shift += digitBits) {
      counts.fill(0, 0, radix + 1);
      for (let i = 0; i < n; i++) counts[((srcKeys[i] >>> shift) & mask) + 1]++;
      for (let d = 1; d <= radix; d++) counts[d] += counts[d - 1];
      if (pass === 0) {
        for (let i = 0; i < n; i++) {
          const full = srcKeys[i];
          const slot = counts[(full >>> shift) & mask]++;
          dstOrder[slot] = i;
          dstKeys[slot] = full;
        }
      } else {
        for (let k = 0; k < n; k++) {
          const full = srcKeys[k];
          const slot = counts[(full >>> shift) & mask]++;
          dstOrder[slot] = srcOrder[k];
          dstKeys[slot] = full;
        }
      }
      const o = srcOrder;
      srcOrder = dstOrder;
      dstOrder = o;
      const k = srcKeys;
      srcKeys = dstKeys;
      dstKeys = k;
    }
    if (srcOrder !== order) order.set(srcOrder.subarray(0, n));
    const sortedKeys = srcKeys;
    let groupCount = 0;
    let first = 0;
    for (let k = 1; k <= n; k++) {
      if (k < n && sortedKeys[k] === sortedKeys[first]) continue;
      const last = k - 1;
      for (let j = first; j <= last; j++) rank[order[j]] = last;
      if (last > first) {
        groups[2 * groupCount] = first;
        groups[2 * groupCount + 1] = last;
        groupCount++;
      }
      first = k;
    }
    return groupCount;
  }

  /** Sorts `order[first..last]` by `keys[first..last]` (keys within [minKey, maxKey]). */
  private sortRange(first: number, last: number, minKey: number, maxKey: number): void {
    const size = last - first + 1;
    if (size <= INSERTION_THRESHOLD) this.insertionSort(first, last);
    else if (size >= RADIX_THRESHOLD || maxKey - minKey < size) this.radixSort(first, last, minKey, maxKey);
    else this.quickSort(first, last);
  }

  private insertionSort(first: number, last: number): void {
    const { order, keys } = this;
    for (let i = first + 1; i <= last; i++) {
      const key = keys[i];
      const value = order[i];
      let j = i - 1;
      while (j >= first && keys[j] > key) {
        keys[j + 1] = keys[j];
        order[j + 1] = order[j];
        j--;
      }
      keys[j + 1] = key;
      order[j + 1] = value;
    }
  }

  /**
   * LSD radix sort on `key - minKey`, in digits of up to 11 bits: linear time, so large
   * groups can never degrade. Keys are ranks below n ≤ 900 000 < 2^20, so at most two
   * passes; one when the key range is small.
   */
  private radixSort(first: number, last: number, minKey: number, maxKey: number): void {
    const { order, keys, tmpOrder, tmpKeys } = this;
    const range = maxKey - minKey;
    const bits = range < 2 ? 1 : 32 - Math.clz32(range);
    const passes = bits <= 11 ? 1 : 2;
    const digitBits = passes === 1 ? bits : Math.ceil(bits / 2);
    const radix = 1 << digitBits;
    const mask = radix - 1;
    const counts = this.counts;
    let srcOrder = order;
    let srcKeys = keys;
    let dstOrder = tmpOrder;
    let dstKeys = tmpKeys;
    for (let pass = 0, shift = 0; pass < passes; pass++, shift += digitBits) {
      counts.fill(0, 0, radix + 1);
      for (let k = first; k <= last; k++) counts[(((srcKeys[k] - minKey) >>> shift) & mask) + 1]++;
      counts[0] = first;
      for (let d = 1; d <= radix; d++) counts[d] += counts[d - 1];
      for (let k = first; k <= last; k++) {
        const key = srcKeys[k];
        const slot = counts[((key - minKey) >>> shift) & mask]++;
        dstOrder[slot] = srcOrder[k];
        dstKeys[slot] = key;
      }
      const swapOrder = srcOrder;
      srcOrder = dstOrder;
      dstOrder = swapOrder;
      const swapKeys = srcKeys;
      srcKeys = dstKeys;
      dstKeys = swapKeys;
    }
    if (srcOrder !== order) {
      order.set(srcOrder.subarray(first, last + 1), first);
      keys.set(srcKeys.subarray(first, last + 1), first);
    }
  }

  /** Three-way quicksort (equal keys gathered in one pass) with an explicit stack. */
  private quickSort(first: number, last: number): void {
    const { order, keys } = this;
    const stack: number[] = [first, last];
    while (stack.length > 0) {
      let hi = stack.pop()!;
      let lo = stack.pop()!;
      while (hi - lo + 1 > INSERTION_THRESHOLD) {
        const mid = (lo + hi) >>> 1;
        const a = keys[lo];
        const b = keys[mid];
        const c = keys[hi];
        const pivot = Math.max(Math.min(a, b), Math.min(Math.max(a, b), c)); // median of three
        let lt = lo;
        let gt = hi;
        let i = lo;
        while (i <= gt) {
          const key = keys[i];
          if (key < pivot) {
            const o = order[i];
            keys[i] = keys[lt];
            order[i] = order[lt];
            keys[lt] = key;
            order[lt] = o;
            lt++;
            i++;
          } else if (key > pivot) {
            const o = order[i];
            keys[i] = keys[gt];
            order[i] = order[gt];
            keys[gt] = key;
            order[gt] = o;
            gt--;
          } else i++;
        }
        // Defer the larger side, continue with the smaller: the stack stays O(log n).
        if (lt - lo > hi - gt) {
          stack.push(lo, lt - 1);
          lo = gt + 1;
        } else {
          stack.push(gt + 1, hi);
          hi = lt - 1;
        }
      }
      if (hi > lo) this.insertionSort(lo, hi);
    }
  }
}
