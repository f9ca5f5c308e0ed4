/**
 * Transaction log files (`transactions/<snapshot id>`): what one commit changed, by node
 * id. New, deleted and updated groups and arrays, the chunk coordinates whose references
 * were added, overwritten or deleted per array, and (spec 2) moved nodes. Spec 1 and 2
 * share the table's slots; spec 1 logs have no `moved_nodes`. Diffs and the inspection of
 * one commit are built from these files (see diff.ts).
 */
import { FileType, openFile } from "./file-header.js";
import { FlatBuffer, type Table } from "./flatbuffer.js";
import { encodeObjectId } from "./object-id.js";

/** One node that changed path in a commit (spec 2). */
export interface MovedNode {
  /** Path in the parent snapshot. */
  from: string;
  /** Path in this snapshot. */
  to: string;
  /** Node id (Crockford base 32, 13 characters). */
  nodeId: string;
  kind: "group" | "array";
}

/** The chunk coordinates of one array that a commit wrote or deleted. */
export interface UpdatedChunks {
  /** The array's node id (Crockford base 32, 13 characters). */
  nodeId: string;
  /** One coordinate per array dimension, sorted lexicographically. */
  chunks: number[][];
}

/** What one commit (or a merge of several) changed, by node id (Crockford base 32). */
export interface TransactionLog {
  /** The snapshot the log belongs to. */
  id: string;
  newGroups: string[];
  newArrays: string[];
  deletedGroups: string[];
  deletedArrays: string[];
  /** Groups whose metadata (zarr.json) changed. */
  updatedGroups: string[];
  /** Arrays whose metadata (zarr.json) changed. */
  updatedArrays: string[];
  /** Sorted by node id. */
  updatedChunks: UpdatedChunks[];
  movedNodes: MovedNode[];
}

/** The store key of the transaction log of snapshot `id`. */
export function transactionLogKey(id: string): string {
  return `transactions/${id}`;
}

const OBJECT_ID8_BYTES = 8;
const NODE_TYPE_ARRAY = 1;

/** Parses the transaction log file stored under `object` (spec 1 or 2). */
export function parseTransactionLog(bytes: Uint8Array, object: string, maxBytes: number): TransactionLog {
  const { payload } = openFile(bytes, object, FileType.TransactionLog, maxBytes);
  const fb = new FlatBuffer(payload, object);
  const root = fb.root("the transaction log");
  const idAt = root.requiredStruct(0, 12, "id");
  const ids = (slot: number, name: string): string[] => {
    const v = root.requiredVector(slot, OBJECT_ID8_BYTES, name);
    const out: string[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const at = v.start + OBJECT_ID8_BYTES * i;
      out[i] = encodeObjectId(fb.bytes.subarray(at, at + OBJECT_ID8_BYTES));
    }
    return out;
  };
  return {
    id: encodeObjectId(fb.bytes.subarray(idAt, idAt + 12)),
    newGroups: ids(1, "new_groups"),
    newArrays: ids(2, "new_arrays"),
    deletedGroups: ids(3, "deleted_groups"),
    deletedArrays: ids(4, "deleted_arrays"),
    updatedArrays: ids(5, "updated_arrays"),
    updatedGroups: ids(6, "updated_groups"),
    updatedChunks: parseUpdatedChunks(fb, root),
    movedNodes: parseMoves(fb, root),
  };
}

function parseUpdatedChunks(fb: FlatBuffer, root: Table): UpdatedChunks[] {
  const list = root.requiredTables(7, "updated_chunks");
  const view = fb.view;
  const out: UpdatedChunks[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const entry = list.at(i);
    const idAt = entry.requiredStruct(0, OBJECT_ID8_BYTES, "node_id");
    // One ChunkIndices table per chunk: read through the allocation-free path (a log may hold millions).
    const indices = entry.requiredVector(1, 4, "chunks");
    const chunks: number[][] = new Array(indices.length);
    for (let c = 0; c < indices.length; c++) {
      const p = indices.start + 4 * c;
      const what = () => `chunks[${c}] of updated_chunks[${i}] of the transaction log`;
      const coords = fb.vectorOfTable(p + view.getUint32(p, true), 0, 4, what) ?? fb.fail(`${what()} has no coords, a required field`);
      const index: number[] = new Array(coords.length);
      for (let d = 0; d < coords.length; d++) index[d] = view.getUint32(coords.start + 4 * d, true);
      chunks[c] = index;
    }
    out[i] = { nodeId: encodeObjectId(fb.bytes.subarray(idAt, idAt + OBJECT_ID8_BYTES)), chunks };
  }
  return out;
}

/** `moved_nodes` (slot 8): absent in spec 1 logs; every field of a move must be present. */
function parseMoves(fb: FlatBuffer, root: Table): MovedNode[] {
  const list = root.tables(8, "moved_nodes");
  if (list === undefined) return [];
  const out: MovedNode[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const move = list.at(i);
    const idAt = move.requiredStruct(2, OBJECT_ID8_BYTES, "node_id");
    out[i] = {
      from: move.requiredString(0, "from"),
      to: move.requiredString(1, "to"),
      nodeId: encodeObjectId(fb.bytes.subarray(idAt, idAt + OBJECT_ID8_BYTES)),
      kind: move.u8(3, "node_type") === NODE_TYPE_ARRAY ? "array" : "group",
    };
  }
  return out;
}
