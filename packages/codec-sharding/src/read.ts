/**
 * Reading shards: the whole shard (`decode`), or only what a selection needs
 * (`decodePartialInto`: the index, cached, then coalesced ranges of the touched inner
 * chunks). Inner chunks decode straight into the caller's target: no shard-sized array.
 * When the source has versioned reads, the inner chunks are read from the version of the
 * shard the index came from (a rewrite in between is `STORE_CHANGED`: read again), so a
 * stale index never yields another inner chunk's bytes.
 */
import {
  type ByteRange,
  type ByteSource,
  type ChunkSpec,
  type CodecCallContext,
  cStrides,
  type DecodeTarget,
  type DimIndexer,
  fillRegion,
  fullSelection,
  memorySource,
  type NdArray,
  pinnedSource,
  shapeSize,
  subTarget,
  type VersionedBytes,
  windowSource,
  ZarrError,
} from "@zarr/spec";
import { forEachBounded } from "./bounded.js";
import { type CachedIndex, cachedBytes, fillIsZero, innerSpecOf, type ShardCodecState } from "./codec-state.js";
import { fromInnerError, innerChunkKey, ShardVanished } from "./errors.js";
import { fetchInnerChunks, type ShardBytes } from "./fetch-inner-chunks.js";
import { projectDimension, type TouchedChunk, touchedChunks } from "./inner-grid.js";
import { EMPTY, type ShardFormat, type ShardIndex } from "./shard-format.js";

/**
 * How many times a partial read starts over when the shard changes under it (each time
 * with a freshly read index) before it fails with `STORE_CHANGED`.
 */
const MAX_VERSION_RETRIES = 3;

/** Reads and validates the index of a whole shard in memory. */
export async function indexOfWholeShard(
  state: ShardCodecState,
  format: ShardFormat,
  shard: Uint8Array,
  ctx: CodecCallContext,
): Promise<ShardIndex> {
  format.checkHoldsIndex(shard.length, ctx.key);
  const index = await format.decodeIndex(format.indexIn(shard), ctx, state.options.maxInnerChunkBytes);
  format.checkLength(index, shard.length, ctx.key);
  return index;
}

/**
 * Reads the index with one range request, and the version of the shard it belongs to
 * when the source can tell (`undefined` otherwise); `undefined` when the shard is missing.
 */
export async function fetchVersionedIndex(
  state: ShardCodecState,
  format: ShardFormat,
  source: ByteSource,
  ctx: CodecCallContext,
): Promise<{ index: ShardIndex; version: string | undefined } | undefined> {
  const read = await readVersioned(source, format.indexRange(), ctx.signal);
  if (read === undefined) return undefined;
  format.checkHoldsIndex(read.bytes.length, ctx.key);
  return { index: await format.decodeIndex(read.bytes, ctx, state.options.maxInnerChunkBytes), version: read.version };
}

/** Bytes of `source` with their version when it has versioned reads. */
async function readVersioned(
  source: ByteSource,
  range: ByteRange | undefined,
  signal: AbortSignal | undefined,
): Promise<VersionedBytes | undefined> {
  if (source.getVersioned !== undefined) return source.getVersioned(range, undefined, signal);
  const bytes = await source.get(range, signal);
  return bytes === undefined ? undefined : { bytes, version: undefined };
}

function checkRank(selection: readonly DimIndexer[], spec: ChunkSpec): void {
  if (selection.length !== spec.shape.length) {
    throw new ZarrError(
      "INVALID_ARGUMENT",
      `A selection of ${selection.length} dimensions does not fit a shard of shape ${JSON.stringify(spec.shape)}`,
    );
  }
}

/** Decodes a whole shard into a C-contiguous array of `spec.shape`. */
export async function decodeShard(
  state: ShardCodecState,
  bytes: Uint8Array,
  spec: ChunkSpec,
  ctx: CodecCallContext,
): Promise<NdArray> {
  const format = state.format(spec.shape, ctx.key);
  const index = await indexOfWholeShard(state, format, bytes, ctx);
  const selection = fullSelection(spec.shape);
  const perDim = selection.map((s, d) => projectDimension(s, state.chunkShape[d], spec.shape[d], d, false));
  const out = allocateResult(spec, spec.shape);
  const target: DecodeTarget = { out, src: selection, dst: selection, outIsZero: true };
  await readTouched(state, format, index, touchedChunks(perDim, format.gridStrides), { whole: bytes }, target, spec, ctx);
  return out;
}

/**
 * Decodes the elements `target.src` picks from the shard behind `source` into `target`,
 * reading as little as possible; false when the shard is missing.
 */
