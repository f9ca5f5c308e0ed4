/**
 * Scatter-read ranges for the `bytes` codec: when a chunk is stored as plain bytes that
 * are exactly the in-memory layout, the store's scatter read (`readInto`) lets the kernel
 * copy each selected run of the file into its place in the result. No intermediate
 * buffer, no decode, no JavaScript copy; and because file reads run on libuv's thread
 * pool, several chunks are copied on several cores at once.
 */
import type { DimIndexer, NdArray, ReadIntoRange, TypedArray } from "@zarr/spec";

/** Runs shorter than this are cheaper to copy in JavaScript than to scatter-read. */
const MIN_RUN_BYTES = 256;
/** Above this many runs per chunk the range list itself costs too much; use the normal path. */
const MAX_RUNS = 1 << 16;

interface Dim {
  count: number;
  srcStep: number; // elements
  dstStep: number;
}

/**
 * The scatter-read ranges that put `chunk[src]` (a C-ordered chunk of `chunkShape`) into
 * `out[dst]`, or `undefined` when this selection is not a good fit (strided or listed
 * inner runs, tiny runs, too many runs).
 */
export function scatterRanges(
  chunkShape: readonly number[],
  src: readonly DimIndexer[],
  out: NdArray,
  dst: readonly DimIndexer[],
  itemBytes: number,
): ReadIntoRange[] | undefined {
  const ndim = chunkShape.length;
  let chunkStride = 1;
  const chunkStrides = new Array<number>(ndim);
  for (let d = ndim - 1; d >= 0; d--) {
    chunkStrides[d] = chunkStride;
    chunkStride *= chunkShape[d];
  }
  let srcBase = 0;
  let dstBase = out.offset ?? 0;
  const dims: Dim[] = [];
  for (let d = 0; d < ndim; d++) {
    const s = src[d];
    const t = dst[d];
    if ("indices" in s || "indices" in t || s.step < 1 || s.count !== t.count) return undefined;
    srcBase += s.start * chunkStrides[d];
    dstBase += t.start * out.stride[d];
    if (s.count === 1) continue;
    dims.push({ count: s.count, srcStep: s.step * chunkStrides[d], dstStep: t.step * out.stride[d] });
  }
  // Merge dimensions that are contiguous in both the chunk and the result.
  const merged: Dim[] = [];
  for (const dim of dims) {
    const prev = merged[merged.length - 1];
    if (prev && prev.srcStep === dim.srcStep * dim.count && prev.dstStep === dim.dstStep * dim.count) {
      prev.count *= dim.count;
      prev.srcStep = dim.srcStep;
      prev.dstStep = dim.dstStep;
    } else merged.push({ ...dim });
  }
  const inner = merged.length > 0 ? merged[merged.length - 1] : { count: 1, srcStep: 1, dstStep: 1 };
  if (inner.srcStep !== 1 || inner.dstStep !== 1) return undefined;
  const runBytes = inner.count * itemBytes;
  const outer = merged.slice(0, -1);
  let runs = 1;
  for (const o of outer) runs *= o.count;
  if (runs > MAX_RUNS || (runBytes < MIN_RUN_BYTES && runs > 1)) return undefined;
  const data = out.data as TypedArray;
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const ranges: ReadIntoRange[] = new Array(runs);
  const counters = new Array<number>(outer.length).fill(0);
  for (let r = 0; r < runs; r++) {
    let so = srcBase;
    let to = dstBase;
    for (let k = 0; k < outer.length; k++) {
      so += counters[k] * outer[k].srcStep;
      to += counters[k] * outer[k].dstStep;
    }
    ranges[r] = { offset: so * itemBytes, target: bytes.subarray(to * itemBytes, to * itemBytes + runBytes) };
    for (let k = outer.length - 1; k >= 0; k--) {
      if (++counters[k] < outer[k].count) break;
      counters[k] = 0;
    }
  }
  return ranges;
}
