/**
 * The chunk task as a worker thread runs it: build (once) the same codec chain and store
 * the calling thread has, from their descriptions, then run the same read as the calling
 * thread would, into the shared result.
 *
 * Both tasks take the call's context (`takesCallContext`): when the caller aborts, the
 * signal stops the store reads and the codec chain between stages, and the task throws
 * `ABORTED`, so the worker answers soon and the pool can let the caller go.
 */
import {
  type ChunkSpec,
  type CodecEntry,
  type CodecPipeline,
  cStrides,
  type DataType,
  type DecodeTarget,
  type DimIndexer,
  type DataArray,
  type ExtensionObject,
  fullSelection,
  type JsonValue,
  type ModuleExport,
  memorySource,
  type Scalar,
  type Store,
  shapeSize,
  type TypedArray,
  takesCallContext,
  throwIfAborted,
  type WorkerCallContext,
  type WorkerStoreRecipe,
  ZarrError,
} from "@zarr/spec";
import { buildPipeline } from "../pipeline.js";
import { createRegistry } from "../registry.js";
import { storeSource } from "../up-front.js";
import { ownsBuffer } from "../workers/protocol.js";
import { loadWorkerModule } from "../workers/worker-modules.js";

/** An array's codec chain as a worker rebuilds it. */
export interface WorkerArray {
  /** The chain as in the array's metadata. */
  codecs: ExtensionObject[];
  /** Where the worker finds the entries of every codec in the chain (by `moduleName` first, then `moduleUrl`). */
  modules: ModuleExport[];
  dataType: string | ExtensionObject;
  /** The fill value as metadata JSON. */
  fillValue: JsonValue;
  /** The chunk shape the chain was built for (the first chunk's). */
  buildShape: number[];
  /** The array's `maxChunkBytes`: decoders in the worker are bounded as on the calling thread. */
  maxChunkBytes: number;
  /** The array's `maxDecodeRatio` (structured clone carries `Infinity`). */
  maxDecodeRatio: number;
}

/** One chunk read, as sent to a worker. */
export interface WorkerChunkRead {
  array: WorkerArray;
  /**
   * A store the worker opens itself, or the chunk's bytes (moved or shared to the worker);
   * with `giveBack`, they are a copy on a spare buffer of the caller's, which the answer
   * moves back ({@link WorkerReadAnswer}) for the next chunk's copy.
   */
  source: { store: WorkerStoreRecipe } | { bytes: Uint8Array; giveBack?: boolean };
  key: string;
  shape: number[];
  /** The result: a typed array over a SharedArrayBuffer, with its view geometry. */
  out: { data: TypedArray; stride: number[]; offset: number };
  src: DimIndexer[];
  dst: DimIndexer[];
  outIsZero: boolean;
}

/** The answer of a `readChunk` whose bytes were to be given back: whether the chunk is stored, and the whole spare buffer (moved). */
export interface WorkerReadAnswer {
  stored: boolean;
  spare: Uint8Array;
}

interface Built {
  pipeline: CodecPipeline;
  dataType: DataType;
  fillValue: Scalar;
}

const chains = new Map<string, Promise<Built>>();
const stores = new Map<string, Promise<Store>>();

async function build(array: WorkerArray): Promise<Built> {
  const entries: CodecEntry[] = [];
  for (const m of array.modules) {
    const entry = (await loadWorkerModule(m))[m.exportName] as CodecEntry | undefined;
    if (entry?.type !== "codec") throw new ZarrError("CODEC_UNKNOWN", `${m.moduleName ?? m.moduleUrl} has no codec entry "${m.exportName}"`);
    entries.push(entry);
  }
  const registry = createRegistry(entries);
  const dt = typeof array.dataType === "string" ? { name: array.dataType, configuration: {} } : array.dataType;
  const dataType = (await registry.dataType(dt.name)).fromConfig(dt.name, dt.configuration ?? {}, ["data_type"]);
  const fillValue = dataType.parseFillValue(array.fillValue, ["fill_value"]);
  const pipeline = await buildPipeline(array.codecs, { shape: array.buildShape, dataType, fillValue }, registry, {
    maxChunkBytes: array.maxChunkBytes,
    maxDecodeRatio: array.maxDecodeRatio,
  });
  return { pipeline, dataType, fillValue };
}

function chainOf(array: WorkerArray): Promise<Built> {
  const id = JSON.stringify(array);
  let built = chains.get(id);
  if (built === undefined) {
    built = build(array);
    chains.set(id, built);
    // A failed build is not kept: the next task tries again and reports its own error.
    built.catch(() => chains.delete(id));
  }
  return built;
}

