/**
 * Writing shards: a whole shard (`encode`), or an update of part of a stored one
 * (`encodePartial`: only the touched inner chunks are decoded and re-encoded; the others'
 * encoded bytes are copied verbatim). Inner chunks are laid out contiguously in C order
 * after an index at the start, or before an index at the end.
 */
import {
  type ByteSource,
  type ChunkSpec,
  type ChunkUpdate,
  type CodecCallContext,
  copyRegion,
  cStrides,
  type DimIndexer,
  fillRegion,
  fullSelection,
  indexerLength,
  isCContiguous,
  mapConcurrent,
  memorySource,
  type NdArray,
  shapeSize,
  windowSource,
  ZarrError,
} from "@zarr/spec";
import { forEachBounded } from "./bounded.js";
import { cachedBytes, fillIsZero, innerSpecOf, type ShardCodecState } from "./codec-state.js";
import { fromInnerError, innerChunkKey, ShardVanished } from "./errors.js";
import { fetchInnerChunks, type ShardBytes } from "./fetch-inner-chunks.js";
import { projectDimension, selectionShape, type TouchedChunk, touchedChunks } from "./inner-grid.js";
import { fetchVersionedIndex, indexOfWholeShard, pinned } from "./read.js";
import { EMPTY, type ShardFormat, type ShardIndex } from "./shard-format.js";

function* range(n: number): Generator<number> {
  for (let i = 0; i < n; i++) yield i;
}

/** Lays out encoded inner chunks (`undefined` = empty) and the index into one shard. */
async function assemble(
  format: ShardFormat,
  pieces: readonly (Uint8Array | undefined)[],
  ctx: CodecCallContext,
): Promise<{ bytes: Uint8Array; index: ShardIndex }> {
  const ib = format.indexBytes;
  const atStart = format.location === "start";
  let total = 0;
  for (const p of pieces) if (p !== undefined) total += p.length;
  const bytes = new Uint8Array(total + ib);
  const entries = new Float64Array(2 * format.count);
  let pos = atStart ? ib : 0;
  let filled = 0;
  for (let i = 0; i < format.count; i++) {
    const p = pieces[i];
    if (p === undefined) {
      entries[2 * i] = EMPTY;
      continue;
    }
    entries[2 * i] = pos;
    entries[2 * i + 1] = p.length;
    bytes.set(p, pos);
    pos += p.length;
    filled++;
  }
  bytes.set(await format.encodeIndex(entries, ctx), atStart ? 0 : total);
  return { bytes, index: { entries, maxEnd: pos, filled } };
}

async function encodeInner(
  state: ShardCodecState,
  chunk: NdArray,
  innerSpec: ChunkSpec,
  coords: readonly number[],
  ctx: CodecCallContext,
): Promise<Uint8Array> {
  const key = innerChunkKey(ctx.key, coords);
  try {
    return await state.inner.encode(chunk, innerSpec, { key, signal: ctx.signal });
  } catch (error) {
    throw fromInnerError(error, ctx.key, key, "encode");
  }
}

/** Encodes a whole shard (`chunk` of `spec.shape`, any strides). */
export async function encodeShard(
  state: ShardCodecState,
  chunk: NdArray,
  spec: ChunkSpec,
  ctx: CodecCallContext,
): Promise<Uint8Array> {
  state.cache.delete(ctx.key);
  const format = state.format(spec.shape, ctx.key);
  const { dataType, fillValue } = spec;
  const width = dataType.width;
  const innerSpec = innerSpecOf(state, spec);
  const cs = state.chunkShape;
  const innerSize = shapeSize(cs);
  const whole = fullSelection(cs);
  const pieces = new Array<Uint8Array | undefined>(format.count);
  await mapConcurrent(
    range(format.count),
    Math.min(state.options.codecConcurrency, format.count),
    async (i) => {
      const coords = format.coords(i);
      let buf: NdArray;
      if (format.count === 1 && isCContiguous(chunk, width)) buf = chunk;
      else {
        buf = { data: dataType.allocate(innerSize), shape: cs.slice(), stride: cStrides(cs) };
        const region = coords.map((c, d) => ({ start: c * cs[d], step: 1, count: cs[d] }));
        copyRegion(chunk, region, buf, whole, width);
      }
      // Inner chunks holding only the fill value are not stored.
      if (dataType.allEqual(buf.data, fillValue, 0, innerSize)) return;
      pieces[i] = await encodeInner(state, buf, innerSpec, coords, ctx);
    },
    { signal: ctx.signal },
  );
  return (await assemble(format, pieces, ctx)).bytes;
}

