/**
 * Huffman code construction for the encoder: length-limited code lengths from symbol
 * frequencies, and the canonical code values bzip2 decoders derive from those lengths.
 */
import { ALPHA_STRIDE as MAX_ALPHA } from "./format.js";

// Scratch for the heap-based construction; an alphabet has at most 258 leaves, so a
// tree has fewer than 516 nodes. Module-level because the work is synchronous.
const weight = new Int32Array(2 * MAX_ALPHA);
const parent = new Int32Array(2 * MAX_ALPHA);
const heap = new Int32Array(2 * MAX_ALPHA + 1);
const scaled = new Int32Array(MAX_ALPHA);

/**
 * Computes Huffman code lengths for `freq[0..alphaSize)` into `lens[0..alphaSize)`,
 * none longer than `maxLen`. Every symbol gets a code (zero frequencies count as one),
 * because a bzip2 table must give each symbol of the alphabet a length of 1–20.
 *
 * A node's weight holds the frequency in the high bits and the subtree depth in the
 * low 8 bits, so that among equal frequencies the shallower subtree is merged first,
 * which keeps trees flat. When the tree is still too deep, frequencies are halved
 * (keeping them non-zero) and the tree rebuilt, which converges quickly.
 */
export function buildCodeLengths(
  freq: ArrayLike<number>,
  alphaSize: number,
  maxLen: number,
  lens: Uint8Array,
): void {
  for (let i = 0; i < alphaSize; i++) scaled[i] = freq[i] === 0 ? 1 : freq[i];
  for (;;) {
    // Leaves are nodes 1..alphaSize (node 0 is the heap's sentinel slot).
    let nodes = alphaSize;
    let heapSize = 0;
    for (let i = 1; i <= alphaSize; i++) {
      weight[i] = scaled[i - 1] << 8;
      parent[i] = -1;
      heapSize++;
      siftUp(heapSize, i);
    }
    while (heapSize > 1) {
      const a = heap[1];
      heap[1] = heap[heapSize--];
      siftDown(1, heapSize);
      const b = heap[1];
      heap[1] = heap[heapSize--];
      siftDown(1, heapSize);
      nodes++;
      parent[a] = nodes;
      parent[b] = nodes;
      const depthA = weight[a] & 0xff;
      const depthB = weight[b] & 0xff;
      weight[nodes] = ((weight[a] & ~0xff) + (weight[b] & ~0xff)) | (1 + Math.max(depthA, depthB));
      parent[nodes] = -1;
      heapSize++;
      siftUp(heapSize, nodes);
    }
    let tooLong = false;
    for (let i = 1; i <= alphaSize; i++) {
      let depth = 0;
      for (let k = i; parent[k] >= 0; k = parent[k]) depth++;
      lens[i - 1] = depth;
      if (depth > maxLen) tooLong = true;
    }
    if (!tooLong) return;
    for (let i = 0; i < alphaSize; i++) scaled[i] = 1 + (scaled[i] >> 1);
  }
}

/** Places node `node` at heap slot `slot` and moves it up to its place. */
function siftUp(slot: number, node: number): void {
  const w = weight[node];
  while (slot > 1) {
    const up = slot >> 1;
    if (weight[heap[up]] <= w) break;
    heap[slot] = heap[up];
    slot = up;
  }
  heap[slot] = node;
}

/** Moves the node at heap slot `slot` down to its place in a heap of `size` nodes. */
function siftDown(slot: number, size: number): void {
  const node = heap[slot];
  const w = weight[node];
  for (;;) {
    let child = slot << 1;
    if (child > size) break;
    if (child < size && weight[heap[child + 1]] < weight[heap[child]]) child++;
    if (w <= weight[heap[child]]) break;
    heap[slot] = heap[child];
    slot = child;
  }
  heap[slot] = node;
}

/**
 * Assigns canonical code values for `lens[0..alphaSize)` into `codes`: shorter codes
 * first, and within one length in symbol order. This is the assignment every bzip2
 * decoder reconstructs from the transmitted lengths.
 */
export function assignCodes(lens: Uint8Array, alphaSize: number, codes: Int32Array): void {
  let minLen = 32;
  let maxLen = 0;
  for (let i = 0; i < alphaSize; i++) {
    if (lens[i] > maxLen) maxLen = lens[i];
    if (lens[i] < minLen) minLen = lens[i];
  }
  let next = 0;
  for (let len = minLen; len <= maxLen; len++) {
    for (let i = 0; i < alphaSize; i++) if (lens[i] === len) codes[i] = next++;
    next <<= 1;
  }
}
