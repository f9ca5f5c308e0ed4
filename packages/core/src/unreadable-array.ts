/**
 * The parts of an array whose metadata names an extension the registry lacks (a codec, a
 * data type, a storage transformer...), or that its storage format cannot read, opened
 * anyway: its metadata, shape and attributes are there to list and describe, and its
 * `problem` says why its data cannot be used. Every part that could not be resolved is a
 * stand-in that throws that problem when touched, so `get`, `set` and every other data
 * path fail with the same coded error as opening it strictly would. Loaded only when such
 * an array is met.
 */
import type { ArrayMetadata, ChunkGrid, ChunkKeyEncoding, CodecPipeline, DataType, JsonValue, Scalar, Store } from "@zarr/spec";
import { isMemoryLimitError } from "./limit-errors.js";
import type { NodeFormat } from "./node-format.js";
import type { ArrayConfig } from "./node-options.js";
import type { Registry } from "./registry.js";
import { checkElementFits, memoryLimits, ZarrError } from "./up-front.js";

/** An object every property access of which throws `problem` (except those in `known`). */
function refusing<T extends object>(problem: ZarrError, known: Record<string, unknown> = {}): T {
  return new Proxy({} as T, {
    get(_target, property) {
      if (typeof property === "string" && Object.hasOwn(known, property)) return known[property];
      // Not a thenable, and printable by console.log / util.inspect.
      if (property === "then" || typeof property === "symbol") return undefined;
      throw problem;
    },
  });
}

/** `fn()`, or `undefined` when it throws or rejects. */
async function attempt<T>(fn: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch {
    return undefined;
  }
}

/** What {@link unreadableParts} resolves: the parts of a `ResolvedArray` that depend on the registry. */
interface UnreadableParts {
  dataType: DataType;
  fillValue: Scalar;
  chunkGrid: ChunkGrid;
  chunkKeyEncoding: ChunkKeyEncoding;
  codecs: CodecPipeline;
  chunkStore: Store;
}

/**
 * The data type, fill value, grid and key encoding when the registry has them (the data
 * type only if one element fits `maxChunkBytes`: parsing the fill value materialises
 * one), stand-ins that throw `problem` otherwise; the codecs and the chunk store always
 * stand-ins (the problem may lie in a storage transformer, which the plain store would
 * bypass). `ownKeyEncoding` is the storage format's own, when it has one.
 */
async function unreadableParts(
  registry: Registry,
  metadata: ArrayMetadata,
  ownKeyEncoding: ChunkKeyEncoding | undefined,
  maxChunkBytes: number,
  key: string,
  problem: ZarrError,
): Promise<UnreadableParts> {
  const dtDef = metadata.data_type;
  const resolvedType = await attempt(async () => {
    const dataType = (await registry.dataType(dtDef.name)).fromConfig(dtDef.name, dtDef.configuration, ["data_type"]);
    await checkElementFits(dataType, maxChunkBytes, key);
    return dataType;
  });
  const dataType =
    resolvedType ?? refusing<DataType>(problem, { name: dtDef.name, toJSON: () => ({ name: dtDef.name, configuration: dtDef.configuration }) as JsonValue });
  const fillValue =
    (resolvedType === undefined ? undefined : await attempt(() => resolvedType.parseFillValue(metadata.fill_value, ["fill_value"]))) ??
    (metadata.fill_value as Scalar);
  const grid = metadata.chunk_grid;
  const chunkGrid = (await attempt(async () => (await registry.chunkGrid(grid.name)).fromConfig(grid.configuration, metadata.shape, ["chunk_grid"]))) ?? refusing<ChunkGrid>(problem);
  const kenc = metadata.chunk_key_encoding;
  const chunkKeyEncoding =
    ownKeyEncoding ??
    (await attempt(async () => (await registry.chunkKeyEncoding(kenc.name)).fromConfig(kenc.configuration, ["chunk_key_encoding"]))) ??
    refusing<ChunkKeyEncoding>(problem);
  return { dataType, fillValue, chunkGrid, chunkKeyEncoding, codecs: refusing<CodecPipeline>(problem), chunkStore: refusing<Store>(problem) };
}

/** What a `ZarrArray` is built from (`ResolvedArray`), as a deferred array fills it in. */
interface DeferredArray extends UnreadableParts {
  store: Store;
  path: string;
  metadata: ArrayMetadata;
  registry: Registry;
  config: ArrayConfig;
  zarrFormat: 2 | 3;
  format: NodeFormat | undefined;
  problem: ZarrError;
}

/** What `resolveArray` was given (its `ResolveArrayOptions`), as far as a deferred array needs it. */
interface DeferOptions extends Partial<ArrayConfig> {
  /**
   * The registry resolved (given by `resolveArray`, which knows the default: importing the
   * registry here would tie the up-front modules it reaches to this lazy one, splitting
   * them into more chunks).
   */
  registry: Registry;
  zarrFormat?: 2 | 3;
  /** The key of the array's metadata document (given by `resolveArray`, like `registry`). */
  documentKey: string;
  format?: NodeFormat;
}

/**
 * The array `resolveArray` could not resolve because of `error`, opened anyway with it as
 * its `problem` when the error is `CODEC_UNKNOWN` or `UNSUPPORTED` (the registry lacks
 * what the metadata names; a memory bound is not that); `error` is thrown again otherwise.
 * `makeArray` is `ZarrArray` (passed in, so this module does not import the node types).
 */
export async function unreadableArray<A>(
  makeArray: new (resolved: DeferredArray) => A,
  store: Store,
  path: string,
  metadata: ArrayMetadata,
  options: DeferOptions,
  error: unknown,
): Promise<A> {
  const deferrable = error instanceof ZarrError && (error.code === "CODEC_UNKNOWN" || error.code === "UNSUPPORTED") && !isMemoryLimitError(error);
  if (!deferrable) throw error;
  const { format } = options;
  const { registry } = options;
  const { maxChunkBytes, maxDecodeRatio } = await memoryLimits(options);
  const key = options.documentKey;
  const parts = await unreadableParts(registry, metadata, format?.chunkKeyEncoding?.(metadata), maxChunkBytes, key, error);
  const resolved: DeferredArray = {
    store,
    path,
    metadata,
    registry,
    ...parts,
    config: { writeEmptyChunks: options.writeEmptyChunks ?? format?.writeEmptyChunks ?? false, chunkCache: options.chunkCache, maxChunkBytes, maxDecodeRatio },
    zarrFormat: options.zarrFormat ?? format?.zarrFormat ?? 3,
    format,
    problem: error,
  };
  return new makeArray(resolved);
}
