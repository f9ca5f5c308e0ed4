/**
 * Encoding a chunk through a codec chain, whole or in part. Loaded on the first write
 * (`Pipeline.encode`, `encodePartial`): an app that only reads never loads it.
 */
import {
  type ArrayToBytesCodec,
  type ByteSource,
  type ChunkSpec,
  type ChunkUpdate,
  type CodecCallContext,
  type NdArray,
  throwIfAborted,
  toCContiguous,
} from "@zarr/spec";
import { failed, type Stages, stageSpecs } from "./up-front.js";

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

/** Writes part of a chunk through the array→bytes codec alone (a chain's `encodePartial`). */
export async function encodePartOf(
  codec: ArrayToBytesCodec,
  source: ByteSource,
  update: ChunkUpdate,
  spec: ChunkSpec,
  ctx: CodecCallContext,
): Promise<Uint8Array | null> {
  try {
    return await (codec.encodePartial as NonNullable<ArrayToBytesCodec["encodePartial"]>).call(codec, source, update, spec, ctx);
  } catch (error) {
    throw failed(error, codec, "encode", ctx);
  }
}
