/**
 * The node-format contract: how a storage layout other than Zarr v3 (Zarr v2's
 * `.zarray`/`.zgroup`, the early v3 draft's `meta/…`) plugs into core. A `"format"`
 * registry entry ({@link FormatEntry}) reads that layout's nodes as v3 metadata and may
 * create them (`createArray(store, path, { zarrFormat: 2, … })`); the nodes it reads
 * carry a {@link NodeFormat}, the hooks through which writes (attributes, resize,
 * consolidation) go back to the layout's own documents.
 *
 * Types only. Hooks see nodes through the small {@link FormatNode} shapes (which
 * `ZarrArray` and `ZarrGroup` satisfy), so this contract does not depend on the node
 * classes, which depend on it.
 */
import type {
  ArrayMetadata,
  Attributes,
  ChunkKeyEncoding,
  GroupMetadata,
  NodeMetadata,
  Store,
  ZarrError,
} from "@zarr/spec";
import type { CreateArrayOptions, CreateNodeOptions } from "./node-options.js";
import type { LoadedFormatEntry, Registry } from "./registry.js";

/** Options of the write hooks. */
export interface FormatWriteOptions {
  signal?: AbortSignal;
}

/** What a format hook is given of a node (a `ZarrArray` or `ZarrGroup`). */
export interface FormatNode {
  readonly kind: "array" | "group";
  readonly store: Store;
  readonly path: string;
  readonly metadata: NodeMetadata;
  /** Where the node looks its extensions up. */
  readonly registry: Registry;
}

/** What a format hook is given of a group (a `ZarrGroup`). */
export interface FormatGroup extends FormatNode {
  readonly kind: "group";
  readonly metadata: GroupMetadata;
  /** Descendants' metadata by relative path, when the group was read with consolidated metadata. */
  readonly consolidated: ReadonlyMap<string, NodeMetadata> | undefined;
}

/** What a format hook is given of an array (a `ZarrArray`). */
export interface FormatArray extends FormatNode {
  readonly kind: "array";
  readonly metadata: ArrayMetadata;
}

/** A node found while listing or reading a format: its path and metadata, codecs not resolved. */
export interface NodeEntry {
  path: string;
  name: string;
  kind: "array" | "group";
  metadata: NodeMetadata;
  /** A group without a `zarr.json` that exists because it has children. */
  implicit: boolean;
  /** Consolidated metadata of the descendants, when the listing came from it. */
  consolidated?: ReadonlyMap<string, NodeMetadata>;
  /** The storage format the node was read from, when it is not Zarr v3 (see `NodeFormat`). */
  format?: NodeFormat;
}

/**
 * How nodes of a non-v3 format are laid out and written. One value per format, shared by
 * all its nodes; hooks that are absent make the corresponding write `UNSUPPORTED`.
 */
export interface NodeFormat {
  /** The format's name (`"zarr-v2"`, `"zarr-v3-draft"`). */
  readonly name: string;
  /** The Zarr format version nodes of this format report (`node.zarrFormat`). */
  readonly zarrFormat: 2 | 3;
  /** Whether arrays store chunks whose elements all equal the fill value unless told otherwise. */
  readonly writeEmptyChunks?: boolean;
  /** Store key of a node's metadata document (named in error messages). */
  metadataKey(path: string, kind: "array" | "group"): string;
  /** Key prefix of an array's chunks (default: the node's own prefix, `path/`). */
  chunkPrefix?(path: string): string;
  /** An array's chunk key encoding (default: resolved from its metadata through the registry). */
  chunkKeyEncoding?(metadata: ArrayMetadata): ChunkKeyEncoding;
  /** Lists a group's children when it has no consolidated metadata (default: the v3 listing). */
  listChildren?(group: FormatGroup, options: FormatWriteOptions): Promise<NodeEntry[]>;
  /** Writes a node's attributes to this format's documents. */
  writeAttributes?(node: FormatNode, attributes: Attributes, options: FormatWriteOptions): Promise<void>;
  /** Writes an array's metadata (after `resize`). */
  writeArrayMetadata?(array: FormatArray, metadata: ArrayMetadata, options: FormatWriteOptions): Promise<void>;
  /**
   * Consolidates the metadata of the hierarchy below `group` (what `consolidateMetadata`
   * does for v3) and returns the group as read back, with its consolidated metadata.
   */
  consolidate?(group: FormatGroup, options: FormatWriteOptions): Promise<NodeEntry>;
  /**
   * Why an array this format listed cannot be resolved (to read or write its data), or
   * `undefined` when it can. A format describes arrays it has no v3 model for (Zarr v2's
   * pickle object arrays) so that listing their hierarchy works, as it does for v3 arrays
   * with an unregistered codec; resolving them throws the error returned here (`key`: the
   * node's metadata key).
   */
  unreadable?(metadata: ArrayMetadata, key: string): ZarrError | undefined;
}

