/**
 * The two node types. Both are plain values: a store, a path and resolved metadata.
 * Functions (`get`, `set`, `children`, ...) operate on them.
 */
import type {
  ArrayMetadata,
  Attributes,
  ChunkGrid,
  ChunkKeyEncoding,
  ChunkSpec,
  CodecPipeline,
  DataType,
  GroupMetadata,
  NodeMetadata,
  Scalar,
  Store,
  ZarrError,
} from "@zarr/spec";
import { type DataTypeOf, type ScalarOf, sameDataTypeName } from "./data-type-map.js";
import { withDocumentKey } from "./document-key.js";
import { checkElementFits, memoryLimits } from "./limits.js";
import type { NodeFormat } from "./node-format.js";
import type { ArrayConfig, NodeOptions } from "./node-options.js";
import { metadataKey, nodePrefix } from "./paths.js";
import { buildPipeline } from "./pipeline.js";
import { defaultRegistry, type Registry } from "./registry.js";

/** A group node. */
export class ZarrGroup {
  readonly kind = "group" as const;
  /** Zarr format of the node (3, or 2 for a group read through @zarr/v2-compat). */
  readonly zarrFormat: 2 | 3;
  constructor(
    readonly store: Store,
    readonly path: string,
    readonly metadata: GroupMetadata,
    readonly registry: Registry,
    /** Descendants' metadata by path relative to this group, when consolidated metadata was found. */
    readonly consolidated: ReadonlyMap<string, NodeMetadata> | undefined,
    /** True for a group without a `zarr.json` that exists only because it has children. */
    readonly implicit = false,
    zarrFormat: 2 | 3 = 3,
    /** The storage format the group was read from, when it is not Zarr v3 (see `NodeFormat`). */
    readonly format?: NodeFormat,
  ) {
    this.zarrFormat = zarrFormat;
  }
  /** The node's name (last path segment; `""` for the root). */
  get name(): string {
    return this.path.slice(this.path.lastIndexOf("/") + 1);
  }
  /** User attributes. */
  get attributes(): Attributes {
    return this.metadata.attributes;
  }
}

/**
 * Everything an array node is made of: where it lives, its metadata, and the extensions
 * that metadata resolved to (see `resolveArray`, which builds one and validates the parts
 * against each other).
 */
export interface ResolvedArray {
  readonly store: Store;
  /**
   * The store the chunks are read from and written to: `store` wrapped in the array's
   * storage transformers (default: `store` itself).
   */
  readonly chunkStore?: Store;
  /** Storage transformers skipped as not registered (they said `"must_understand": false`). */
  readonly ignoredStorageTransformers?: readonly string[];
  readonly path: string;
  readonly metadata: ArrayMetadata;
  /** Where the parts were looked up (and where nodes opened from this one look theirs up). */
  readonly registry: Registry;
  readonly dataType: DataType;
  /** The fill value as a value of `dataType`. */
  readonly fillValue: Scalar;
  readonly chunkGrid: ChunkGrid;
  readonly chunkKeyEncoding: ChunkKeyEncoding;
  readonly codecs: CodecPipeline;
  readonly config: ArrayConfig;
  /** Default 3. */
  readonly zarrFormat?: 2 | 3;
  /** The storage format the array was read from, when it is not Zarr v3 (see `NodeFormat`). */
  readonly format?: NodeFormat;
  /** Why its data cannot be used (see `ZarrArray.problem`). */
  readonly problem?: ZarrError;
}

/**
 * An array node with its metadata resolved: data type, fill value, grid, key encoding and codecs.
 *
 * `N` is the data type's name when it is known to the type checker (`ZarrArray<"float32">`),
 * else `string`. It types what the array reads: `get` on a `ZarrArray<"float32">` returns
 * a `Float32Array` (see `DataTypeMap`). Narrow an array with {@link ZarrArray.is}, or open
 * it with `openArray(store, path, { dataType: "float32" })`, which checks when it opens.
 * (`out`: a `ZarrArray<"float32">` is a `ZarrArray`, not the reverse. TypeScript cannot
 * infer that through the conditional types of `DataTypeOf`, and without it `is` would
 * not narrow.)
 */