function storeOf(recipe: WorkerStoreRecipe): Promise<Store> {
  const id = JSON.stringify(recipe);
  let store = stores.get(id);
  if (store === undefined) {
    store = loadWorkerModule(recipe).then((m) => (m[recipe.exportName] as (...a: unknown[]) => Store | Promise<Store>)(...recipe.args));
    stores.set(id, store);
    store.catch(() => stores.delete(id));
  }
  return store;
}

/**
 * Reads one chunk into the shared result; false when it is not stored. `context.signal`
 * (from the worker runtime) stops it between stages (before the store read, after it,
 * between decode stages) and is passed on to the worker's own store reads; a stopped read
 * throws `ABORTED`, leaving the result's region of this chunk partly written.
 */
export const readChunk = takesCallContext(async function readChunk(task: WorkerChunkRead, context?: WorkerCallContext): Promise<boolean | WorkerReadAnswer> {
  const signal = context?.signal;
  const { pipeline, dataType, fillValue } = await chainOf(task.array);
  throwIfAborted(signal);
  const source = "bytes" in task.source ? memorySource(task.source.bytes) : storeSource(await storeOf(task.source.store), task.key, signal);
  throwIfAborted(signal);
  const spec: ChunkSpec = { shape: task.shape, dataType, fillValue };
  const target: DecodeTarget = {
    out: { data: task.out.data, shape: [], stride: task.out.stride, offset: task.out.offset },
    src: task.src,
    dst: task.dst,
    outIsZero: task.outIsZero,
  };
  let stored: boolean;
  try {
    stored = await pipeline.decodePartialInto(source, spec, target, { key: task.key, signal });
  } finally {
    // Cached state (shard indexes) could go stale: the calling thread's writes never reach it.
    pipeline.clearCache();
  }
  if (!("bytes" in task.source && task.source.giveBack === true)) return stored;
  // The whole buffer, so that the runtime moves it back (it moves only arrays spanning theirs).
  // A buffer a codec moved elsewhere is detached (empty): nothing to give back.
  const { buffer } = task.source.bytes;
  return buffer.byteLength === 0 ? stored : { stored, spare: new Uint8Array(buffer) };
});

/** One chunk to decode whole, as sent to a worker (the chunk cache's misses: see cached-read.ts). */
export interface WorkerChunkDecode {
  array: WorkerArray;
  /** The chunk's stored bytes (moved to the worker). */
  bytes: Uint8Array;
  key: string;
  shape: number[];
}

/**
 * Decodes one chunk whole; its elements come back in C order in a buffer of their own
 * (moved, not copied), for the calling thread's chunk cache to keep. Needs no shared
 * memory. `context.signal` stops it before and after decoding (and reaches the codecs).
 */
export const decodeChunk = takesCallContext(async function decodeChunk(task: WorkerChunkDecode, context?: WorkerCallContext): Promise<DataArray> {
  const signal = context?.signal;
  const { pipeline, dataType, fillValue } = await chainOf(task.array);
  throwIfAborted(signal);
  const spec: ChunkSpec = { shape: task.shape, dataType, fillValue };
  const out = { data: dataType.allocate(shapeSize(task.shape)), shape: task.shape, stride: cStrides(task.shape) };
  const whole = fullSelection(task.shape);
  try {
    await pipeline.decodeInto(task.bytes, spec, { out, src: whole, dst: whole }, { key: task.key, signal });
  } finally {
    pipeline.clearCache();
  }
  throwIfAborted(signal);
  return out.data;
});

/** One chunk encode, as sent to a worker. */
export interface WorkerChunkEncode {
  array: WorkerArray;
  key: string;
  shape: number[];
  /** The chunk's elements in C order, on a SharedArrayBuffer the caller keeps unchanged until the reply. */
  data: TypedArray;
}

/**
 * Encodes one chunk; the bytes come back in a buffer of their own (moved, not copied).
 * `context.signal` stops it before and after encoding (and reaches the codecs), with `ABORTED`.
 */
export const encodeChunk = takesCallContext(async function encodeChunk(task: WorkerChunkEncode, context?: WorkerCallContext): Promise<Uint8Array> {
  const signal = context?.signal;
  const { pipeline, dataType, fillValue } = await chainOf(task.array);
  throwIfAborted(signal);
  const spec: ChunkSpec = { shape: task.shape, dataType, fillValue };
  const bytes = await pipeline.encode({ data: task.data, shape: task.shape, stride: cStrides(task.shape) }, spec, { key: task.key, signal });
  throwIfAborted(signal);
  // Bytes that are a view (of the shared chunk, or of a larger buffer) are copied once so
  // that the reply owns its buffer and can move it.
  return ownsBuffer(bytes) ? bytes : bytes.slice();
});
