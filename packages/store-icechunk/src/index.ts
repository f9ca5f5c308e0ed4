/**
 * @zarr/store-icechunk: read Icechunk repositories (spec versions 1 and 2) held in any
 * store as read-only Zarr stores: branches, tags, snapshots, history, inline, native and
 * virtual chunks, split manifests; transaction logs and diffs between snapshots.
 */

export { type IcechunkLocation, icechunkStoreEntry, splitIcechunkLocation } from "./entry.js";
export type { IcechunkDiff } from "./diff.js";
export { DEFAULT_MAX_METADATA_BYTES, IcechunkStore, type IcechunkStoreOptions } from "./icechunk-store.js";
export type { ChunkRef, InlineChunkRef, NativeChunkRef, VirtualChunkRef } from "./manifest.js";
export { decodeObjectId, encodeObjectId } from "./object-id.js";
export type { SnapshotSummary } from "./repo-info.js";
export {
  IcechunkRepository,
  type IcechunkRepositoryOptions,
  type IcechunkVersion,
  type OpenIcechunkOptions,
  openIcechunk,
  type TransactionLogInspection,
  versionOf,
} from "./repository.js";
export type { Snapshot, SnapshotNode } from "./snapshot.js";
export type { MovedNode, TransactionLog, UpdatedChunks } from "./transaction-log.js";
export { containerOf, type VirtualChunkOptions } from "./virtual-chunks.js";
