/**
 * Decoding a whole chunk (`Pipeline.decode`), bytes into a whole chunk array and back
 * through array→array codecs (`transpose`), and turning negative-step selections into
 * ascending ones. Loaded on first use: reads of chains without array→array codecs decode
 * straight into the result, with ascending steps, and never need it.
 */
import { type ChunkSpec, type CodecCallContext, type DecodeTarget, type DimIndexer, type NdArray, throwIfAborted } from "@zarr/spec";
import { type DecodingStages, failed, type Stages, stageSpecs } from "./up-front.js";

/** The array→bytes codec's decoded chunk, run backwards through the array→array codecs (`specs` from `stageSpecs`). */
export async function decodeArray(stages: Stages, bytes: Uint8Array, specs: ChunkSpec[], ctx: CodecCallContext): Promise<NdArray> {
  let array: NdArray;
  try {
    array = await stages.arrayToBytes.decode(bytes, specs[specs.length - 1], ctx);
  } catch (error) {
    throw failed(error, stages.arrayToBytes, "decode", ctx);
  }
  for (let i = stages.arrayToArray.length - 1; i >= 0; i--) {
    const c = stages.arrayToArray[i];
    try {
      array = await c.decode(array, specs[i], ctx);
    } catch (error) {
      throw failed(error, c, "decode", ctx);
    }
  }
  return array;
}

/** `bytes` (a stored chunk of `spec`) decoded whole: bytes→bytes codecs backwards, bounded, then `decodeArray`. */
export async function decodeWhole(chain: DecodingStages, bytes: Uint8Array, spec: ChunkSpec, ctx: CodecCallContext): Promise<NdArray> {
  const specs = stageSpecs(chain, spec);
  const bounds = await chain.decodeBounds(specs[specs.length - 1], ctx.key);
  for (let i = chain.bytesToBytes.length - 1; i >= 0; i--) {
    throwIfAborted(ctx.signal);
    bytes = await chain.decodeStage(i, bytes, bounds[i], ctx);
  }
  return decodeArray(chain, bytes, specs, ctx);
}

/** `target` with its negative-step ranges turned into ascending ones (array→bytes codecs read ascending selections). */
export function ascending(target: DecodeTarget): DecodeTarget {
  const src: DimIndexer[] = target.src.slice();
  const dst: DimIndexer[] = target.dst.slice();
  for (let d = 0; d < src.length; d++) {
    const s = src[d];
    const t = dst[d];
    if ("step" in s && s.step < 0) {
      src[d] = { start: s.start + (s.count - 1) * s.step, step: -s.step, count: s.count };
      dst[d] = "step" in t
        ? { start: t.start + (s.count - 1) * t.step, step: -t.step, count: s.count }
        : { indices: Float64Array.from(t.indices).reverse() };
    }
  }
  return { out: target.out, src, dst, outIsZero: target.outIsZero };
}