export class ZarrArray<out N extends string = string> {
  readonly kind = "array" as const;
  // Assigned by the constructor (`declare`: no separate field definitions in the output).
  /** The store the array lives in; its metadata document is read from and written to it. */
  declare readonly store: Store;
  /**
   * The store chunk reads and writes go through: `store` wrapped in the storage
   * transformers the metadata names, stacked in their order; `store` itself when it names
   * none.
   */
  declare readonly chunkStore: Store;
  /**
   * Names of storage transformers in the metadata that were skipped because the registry
   * lacks them and they carry `"must_understand": false` (empty when none were).
   */
  declare readonly ignoredStorageTransformers: readonly string[];
  declare readonly path: string;
  declare readonly metadata: ArrayMetadata;
  declare readonly registry: Registry;
  declare readonly dataType: DataTypeOf<N>;
  declare readonly fillValue: ScalarOf<N>;
  declare readonly chunkGrid: ChunkGrid;
  declare readonly chunkKeyEncoding: ChunkKeyEncoding;
  declare readonly codecs: CodecPipeline;
  declare readonly config: ArrayConfig;
  declare readonly zarrFormat: 2 | 3;
  /** The storage format the array was read from, when it is not Zarr v3 (see `NodeFormat`). */
  declare readonly format?: NodeFormat;
  /**
   * Why the array's data cannot be read or written here, when it cannot: the coded error
   * (`CODEC_UNKNOWN`, `UNSUPPORTED`) for an extension the registry lacks. Such an array is
   * opened and listed with its metadata; `get`, `set` and the like throw this error.
   */
  declare readonly problem?: ZarrError;
  declare readonly shape: readonly number[];
  /** Key prefix of the chunks. */
  private declare readonly prefix: string;

  /** Builds the node from resolved parts (normally through `resolveArray` or `open`). */
  constructor(resolved: ResolvedArray) {
    this.store = resolved.store;
    this.chunkStore = resolved.chunkStore ?? resolved.store;
    this.ignoredStorageTransformers = resolved.ignoredStorageTransformers ?? [];
    this.path = resolved.path;
    this.metadata = resolved.metadata;
    this.registry = resolved.registry;
    // `N` is only ever narrowed by a check of the name (`is`, `openArray`'s `dataType`).
    this.dataType = resolved.dataType as DataTypeOf<N>;
    this.fillValue = resolved.fillValue as ScalarOf<N>;
    this.chunkGrid = resolved.chunkGrid;
    this.chunkKeyEncoding = resolved.chunkKeyEncoding;
    this.codecs = resolved.codecs;
    this.config = resolved.config;
    this.zarrFormat = resolved.zarrFormat ?? 3;
    this.format = resolved.format;
    if (resolved.problem !== undefined) this.problem = resolved.problem;
    this.shape = resolved.metadata.shape;
    this.prefix = resolved.format?.chunkPrefix?.(resolved.path) ?? nodePrefix(resolved.path);
  }
  /** The node's name (last path segment; `""` for the root). */
  get name(): string {
    return this.path.slice(this.path.lastIndexOf("/") + 1);
  }
  /** False when the array's data cannot be read or written here (see {@link ZarrArray.problem}). */
  get readable(): boolean {
    return this.problem === undefined;
  }
  /** Number of dimensions. */
  get ndim(): number {
    return this.shape.length;
  }
  /** User attributes. */
  get attributes(): Attributes {
    return this.metadata.attributes;
  }
  /** Dimension names, when the metadata has them. */
  get dimensionNames(): readonly (string | null)[] | undefined {
    return this.metadata.dimension_names;
  }
  /** The chunk shape of a regular grid (undefined for other grids). */
  get chunkShape(): readonly number[] | undefined {
    const cs = this.metadata.chunk_grid.configuration.chunk_shape;
    return this.metadata.chunk_grid.name === "regular" && Array.isArray(cs) ? (cs as number[]) : undefined;
  }
  /**
   * True when the array's data type is named `name` (an alias counts: `"datetime64"` is
   * `"numpy.datetime64"`), and then the array's type says so: `get` on it returns
   * `ArrayOf<name>` (`Float32Array` for `"float32"`, `string[]` for `"string"`).
   *
   * @example
   * ```ts
   * const arr = await openArray(store, "t2m");
   * if (arr.is("float32")) {
   *   const { data } = await get(arr); // data: Float32Array
   * }
   * ```
   */
  is<M extends N>(name: M): this is ZarrArray<M> {
    return sameDataTypeName(this.dataType.name, name);
  }
  /** Store key of the chunk at grid coordinates `coords`. */
  chunkKey(coords: readonly number[]): string {
    return this.prefix + this.chunkKeyEncoding.encode(coords);
  }
  /** The representation of the chunk at `coords` entering the codec chain. */
  chunkSpec(coords: readonly number[]): ChunkSpec {
    return { shape: this.chunkGrid.chunkShape(coords), dataType: this.dataType as DataType, fillValue: this.fillValue };
  }
}

/** A node: an array or a group. */
export type ZarrNode = ZarrArray | ZarrGroup;

/** Re-throws a key-less MetadataError with the document's key (also when `fn` is async and rejects). */
export function withMetadataKey<T>(key: string, fn: () => T): T {
  try {
    const result = fn();
    if (!(result instanceof Promise)) return result;
    return result.catch((error: unknown) => {
      throw withDocumentKey(error, key);
    }) as T;
  } catch (error) {
    throw withDocumentKey(error, key);
  }
}