/** What a format entry gets when asked for a node. */
export interface FormatReadOptions {
  /** The registry of the caller (e.g. to learn a codec's kind). */
  registry: Registry;
  signal?: AbortSignal;
}

/** What a format entry's `createGroup` gets: `createGroup`'s options, registry resolved. */
export type FormatCreateGroupOptions = Omit<CreateNodeOptions, "registry" | "zarrFormat" | "attributes"> & {
  registry: Registry;
  /** The caller's attributes, properties set to `undefined` dropped. */
  attributes?: Attributes;
};

/**
 * What a format entry's `createArray` gets: `createArray`'s options, registry resolved,
 * without the per-array behaviour core applies itself. Options the format cannot honour
 * are its to reject with `INVALID_ARGUMENT`.
 */
export type FormatCreateArrayOptions = Omit<
  CreateArrayOptions,
  "registry" | "zarrFormat" | "chunkCache" | "writeEmptyChunks" | "attributes"
> & {
  registry: Registry;
  /** The caller's attributes, properties set to `undefined` dropped. */
  attributes?: Attributes;
};

/**
 * A storage format other than Zarr v3, as registered: `read` describes the node at a
 * path in the v3 model (metadata only, no codec resolved), or resolves `undefined`
 * when the format has no node there. A format that also writes names the Zarr version
 * it writes (`zarrFormat`) and creates nodes: `createGroup`/`createArray` with that
 * `zarrFormat` hand over to it, and it writes the documents and describes the new node.
 *
 * @example
 * ```ts
 * const registry = createRegistry([v2Format]); // from @zarr/v2-compat
 * const node = await open(store, "t2m", { registry }); // a .zarray is found when there is no zarr.json
 * await createArray(store, "t2", { zarrFormat: 2, shape: [4], dataType: "int16", registry });
 * ```
 */
export interface FormatEntry extends LoadedFormatEntry {
  readonly type: "format";
  readonly name: string;
  readonly package?: string;
  /** The Zarr format version this entry creates nodes of (absent: it only reads). */
  readonly zarrFormat?: 2 | 3;
  read(store: Store, path: string, options: FormatReadOptions): Promise<NodeEntry | undefined>;
  /** Writes a new group at `path` (normalised by the format's own path rules) and describes it. */
  createGroup?(store: Store, path: string, options: FormatCreateGroupOptions): Promise<NodeEntry>;
  /** Writes a new array at `path` and describes it (core resolves it into a `ZarrArray`). */
  createArray?(store: Store, path: string, options: FormatCreateArrayOptions): Promise<NodeEntry>;
}

/** A format entry whose implementation is loaded on first use. */
export interface LazyFormatEntry {
  readonly type: "format";
  readonly name: string;
  readonly package?: string;
  readonly lazy: true;
  load(): Promise<FormatEntry>;
}

/** Any format entry. */
export type AnyFormatEntry = FormatEntry | LazyFormatEntry;
