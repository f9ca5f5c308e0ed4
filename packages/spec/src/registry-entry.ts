/** What a registry holds: eager entries, and lazy entries that load on first use. */
import type { ChunkGridEntry, ChunkKeyEncodingEntry } from "./chunk-grid.js";
import type { CodecEntry } from "./codec.js";
import type { DataType } from "./data-type.js";
import type { JsonPath } from "./errors.js";
import type { JsonObject } from "./json.js";
import type { StorageTransformerEntry } from "./storage-transformer.js";
import type { StoreEntry } from "./store.js";

/** A data type as registered. */
export interface DataTypeEntry {
  readonly type: "data_type";
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly package?: string;
  /** For parametrised names such as `r16`: claims names other than `name` and `aliases`. */
  matches?(name: string): boolean;
  fromConfig(name: string, configuration: JsonObject, path: JsonPath): DataType;
}

/** Any eager entry. */
export type ExtensionEntry =
  | CodecEntry
  | DataTypeEntry
  | ChunkGridEntry
  | ChunkKeyEncodingEntry
  | StoreEntry
  | StorageTransformerEntry;

/**
 * An entry whose implementation is loaded on first use, so bundlers can split it out.
 *
 * @example
 * ```ts
 * const lazyBlosc: LazyEntry = { type: "codec", name: "blosc", lazy: true,
 *   load: () => import("@zarr/codec-blosc").then((m) => m.blosc) };
 * ```
 */
export interface LazyEntry<E extends ExtensionEntry = ExtensionEntry> {
  readonly type: E["type"];
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly package?: string;
  readonly lazy: true;
  /**
   * For a lazy data type with parametrised names (`r16`): claims names other than `name`
   * and `aliases` without loading the implementation (what `DataTypeEntry.matches` does).
   */
  matches?(name: string): boolean;
  load(): Promise<E>;
}

/** Anything `createRegistry` accepts. */
export type RegistryEntry = ExtensionEntry | LazyEntry;
