/**
 * Encoding a chunk through a codec chain. Loaded on the first write (`Pipeline.encode`):
 * an app that only reads never loads it.
 */
import { type ChunkSpec, type CodecCallContext, type NdArray, throwIfAborted, toCContiguous } from "@zarr/spec";
import { failed, type Stages, stageSpecs } from "./pipeline-stages.js";

/** `chunk` (of `spec`) → the stored bytes: array→array codecs, the array→bytes codec, then bytes→bytes codecs. */
export async function encodeChain(stages: Stages, chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): Promise<Uint8Array> {
  const specs = stageSpecs(stages, spec);
  let array = chunk;
  for (let i = 0; i < stages.arrayToArray.length; i++) {
    const c = stages.arrayToArray[i];
    try {
      array = await c.encode(array, specs[i], ctx);
    } catch (error) {
      throw failed(error, c, "encode", ctx);
    }
  }
  const abSpec = specs[specs.length - 1];
  let bytes: Uint8Array;
  try {
    if (!stages.arrayToBytes.acceptsStrided) array = toCContiguous(array, abSpec.dataType);
    bytes = await stages.arrayToBytes.encode(array, abSpec, ctx);
  } catch (error) {
    throw failed(error, stages.arrayToBytes, "encode", ctx);
  }
  for (const c of stages.bytesToBytes) {
    throwIfAborted(ctx.signal);
    try {
      bytes = await c.encode(bytes, ctx);
    } catch (error) {
      throw failed(error, c, "encode", ctx);
    }
  }
  return bytes;
}