/**
 * Resolves parsed array metadata into a {@link ZarrArray}: looks up the data type, grid,
 * key encoding and codecs in the registry and validates them against each other.
 */
export async function resolveArray(
  store: Store,
  path: string,
  metadata: ArrayMetadata,
  options: ResolveArrayOptions = {},
): Promise<ZarrArray> {
  const registry = options.registry ?? defaultRegistry;
  const key = options.documentKey ?? options.format?.metadataKey(path, "array") ?? metadataKey(path);
  try {
    return await resolveStrictly(store, path, metadata, options, registry, key);
  } catch (error) {
    // An extension the registry lacks (or a format's unreadable node) is not a broken
    // document: with `deferUnreadable`, the array opens and fails when its data is used.
    if (!options.deferUnreadable) throw error;
    const { unreadableArray } = await import("./unreadable-array.js");
    return unreadableArray(ZarrArray, store, path, metadata, { ...options, registry, documentKey: key }, error);
  }
}

/** Options of {@link resolveArray}. */
export interface ResolveArrayOptions extends NodeOptions, Partial<ArrayConfig> {
  zarrFormat?: 2 | 3;
  documentKey?: string;
  format?: NodeFormat;
  /**
   * When a codec, data type, grid, key encoding or storage transformer is not registered
   * (`CODEC_UNKNOWN`, `UNSUPPORTED`), still return the array, with that error as its
   * `problem`: its metadata is there, and reading or writing its data throws the error.
   * `open` and listings do this; `createArray` does not.
   */
  deferUnreadable?: boolean;
}

async function resolveStrictly(
  store: Store,
  path: string,
  metadata: ArrayMetadata,
  options: ResolveArrayOptions,
  registry: Registry,
  key: string,
): Promise<ZarrArray> {
  const { format } = options;
  const refused = format?.unreadable?.(metadata, key);
  if (refused !== undefined) throw refused;
  // The code of the data type and of every codec named loads from here on, together, not
  // one after the other (and a codec's decoder with it, not after the first chunk's bytes).
  registry.prefetch("data_type", metadata.data_type.name);
  for (const c of metadata.codecs) registry.prefetch("codec", c.name);
  return withMetadataKey(key, async () => {
    let stack: { chunkStore: Store; ignored: string[] } | undefined;
    if (metadata.storage_transformers.length > 0) {
      // Loaded only for arrays that name transformers (bundle size).
      const { stackStorageTransformers } = await import("./storage-transformers.js");
      stack = await stackStorageTransformers(store, metadata.storage_transformers, registry, { path, key });
    }
    const dtDef = metadata.data_type;
    const dtEntry = await registry.dataType(dtDef.name, { key, path: ["data_type"] });
    const dataType = dtEntry.fromConfig(dtDef.name, dtDef.configuration, ["data_type"]);
    const { maxChunkBytes, maxDecodeRatio } = await memoryLimits(options);
    // Before the fill value is parsed: that materialises one element.
    await checkElementFits(dataType, maxChunkBytes, key);
    const fillValue = dataType.parseFillValue(metadata.fill_value, ["fill_value"]);
    const gridEntry = await registry.chunkGrid(metadata.chunk_grid.name, { key, path: ["chunk_grid"] });
    const chunkGrid = gridEntry.fromConfig(metadata.chunk_grid.configuration, metadata.shape, ["chunk_grid"]);
    const kenc = metadata.chunk_key_encoding;
    let chunkKeyEncoding = format?.chunkKeyEncoding?.(metadata);
    if (chunkKeyEncoding === undefined) {
      const kencEntry = await registry.chunkKeyEncoding(kenc.name, { key, path: ["chunk_key_encoding"] });
      chunkKeyEncoding = kencEntry.fromConfig(kenc.configuration, ["chunk_key_encoding"]);
    }
    const firstChunk = chunkGrid.chunkShape(metadata.shape.map(() => 0));
    const codecs = await buildPipeline(metadata.codecs, { shape: firstChunk, dataType, fillValue }, registry, {
      key,
      path: ["codecs"],
      maxChunkBytes,
      maxDecodeRatio,
    });
    return new ZarrArray({
      store,
      chunkStore: stack?.chunkStore,
      ignoredStorageTransformers: stack?.ignored,
      path,
      metadata,
      registry,
      dataType,
      fillValue,
      chunkGrid,
      chunkKeyEncoding,
      codecs,
      config: {
        writeEmptyChunks: options.writeEmptyChunks ?? format?.writeEmptyChunks ?? false,
        chunkCache: options.chunkCache,
        maxChunkBytes,
        maxDecodeRatio,
      },
      zarrFormat: options.zarrFormat ?? format?.zarrFormat ?? 3,
      format,
    });
  });
}
