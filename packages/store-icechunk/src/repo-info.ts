/**
 * The repo info file (`repo`, spec version 2): branches, tags, deleted tags and every
 * snapshot's id, parent, time and message. Spec version 1 repositories have none (see
 * refs-v1.ts).
 */
import { FileType, openFile } from "./file-header.js";
import { FlatBuffer, type Table } from "./flatbuffer.js";
import { encodeObjectId } from "./object-id.js";

/** One commit as the history lists it. */
export interface SnapshotSummary {
  /** Snapshot id (Crockford base 32, 20 characters). */
  id: string;
  /** The parent's id; `undefined` for the repository's first snapshot. */
  parentId: string | undefined;
  /** Commit time (microseconds since the epoch, as Icechunk stores it). */
  flushedAtMicros: number;
  /** Commit time as a Date (millisecond precision). */
  flushedAt: Date;
  message: string;
  /**
   * Transaction logs of ancestors that expiration removed from this snapshot's history
   * (spec 2.1), oldest first: with the snapshot's own log they make its full change
   * history. Empty for snapshots never re-parented, and for spec 1 and 2.0 repositories.
   */
  prunedAncestorTxLogs: string[];
}

/** What the repo info file says. */
export interface RepoInfo {
  specVersion: number;
  /** Branch name → snapshot id. */
  branches: Map<string, string>;
  /** Tag name → snapshot id. */
  tags: Map<string, string>;
  deletedTags: Set<string>;
  /** Every snapshot by id. */
  snapshots: Map<string, SnapshotSummary>;
}

export const REPO_INFO_KEY = "repo";

/** `pruned_ancestor_tx_logs` (slot 5, spec 2.1): ObjectId12 structs; absent before 2.1. */
function prunedAncestorTxLogs(fb: FlatBuffer, info: Table): string[] {
  const v = info.vector(5, 12, "pruned_ancestor_tx_logs");
  if (v === undefined) return [];
  const out: string[] = new Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = encodeObjectId(fb.bytes.subarray(v.start + 12 * i, v.start + 12 * i + 12));
  return out;
}

/** Parses the repo info file (`bytes` as stored under `object`). */
export function parseRepoInfo(bytes: Uint8Array, object: string, maxBytes: number): RepoInfo {
  const { payload } = openFile(bytes, object, FileType.RepoInfo, maxBytes);
  const fb = new FlatBuffer(payload, object);
  const repo = fb.root("the repo info");
  const list = repo.requiredTables(4, "snapshots");
  const ids: string[] = [];
  const rows: { id: string; parentOffset: number; flushedAtMicros: number; message: string; pruned: string[] }[] = [];
  for (let i = 0; i < list.length; i++) {
    const info = list.at(i);
    const idAt = info.requiredStruct(0, 12, "id");
    const id = encodeObjectId(fb.bytes.subarray(idAt, idAt + 12));
    ids.push(id);
    rows.push({
      id,
      parentOffset: info.i32(1, "parent_offset"),
      flushedAtMicros: info.u64(2, "flushed_at"),
      message: info.requiredString(3, "message"),
      pruned: prunedAncestorTxLogs(fb, info),
    });
  }
  const snapshots = new Map<string, SnapshotSummary>();
  for (const [i, row] of rows.entries()) {
    if (row.parentOffset < -1 || row.parentOffset >= ids.length || row.parentOffset === i) {
      fb.fail(`snapshot ${row.id} has parent offset ${row.parentOffset}, outside the ${ids.length} snapshots`);
    }
    snapshots.set(row.id, {
      id: row.id,
      parentId: row.parentOffset === -1 ? undefined : ids[row.parentOffset],
      flushedAtMicros: row.flushedAtMicros,
      flushedAt: new Date(Math.floor(row.flushedAtMicros / 1000)),
      message: row.message,
      prunedAncestorTxLogs: row.pruned,
    });
  }
  const refs = (slot: number, kind: string): Map<string, string> => {
    const out = new Map<string, string>();
    const v = repo.requiredTables(slot, kind);
    for (let i = 0; i < v.length; i++) {
      const ref = v.at(i);
      const name = ref.requiredString(0, "name");
      const index = ref.u32(1, "snapshot_index");
      if (index >= ids.length) fb.fail(`${kind} "${name}" points to snapshot index ${index}, outside the ${ids.length} snapshots`);
      out.set(name, ids[index]);
    }
    return out;
  };
  const deletedTags = new Set(repo.strings(3, "deleted_tags") ?? repo.missing("deleted_tags"));
  return { specVersion: repo.u8(0, "spec_version", 2), branches: refs(2, "branches"), tags: refs(1, "tags"), deletedTags, snapshots };
}
