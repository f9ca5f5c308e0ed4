/**
 * Composing selections: a nested reader (a shard's inner chunks) selects positions of its
 * caller's selection, and writes them straight into the caller's output. The composed
 * indexer maps those positions to the output's own.
 */
import type { DecodeTarget } from "./codec.js";
import type { DimIndexer } from "./ndarray.js";

/**
 * The positions `inner` picks out of the positions `outer` selects: element k of the
 * result is `outer[inner[k]]`. Ranges compose to ranges; anything involving an index
 * list gives an index list.
 *
 * @example
 * ```ts
 * composeIndexer({ start: 10, step: 2, count: 5 }, { start: 1, step: 2, count: 2 });
 * // { start: 12, step: 4, count: 2 }: positions 12 and 16
 * ```
 */
export function composeIndexer(outer: DimIndexer, inner: DimIndexer): DimIndexer {
  if ("indices" in inner) {
    const n = inner.indices.length;
    const out = new Float64Array(n);
    if ("indices" in outer) for (let k = 0; k < n; k++) out[k] = outer.indices[inner.indices[k]];
    else for (let k = 0; k < n; k++) out[k] = outer.start + inner.indices[k] * outer.step;
    return { indices: out };
  }
  if ("indices" in outer) {
    const out = new Float64Array(inner.count);
    for (let k = 0, i = inner.start; k < inner.count; k++, i += inner.step) out[k] = outer.indices[i];
    return { indices: out };
  }
  return { start: outer.start + inner.start * outer.step, step: outer.step * inner.step, count: inner.count };
}

/**
 * The part of `target` that a nested piece covers: chunk-local positions `src` of the
 * piece go to the positions `dst` of the target's own selection (each 0-based in it).
 */
export function subTarget(target: DecodeTarget, src: readonly DimIndexer[], dst: readonly DimIndexer[]): DecodeTarget {
  return {
    out: target.out,
    src,
    dst: dst.map((d, i) => composeIndexer(target.dst[i], d)),
    outIsZero: target.outIsZero,
  };
}