/**
 * Applies `update` to the shard behind `source` (missing = all empty). Resolves the new
 * shard, or `null` when every inner chunk is now empty.
 */
export async function encodeShardPartial(
  state: ShardCodecState,
  source: ByteSource,
  update: ChunkUpdate,
  spec: ChunkSpec,
  ctx: CodecCallContext,
): Promise<Uint8Array | null> {
  state.cache.delete(ctx.key);
  const selection = update.selection;
  if (selection.length !== spec.shape.length) {
    throw new ZarrError(
      "INVALID_ARGUMENT",
      `An update of ${selection.length} dimensions does not fit a shard of shape ${JSON.stringify(spec.shape)}`,
    );
  }
  if ("array" in update.value) {
    const want = selectionShape(selection);
    const got = update.value.array.shape;
    if (got.length !== want.length || got.some((n, d) => n !== want[d])) {
      throw new ZarrError(
        "INVALID_ARGUMENT",
        `An update value of shape ${JSON.stringify(got)} does not match its selection's shape ${JSON.stringify(want)}`,
      );
    }
  }
  const format = state.format(spec.shape, ctx.key);
  const perDim = selection.map((s, d) => projectDimension(s, state.chunkShape[d], spec.shape[d], d, true));
  const touched = touchedChunks(perDim, format.gridStrides);
  for (let attempt = 0; ; attempt++) {
    try {
      return await rewriteShard(state, format, source, update, touched, spec, ctx);
    } catch (error) {
      const changed = error instanceof ZarrError && error.code === "STORE_CHANGED";
      if (!(error instanceof ShardVanished) && !changed) throw error;
      // Deleted or rewritten while we read it: start again from what is stored now.
      if (attempt > 0) {
        if (changed) throw error;
        throw new ZarrError("STORE_FAILED", `Shard "${ctx.key}" kept changing while it was being updated`, { key: ctx.key });
      }
    }
  }
}

async function rewriteShard(
  state: ShardCodecState,
  format: ShardFormat,
  source: ByteSource,
  update: ChunkUpdate,
  touched: readonly TouchedChunk[],
  spec: ChunkSpec,
  ctx: CodecCallContext,
): Promise<Uint8Array | null> {
  let index: ShardIndex;
  let from: ShardBytes | undefined;
  if (!source.rangesAreCheap) {
    const whole = await source.get(undefined, ctx.signal);
    if (whole === undefined) index = format.emptyIndex();
    else {
      index = await indexOfWholeShard(state, format, whole, ctx);
      from = { whole };
    }
  } else {
    // The kept inner chunks are read from the version the index came from (when the
    // store can tell): a shard rewritten meanwhile is STORE_CHANGED, and read again.
    const fetched = await fetchVersionedIndex(state, format, source, ctx);
    index = fetched?.index ?? format.emptyIndex();
    if (index.filled > 0) from = { source: pinned(source, fetched?.version), end: { verifiedEnd: 0 } };
  }
  const n = format.count;
  const e = index.entries;
  const pieces = new Array<Uint8Array | undefined>(n);
  const isTouched = new Uint8Array(n);
  for (const t of touched) isTouched[t.linear] = 1;
  const nested = state.inner.encodePartial !== undefined;
  // Reads: untouched stored inner chunks (copied verbatim) and touched, partly covered,
  // stored ones (decoded and updated). The rest is updated without reading.
  type Job = { linear: number; touched: TouchedChunk | undefined };
  const reads: Job[] = [];
  const direct: TouchedChunk[] = [];
  for (let i = 0; i < n; i++) if (isTouched[i] === 0 && e[2 * i] !== EMPTY) reads.push({ linear: i, touched: undefined });
  for (const t of touched) {
    if (t.covers || e[2 * t.linear] === EMPTY || nested) direct.push(t);
    else reads.push({ linear: t.linear, touched: t });
  }
  const updater = new InnerUpdater(state, update, spec, ctx);
  const work: Promise<unknown>[] = [];
  if (reads.length > 0 && from !== undefined) {
    const shardBytes = from;
    work.push(
      fetchInnerChunks(format, index, reads, shardBytes, state.options, ctx, async (job, bytes) => {
        pieces[job.linear] = job.touched === undefined ? bytes : await updater.apply(job.touched, bytes);
      }),
    );
  }
  if (direct.length > 0) {
    work.push(
      forEachBounded(
        direct,
        state.options.codecConcurrency,
        async (t) => {
          if (nested && !t.covers) {
            const offset = e[2 * t.linear];
            const nbytes = e[2 * t.linear + 1];
            let window: ByteSource = memorySource(undefined);
            if (offset !== EMPTY && from !== undefined) {
              window =
                "whole" in from
                  ? memorySource(from.whole.subarray(offset, offset + nbytes))
                  : windowSource(from.source, offset, nbytes);
            }
            pieces[t.linear] = await updater.updateNested(t, window);
          } else {
            pieces[t.linear] = await updater.apply(t, undefined);
          }
        },
        ctx.signal,
      ),
    );
  }
  // Wait for everything (even after a failure) so no work outlives the call.
  const results = await Promise.allSettled(work);
  for (const r of results) if (r.status === "rejected") throw r.reason;
  const { bytes, index: written } = await assemble(format, pieces, ctx);
  if (written.filled === 0) return null;
  // The next partial read of this shard needs no index request (sources without range
  // reads never use the cache). Not with versioned reads: the new shard's version is
  // known only once stored, and an index without one would let reads mix versions.
  if (source.rangesAreCheap && source.getVersioned === undefined) {
    const entry = { format, index: written, end: { verifiedEnd: Number.MAX_SAFE_INTEGER }, version: undefined };
    state.cache.set(ctx.key, entry, cachedBytes(written));
  }
  return bytes;
}

