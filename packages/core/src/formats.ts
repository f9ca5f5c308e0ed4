/**
 * Other storage layouts seen through the Zarr v3 model. A "format" registry entry reads
 * nodes of another layout (Zarr v2's `.zarray`/`.zgroup`, the early v3 draft's
 * `meta/…`) and describes them as v3 metadata, so `open`, `get`, `set`, `children` and
 * `walk` work on them unchanged. Nodes read this way carry a {@link NodeFormat}: the
 * hooks through which writes (attributes, resize, consolidation) go back to that
 * layout's own documents. Zarr v3 (`zarr.json`) is always tried first.
 */
import { type ArrayMetadata, type Attributes, type ChunkKeyEncoding, type Store, throwIfAborted } from "@zarr/spec";
import type { NodeEntry, ZarrArray, ZarrGroup, ZarrNode } from "./nodes.js";
import type { Registry } from "./registry.js";

/** What a format entry gets when asked for a node. */
export interface FormatReadOptions {
  /** The registry of the caller (e.g. to learn a codec's kind). */
  registry: Registry;
  signal?: AbortSignal;
}

/**
 * A storage format other than Zarr v3, as registered: `read` describes the node at a
 * path in the v3 model (metadata only, no codec resolved), or resolves `undefined`
 * when the format has no node there.
 *
 * @example
 * ```ts
 * const registry = createRegistry([v2Format]); // from @zarr/v2-compat
 * const node = await open(store, "t2m", { registry }); // a .zarray is found when there is no zarr.json
 * ```
 */
export interface FormatEntry {
  readonly type: "format";
  readonly name: string;
  readonly package?: string;
  read(store: Store, path: string, options: FormatReadOptions): Promise<NodeEntry | undefined>;
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

/** Options of the write hooks. */
export interface FormatWriteOptions {
  signal?: AbortSignal;
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
  listChildren?(group: ZarrGroup, options: FormatWriteOptions): Promise<NodeEntry[]>;
  /** Writes a node's attributes to this format's documents. */
  writeAttributes?(node: ZarrNode, attributes: Attributes, options: FormatWriteOptions): Promise<void>;
  /** Writes an array's metadata (after `resize`). */
  writeArrayMetadata?(array: ZarrArray, metadata: ArrayMetadata, options: FormatWriteOptions): Promise<void>;
  /** Consolidates the metadata of the hierarchy below `group` (what `consolidateMetadata` does for v3). */
  consolidate?(group: ZarrGroup, options: FormatWriteOptions): Promise<ZarrGroup>;
}

/**
 * Asks the registry's `"format"` entries (Zarr v2, the early v3 draft, ...), in order,
 * for the node at `path`; the first that has one answers.
 */
export async function readFormatEntry(store: Store, path: string, registry: Registry, signal?: AbortSignal): Promise<NodeEntry | undefined> {
  for (const format of await registry.formats()) {
    throwIfAborted(signal);
    const entry = await format.read(store, path, { registry, signal });
    if (entry !== undefined) return entry;
  }
  return undefined;
}
