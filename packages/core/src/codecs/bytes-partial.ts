/**
 * Partial reads of chains of the `bytes` codec alone (uncompressed chunks): a chunk whose
 * bytes are the result's memory layout goes from the store straight into the result by a
 * scatter read; others are read whole and copied. Loaded with the first such chunk (bundle
 * size: arrays of compressed chunks never need it).
 */
import type { ByteSource, ChunkSpec, CodecCallContext, DecodeTarget, ZarrError } from "@zarr/spec";
import { shapeSize } from "../up-front.js";
import { scatterRanges } from "./scatter-ranges.js";

/**
 * What the `bytes` codec of one array gives its partial reads (passed in, not imported: this
 * module shares no code with bytes.ts, so no chunk of shared code loads up front for it).
 */
export interface BytesReading {
  /** The stored bytes are the elements' memory: a scatter read may put them in place. */
  bytesAreLayout: boolean;
  /** Decodes a whole stored value into `target`. */
  decodeInto: (bytes: Uint8Array, chunkSpec: ChunkSpec, target: DecodeTarget, ctx: CodecCallContext) => void;
  /** The error of a stored value whose size is not the chunk's. */
  wrongSize: (key: string, got: number, spec: ChunkSpec, want: number) => ZarrError;
}

/** The `bytes` codec's `decodePartialInto`, with what the codec gives it (`reading`). */
export async function decodeBytesPartial(
  source: ByteSource,
  chunkSpec: ChunkSpec,
  target: DecodeTarget,
  ctx: CodecCallContext,
  reading: BytesReading,
): Promise<boolean> {
  const { bytesAreLayout, decodeInto, wrongSize } = reading;
  const itemBytes = chunkSpec.dataType.byteSize ?? 0;
  const direct = bytesAreLayout && source.readInto !== undefined && ArrayBuffer.isView(target.out.data);
  const ranges = direct ? scatterRanges(chunkSpec.shape, target.src, target.out, target.dst, itemBytes) : undefined;
  if (ranges === undefined) {
    // Not a layout a scatter read can fill: read the value and copy from it.
    const bytes = await source.get(undefined, ctx.signal);
    if (bytes === undefined) return false;
    decodeInto(bytes, chunkSpec, target, ctx);
    return true;
  }
  const size = await (source.readInto as NonNullable<ByteSource["readInto"]>)(ranges, ctx.signal);
  if (size === undefined) return false;
  // A value of another size (truncated, or not this array's chunk) leaves the
  // targets unspecified: the read fails rather than return short data.
  const want = shapeSize(chunkSpec.shape) * itemBytes;
  if (size !== want) throw wrongSize(ctx.key, size, chunkSpec, want);
  return true;
}
