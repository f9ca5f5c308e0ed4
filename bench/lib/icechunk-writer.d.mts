import type { Store } from "@zarr/spec";
export const FILE_TYPE: { snapshot: 1; manifest: 2; transactionLog: 4; repoInfo: 6 };
export const INITIAL_SNAPSHOT_ID: Uint8Array;
export function idName(bytes: Uint8Array): string;
export function encodeFile(payload: Uint8Array, fileType: number, options?: { specVersion?: number; compression?: number; writer?: string }): Uint8Array;
export interface WriterChunkRef {
  index: number[];
  inline?: Uint8Array;
  chunkId?: Uint8Array;
  location?: string;
  offset?: number;
  length?: number;
  etag?: string;
  lastModified?: number;
}
export function manifestPayload(id: Uint8Array, arrays: { nodeId: Uint8Array; refs: WriterChunkRef[] }[]): Uint8Array;
export function snapshotPayload(options: Record<string, unknown>): Uint8Array;
export function repoInfoPayload(options: Record<string, unknown>): Uint8Array;
/** A transaction log as the writer takes it: node ids as bytes. */
export interface WriterTxLog {
  newGroups?: Uint8Array[];
  newArrays?: Uint8Array[];
  deletedGroups?: Uint8Array[];
  deletedArrays?: Uint8Array[];
  updatedGroups?: Uint8Array[];
  updatedArrays?: Uint8Array[];
  updatedChunks?: { nodeId: Uint8Array; chunks: number[][] }[];
  movedNodes?: { from: string; to: string; nodeId: Uint8Array; array?: boolean }[];
}
export function transactionLogPayload(id: Uint8Array, log?: WriterTxLog, options?: { specVersion?: number }): Uint8Array;
export interface WriterNode {
  path: string;
  metadata: Record<string, unknown>;
  nodeId?: Uint8Array;
  chunks?: WriterChunkRef[];
}
export class IcechunkWriter {
  constructor(store: Store, options?: { specVersion?: 1 | 2; compression?: 0 | 1 });
  store: Store;
  specVersion: number;
  snapshots: { id: Uint8Array; parent: number; flushedAtMicros: number; message: string; prunedAncestorTxLogs?: Uint8Array[]; expired?: boolean }[];
  writeChunk(bytes: Uint8Array): Promise<{ chunkId: Uint8Array; offset: number; length: number }>;
  init(): Promise<number>;
  commit(message: string, nodes: WriterNode[], options?: { parent?: number; id?: Uint8Array; splitSize?: number; txLog?: WriterTxLog }): Promise<number>;
  writeTransactionLog(id: Uint8Array, log: WriterTxLog): Promise<void>;
  expire(indexes: number[], options?: { reparent?: Record<number, number>; trackTxLogs?: boolean }): Promise<void>;
  finish(refs: { branches: Record<string, number>; tags?: Record<string, number>; deletedTags?: string[] }): Promise<void>;
}
export function icechunkFromZarr(source: Store, target: Store, options?: { specVersion?: 1 | 2; splitSize?: number }): Promise<IcechunkWriter>;