/** Applies an update's share to single inner chunks. */
class InnerUpdater {
  private readonly innerSpec: ChunkSpec;
  private readonly innerSize: number;
  private readonly zeroFill: boolean;

  constructor(
    private readonly state: ShardCodecState,
    private readonly change: ChunkUpdate,
    private readonly spec: ChunkSpec,
    private readonly ctx: CodecCallContext,
  ) {
    this.innerSpec = innerSpecOf(state, spec);
    this.innerSize = shapeSize(state.chunkShape);
    this.zeroFill = fillIsZero(spec);
  }

  /**
   * The new encoded bytes of inner chunk `t` (stored as `existing`, or empty), or
   * `undefined` when it now holds only the fill value (and empty ones are not written).
   */
  async apply(t: TouchedChunk, existing: Uint8Array | undefined): Promise<Uint8Array | undefined> {
    const { dataType, fillValue } = this.spec;
    const width = dataType.width;
    const cs = this.state.chunkShape;
    const n = this.innerSize;
    const chunk: NdArray = { data: dataType.allocate(n), shape: cs.slice(), stride: cStrides(cs) };
    if (!t.covers) {
      if (existing !== undefined) {
        const key = innerChunkKey(this.ctx.key, t.coords);
        let decoded: NdArray;
        try {
          decoded = await this.state.inner.decode(existing, this.innerSpec, { key, signal: this.ctx.signal });
        } catch (error) {
          throw fromInnerError(error, this.ctx.key, key, "decode");
        }
        // A private copy: the decoded chunk may be a view of the store's memory.
        const whole = fullSelection(cs);
        copyRegion(decoded, whole, chunk, whole, width);
      } else if (!this.zeroFill) {
        dataType.fill(chunk.data, fillValue, 0, n);
      }
    }
    const value = this.change.value;
    if ("array" in value) copyRegion(value.array, t.out, chunk, t.local, width);
    else fillRegion(chunk, t.local, value.scalar, dataType);
    if (!this.change.writeEmpty && dataType.allEqual(chunk.data, fillValue, 0, n)) return undefined;
    return encodeInner(this.state, chunk, this.innerSpec, t.coords, this.ctx);
  }

  /** Nested sharding: lets the inner codec update its own part of inner chunk `t` read from `window`. */
  async updateNested(t: TouchedChunk, window: ByteSource): Promise<Uint8Array | undefined> {
    const partial = this.state.inner.encodePartial;
    if (partial === undefined) return this.apply(t, undefined);
    const width = this.spec.dataType.width;
    let value: ChunkUpdate["value"] = this.change.value;
    if ("array" in value) {
      const lengths = t.local.map(indexerLength);
      const part: NdArray = {
        data: this.spec.dataType.allocate(shapeSize(lengths)),
        shape: lengths,
        stride: cStrides(lengths),
      };
      copyRegion(value.array, t.out, part, fullSelection(lengths), width);
      value = { array: part };
    }
    const key = innerChunkKey(this.ctx.key, t.coords);
    const selection: DimIndexer[] = t.local;
    let bytes: Uint8Array | null;
    try {
      bytes = await partial(window, { selection, value, writeEmpty: this.change.writeEmpty }, this.innerSpec, {
        key,
        signal: this.ctx.signal,
      });
    } catch (error) {
      throw fromInnerError(error, this.ctx.key, key, "update");
    }
    return bytes ?? undefined;
  }
}
