/**
 * Worker-side chunk decoding: undo the bytes→bytes codecs, view the bytes as the data
 * type's elements, and copy the selected region straight into the (shared) result array.
 * The main thread only hands out work (and reads files, unless the store lets workers
 * read them too), so every core decodes and copies.
 */
import { copyRegion, type DimIndexer, type TypedArray, type WorkerCall, type WorkerRead, ZarrError } from "@zarr/spec";

/** One chunk to decode into a shared result. */
export interface DecodeIntoTask {
  key: string;
  /** Encoded bytes (moved to the worker), or how the worker reads them itself. */
  bytes: Uint8Array | WorkerRead;
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

async function load(stage: { moduleUrl: string }, exportName: string): Promise<(b: Uint8Array, ...a: unknown[]) => unknown> {
  let loading = modules.get(stage.moduleUrl);
  if (loading === undefined) {
    loading = import(stage.moduleUrl) as Promise<Module>;
    modules.set(stage.moduleUrl, loading);
  }
  return (await loading)[exportName] as (b: Uint8Array, ...a: unknown[]) => unknown;
}

/** Scratch outputs up to this size are kept for the next chunk. */
const KEEP_SCRATCH = 64 << 20;
/** Bytes the scratch output has beyond the chunk's size. */
const SCRATCH_SPARE = 64;
/** The last stage's output buffer, reused from chunk to chunk (see `WorkerCall.intoExportName`). */
let scratch = new Uint8Array(0);

/** Encoded chunks up to this size are read into the kept input buffer. */
const KEEP_INPUT = 16 << 20;
/** The input buffer of worker-side reads, reused from chunk to chunk while nobody holds it. */
let spareInput: Uint8Array | undefined = new Uint8Array(0);

/**
 * Reads (when the task says how) or takes the chunk's bytes, decodes them and copies the
 * selected elements into the shared result. Resolves false when the chunk is missing:
 * the caller then fills its region.
 */
export async function decodeInto(task: DecodeIntoTask): Promise<boolean> {
  if (task.bytes instanceof Uint8Array) {
    await decodeBytes(task, task.bytes);
    return true;
  }
  const read = await load(task.bytes, task.bytes.exportName);
  // Two calls of one worker may overlap while a decoder awaits: the second then reads
  // into a buffer of its own.
  const spare = spareInput ?? new Uint8Array(0);
  spareInput = undefined;
  try {
    const bytes = read(spare, ...task.bytes.args) as Uint8Array | undefined;
    if (bytes === undefined) return false;
    await decodeBytes(task, bytes);
    if (bytes.buffer !== spare.buffer && bytes.byteOffset === 0 && bytes.length <= KEEP_INPUT) {
      // A chunk larger than the spare: keep its buffer for the next one.
      spareInput = new Uint8Array(bytes.buffer as ArrayBuffer);
      return true;
    }
  } finally {
    spareInput ??= spare;
  }
  return true;
}

/** Decodes one chunk's bytes and copies its selected elements into the shared result. */
async function decodeBytes(task: DecodeIntoTask, encoded: Uint8Array): Promise<void> {
  let bytes = encoded;
  const stages = task.stages;
  const last = stages.length - 1;
  for (let i = 0; i < last; i++) bytes = (await (await load(stages[i], stages[i].exportName))(bytes, ...stages[i].args)) as Uint8Array;
  if (last >= 0) {
    const stage = stages[last];
    const into = stage.intoExportName === undefined ? undefined : await load(stage, stage.intoExportName);
    if (into !== undefined && task.expectedBytes <= KEEP_SCRATCH) {
      // Room to spare lets decoders that learn the size only by decoding (gzip, zlib) see
      // that the output fit.
      if (scratch.length <= task.expectedBytes) scratch = new Uint8Array(task.expectedBytes + SCRATCH_SPARE);
      // Synchronous from here to the copy: no other chunk of this worker can reuse the
      // scratch before this one's elements are in the result.
      copyInto(task, into(bytes, scratch, ...stage.args) as Uint8Array);
      return;
    }
    bytes = (await (await load(stage, stage.exportName))(bytes, ...stage.args)) as Uint8Array;
  }
  copyInto(task, bytes);
}

/** Checks the decoded chunk's length, then copies its selected elements into the result. */
function copyInto(task: DecodeIntoTask, decoded: Uint8Array): void {
  let bytes = decoded;
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
