/**
 * Worker-side chunk decoding: undo the bytes→bytes codecs, view the bytes as the data
 * type's elements, and copy the selected region straight into the (shared) result array.
 * The main thread only reads files and hands out work, so every core decodes and copies.
 */
import { copyRegion, type DimIndexer, type TypedArray, type WorkerCall, ZarrError } from "@zarr/spec";

/** One chunk to decode into a shared result. */
export interface DecodeIntoTask {
  key: string;
  /** Encoded bytes (moved to the worker). */
  bytes: Uint8Array;
  /** bytes→bytes decoders, in the order to apply them. */
  stages: WorkerCall[];
  /** Byte length of the decoded chunk. */
  expectedBytes: number;
  /** Name of the typed-array class holding the elements (e.g. "Float32Array"). */
  arrayType: string;
  /** Slots per element. */
  width: number;
  /** The decoded chunk as a view: strides (elements) and offset after undoing transposes. */
  chunkStride: number[];
  chunkOffset: number;
  src: DimIndexer[];
  dst: DimIndexer[];
  /** The result: a typed array over a SharedArrayBuffer, with its view geometry. */
  out: { data: TypedArray; stride: number[]; offset: number };
}

type Module = Record<string, unknown>;
const modules = new Map<string, Promise<Module>>();

async function call(stage: WorkerCall, bytes: Uint8Array): Promise<Uint8Array> {
  let loading = modules.get(stage.moduleUrl);
  if (loading === undefined) {
    loading = import(stage.moduleUrl) as Promise<Module>;
    modules.set(stage.moduleUrl, loading);
  }
  const fn = (await loading)[stage.exportName] as (b: Uint8Array, ...a: unknown[]) => Uint8Array | Promise<Uint8Array>;
  return fn(bytes, ...stage.args);
}

/** Decodes one chunk and copies its selected elements into the shared result. */
export async function decodeInto(task: DecodeIntoTask): Promise<void> {
  let bytes = task.bytes;
  for (const stage of task.stages) bytes = await call(stage, bytes);
  if (bytes.length !== task.expectedBytes) {
    throw new ZarrError(
      "CODEC_FAILED",
      `Chunk "${task.key}" decodes to ${bytes.length} bytes, but its elements take ${task.expectedBytes}`,
      { key: task.key },
    );
  }
  const Ctor = (globalThis as unknown as Record<string, new (b: ArrayBufferLike, o: number, n: number) => TypedArray>)[task.arrayType];
  const per = (Ctor as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
  if (bytes.byteOffset % per !== 0) bytes = bytes.slice();
  const data = new Ctor(bytes.buffer, bytes.byteOffset, bytes.length / per);
  copyRegion(
    { data, shape: [], stride: task.chunkStride, offset: task.chunkOffset },
    task.src,
    { data: task.out.data, shape: [], stride: task.out.stride, offset: task.out.offset },
    task.dst,
    task.width,
  );
}