export async function decodeShardPartialInto(
  state: ShardCodecState,
  source: ByteSource,
  spec: ChunkSpec,
  target: DecodeTarget,
  ctx: CodecCallContext,
): Promise<boolean> {
  const selection = target.src;
  checkRank(selection, spec);
  const format = state.format(spec.shape, ctx.key);
  const perDim = selection.map((s, d) => projectDimension(s, state.chunkShape[d], spec.shape[d], d, false));
  const touched = touchedChunks(perDim, format.gridStrides);
  let changes = 0;
  for (let attempt = 0; ; attempt++) {
    const hit = attempt === 0 && source.rangesAreCheap ? state.cache.get(ctx.key) : undefined;
    const cached = hit !== undefined && hit.format === format ? hit : undefined;
    try {
      return await readSelection(state, format, source, touched, target, cached, spec, ctx);
    } catch (error) {
      if (error instanceof ZarrError && error.code === "STORE_CHANGED") {
        // The shard was rewritten since its index was read (now, or when it was cached):
        // its inner chunks may have moved. Read the new index and try again, a few times.
        state.cache.delete(ctx.key);
        if (++changes > MAX_VERSION_RETRIES) {
          throw new ZarrError("STORE_CHANGED", `Shard "${ctx.key}" changed ${changes} times while it was being read; giving up`, {
            key: ctx.key,
            cause: error,
          });
        }
        continue;
      }
      if (cached === undefined) {
        // Deleted between the index read and the inner chunk reads: it is missing now.
        if (error instanceof ShardVanished) return false;
        throw error;
      }
      // A cached index may be stale (the shard was rewritten or deleted elsewhere):
      // drop it and try once more with a fresh one before reporting corruption.
      state.cache.delete(ctx.key);
      const stale =
        error instanceof ShardVanished ||
        (error instanceof ZarrError && (error.code === "CODEC_FAILED" || error.code === "CHECKSUM_MISMATCH"));
      if (!stale) throw error;
    }
  }
}

/** `source` pinned to `version` when there is one (every inner chunk read checks it), else `source`. */
export function pinned(source: ByteSource, version: string | undefined): ByteSource {
  return version === undefined || source.getVersioned === undefined ? source : pinnedSource(source, version);
}

function allocateResult(spec: ChunkSpec, shape: number[]): NdArray {
  return { data: spec.dataType.allocate(shapeSize(shape)), shape, stride: cStrides(shape) };
}

async function readSelection(
  state: ShardCodecState,
  format: ShardFormat,
  source: ByteSource,
  touched: TouchedChunk[],
  target: DecodeTarget,
  cached: CachedIndex | undefined,
  spec: ChunkSpec,
  ctx: CodecCallContext,
): Promise<boolean> {
  let index: ShardIndex;
  let from: ShardBytes;
  if (cached !== undefined) {
    index = cached.index;
    from = { source: pinned(source, cached.version), end: cached.end };
  } else if (!source.rangesAreCheap || touched.length === format.count) {
    // No range reads, or every inner chunk is needed: one request for everything (one
    // read is one version; its version is kept with the cached index).
    const whole = await readVersioned(source, undefined, ctx.signal);
    if (whole === undefined) return false;
    index = await indexOfWholeShard(state, format, whole.bytes, ctx);
    if (source.rangesAreCheap) {
      const entry = { format, index, end: { verifiedEnd: Number.MAX_SAFE_INTEGER }, version: whole.version };
      state.cache.set(ctx.key, entry, cachedBytes(index));
    }
    from = { whole: whole.bytes };
  } else {
    const fetched = await fetchVersionedIndex(state, format, source, ctx);
    if (fetched === undefined) return false;
    index = fetched.index;
    const entry = { format, index, end: { verifiedEnd: 0 }, version: fetched.version };
    state.cache.set(ctx.key, entry, cachedBytes(index));
    from = { source: pinned(source, fetched.version), end: entry.end };
  }
  await readTouched(state, format, index, touched, from, target, spec, ctx);
  return true;
}

/** Decodes every touched inner chunk into `target` (empty ones give the fill value). */
async function readTouched(
  state: ShardCodecState,
  format: ShardFormat,
  index: ShardIndex,
  touched: readonly TouchedChunk[],
  from: ShardBytes,
  target: DecodeTarget,
  spec: ChunkSpec,
  ctx: CodecCallContext,
): Promise<void> {
  const { dataType, fillValue } = spec;
  const skipFill = target.outIsZero === true && fillIsZero(spec);
  const e = index.entries;
  const wanted: TouchedChunk[] = [];
  for (const t of touched) {
    if (e[2 * t.linear] !== EMPTY) wanted.push(t);
    else if (!skipFill) fillRegion(target.out, subTarget(target, t.local, t.out).dst, fillValue, dataType);
  }
  if (wanted.length === 0) return;
  const innerSpec = innerSpecOf(state, spec);
  const inner = state.inner;
  if (inner.shardContainer) {
    // Nested sharding: each inner chunk reads only what it needs from its own byte range.
    await forEachBounded(
      wanted,
      state.options.codecConcurrency,
      async (t) => {
        const offset = e[2 * t.linear];
        const nbytes = e[2 * t.linear + 1];
        const window =
          "whole" in from ? memorySource(from.whole.subarray(offset, offset + nbytes)) : windowSource(from.source, offset, nbytes);
        const key = innerChunkKey(ctx.key, t.coords);
        let found: boolean;
        try {
          found = await inner.decodePartialInto(window, innerSpec, subTarget(target, t.local, t.out), { key, signal: ctx.signal });
        } catch (error) {
          throw fromInnerError(error, ctx.key, key, "decode");
        }
        if (!found) throw new ShardVanished(ctx.key);
      },
      ctx.signal,
    );
    return;
  }
  await fetchInnerChunks(format, index, wanted, from, state.options, ctx, async (t, bytes) => {
    const key = innerChunkKey(ctx.key, t.coords);
    try {
      await inner.decodeInto(bytes, innerSpec, subTarget(target, t.local, t.out), { key, signal: ctx.signal });
    } catch (error) {
      throw fromInnerError(error, ctx.key, key, "decode");
    }
  });
}
