/**
 * Fetching the encoded bytes of inner chunks: from a whole shard in memory, or from a
 * `ByteSource` with one range request per group of neighbouring inner chunks (gaps up
 * to `coalesceGap` bytes are read and discarded), groups in flight concurrently.
 *
 * Range reads cannot see the shard's length, so each read checks it got every byte it
 * asked for (a short read means an inner chunk reaches past the end). With the index at
 * the end, the read reaching furthest is extended by `indexBytes`: getting them all
 * proves no inner chunk read overlaps the index. When the furthest-reaching inner chunk
 * of the whole shard is within `coalesceGap` bytes, the read is extended up to it, which
 * proves it for every inner chunk at once. `EndCheck.verifiedEnd` remembers how far
 * that is proven, so later reads skip the extension.
 */
import type { ByteSource, CodecCallContext } from "@zarr/spec";
import { forEachBounded } from "./bounded.js";
import { corruptShard, ShardVanished } from "./errors.js";
import type { ResolvedShardingOptions } from "./options.js";
import { giveReadBuffer, takeReadBuffer } from "./read-buffers.js";
import type { ShardFormat, ShardIndex } from "./shard-format.js";

/** How far into a shard (index at the end) inner chunks are known not to overlap the index. */
export interface EndCheck {
  verifiedEnd: number;
}

/** Where inner chunk bytes come from: a whole shard (already validated), or range reads. */
export type ShardBytes = { whole: Uint8Array } | { source: ByteSource; end: EndCheck };

/** Largest index worth reading again to prove inner chunks do not overlap it. */
const MAX_INDEX_CHECK_BYTES = 64 * 1024;

interface Group<T> {
  start: number;
  end: number;
  members: T[];
}

/**
 * Calls `onChunk(item, bytes)` for every item (each naming a non-empty inner chunk by
 * its `linear` index), with at most `fetchConcurrency` reads and `codecConcurrency`
 * callbacks per read in flight. `bytes` may be a view of a store's memory or of a reused
 * read buffer: read only, and only until the callback's promise settles.
 */
export async function fetchInnerChunks<T extends { linear: number }>(
  format: ShardFormat,
  index: ShardIndex,
  items: readonly T[],
  from: ShardBytes,
  options: ResolvedShardingOptions,
  ctx: CodecCallContext,
  onChunk: (item: T, bytes: Uint8Array) => Promise<void>,
): Promise<void> {
  const e = index.entries;
  if ("whole" in from) {
    const whole = from.whole;
    await forEachBounded(
      items,
      options.codecConcurrency,
      (item) => {
        const offset = e[2 * item.linear];
        return onChunk(item, whole.subarray(offset, offset + e[2 * item.linear + 1]));
      },
      ctx.signal,
    );
    return;
  }
  const groups = coalesce(items, e, options.coalesceGap);
  // Extend the furthest read over the index (when it is small enough to be worth it).
  let extended: Group<T> | undefined;
  let extendedEnd = 0;
  if (format.location === "end" && format.indexBytes <= MAX_INDEX_CHECK_BYTES) {
    for (const g of groups) if (extended === undefined || g.end > extended.end) extended = g;
    if (extended !== undefined && extended.end <= from.end.verifiedEnd) extended = undefined;
    if (extended !== undefined) {
      extendedEnd = index.maxEnd - extended.end <= options.coalesceGap ? index.maxEnd : extended.end;
    }
  }
  const source = from.source;
  await forEachBounded(
    groups,
    options.fetchConcurrency,
    async (g) => {
      const extra = g === extended ? extendedEnd - g.end + format.indexBytes : 0;
      const want = g.end - g.start + extra;
      const range = { offset: g.start, length: want };
      // Versioned reads (a shard's inner chunks are read pinned to its index's version, see
      // read.ts) can land in a reused buffer: fresh megabytes per read cost page faults and GC.
      const spare = source.getVersioned !== undefined ? takeReadBuffer(want) : undefined;
      try {
        const bytes =
          spare === undefined
            ? await source.get(range, ctx.signal)
            : (await source.getVersioned?.(range, undefined, ctx.signal, spare))?.bytes;
        if (bytes === undefined) throw new ShardVanished(ctx.key);
        if (bytes.length < want) {
          // A short read: the shard ends at g.start + bytes.length, so some entry
          // (a member, or the one the extension reached for) does not fit.
          const length = g.start + bytes.length;
          for (const m of g.members) {
            const offset = e[2 * m.linear];
            format.checkEntry(m.linear, offset, offset + e[2 * m.linear + 1], length, ctx.key);
          }
          format.checkLength(index, length, ctx.key);
          throw corruptShard(ctx.key, `a read of bytes ${g.start}–${g.start + want} returned only ${bytes.length} bytes`);
        }
        if (g === extended && extendedEnd > from.end.verifiedEnd) from.end.verifiedEnd = extendedEnd;
        await forEachBounded(
          g.members,
          options.codecConcurrency,
          (m) => {
            const offset = e[2 * m.linear] - g.start;
            return onChunk(m, bytes.subarray(offset, offset + e[2 * m.linear + 1]));
          },
          ctx.signal,
        );
      } finally {
        // Every member's callback has settled (or the read failed): nothing holds the buffer.
        if (spare !== undefined) giveReadBuffer(spare);
      }
    },
    ctx.signal,
  );
}

/** Groups items by byte position: neighbours at most `gap` bytes apart share a read. */
function coalesce<T extends { linear: number }>(items: readonly T[], e: Float64Array, gap: number): Group<T>[] {
  const sorted = items.slice().sort((a, b) => e[2 * a.linear] - e[2 * b.linear]);
  const groups: Group<T>[] = [];
  let current: Group<T> | undefined;
  for (const item of sorted) {
    const start = e[2 * item.linear];
    const end = start + e[2 * item.linear + 1];
    if (current !== undefined && start <= current.end + gap) {
      if (end > current.end) current.end = end;
      current.members.push(item);
    } else {
      current = { start, end, members: [item] };
      groups.push(current);
    }
  }
  return groups;
}
