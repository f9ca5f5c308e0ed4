/**
 * Folding transaction logs: the merge of several commits' logs into one (the synthetic
 * composite of a snapshot whose expired ancestors' logs are listed in the repo info, spec
 * 2.1), and the diff between two snapshots as Icechunk reports it: node paths instead of
 * node ids, chunk coordinates per array path. Both are unions, as in Icechunk: a node
 * created in one commit and updated in the next is listed as both.
 */
import type { Snapshot } from "./snapshot.js";
import { encodeObjectId } from "./object-id.js";
import type { MovedNode, TransactionLog, UpdatedChunks } from "./transaction-log.js";

/** What changed between two snapshots, by node path (with the leading `/`). */
export interface IcechunkDiff {
  newGroups: string[];
  newArrays: string[];
  deletedGroups: string[];
  deletedArrays: string[];
  updatedGroups: string[];
  updatedArrays: string[];
  /** Array path → the coordinates of every chunk written or deleted, sorted lexicographically. */
  updatedChunks: Record<string, number[][]>;
  /** Moves in commit order (spec 2). */
  movedNodes: { from: string; to: string }[];
  /**
   * Transaction logs of expired ancestors (spec 2.1) that the repo info lists but storage
   * no longer holds (deleted by an older garbage collection): the diff lacks their changes.
   */
  missingTxLogs: string[];
}

/** Lexicographic order of chunk coordinates (Icechunk's order of `ChunkIndices`). */
export function compareCoords(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** Component-wise path order (`/a` < `/a/b` < `/ab`), the spec's node order. */
export function comparePaths(a: string, b: string): number {
  const x = a === "/" ? [] : a.slice(1).split("/");
  const y = b === "/" ? [] : b.slice(1).split("/");
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return x.length - y.length;
}

/** `chunks` sorted with duplicates dropped (in place). */
function sortUnique(chunks: number[][]): number[][] {
  chunks.sort(compareCoords);
  let kept = 0;
  for (let i = 0; i < chunks.length; i++) {
    if (kept === 0 || compareCoords(chunks[kept - 1], chunks[i]) !== 0) chunks[kept++] = chunks[i];
  }
  chunks.length = kept;
  return chunks;
}

/** Accumulates the union of transaction logs, in the order they are added. */
class LogFold {
  readonly newGroups = new Set<string>();
  readonly newArrays = new Set<string>();
  readonly deletedGroups = new Set<string>();
  readonly deletedArrays = new Set<string>();
  readonly updatedGroups = new Set<string>();
  readonly updatedArrays = new Set<string>();
  /** Node id → coordinates (unsorted, maybe repeated until {@link sortUnique}). */
  readonly chunks = new Map<string, number[][]>();
  readonly moves: MovedNode[] = [];

  add(log: TransactionLog): void {
    for (const id of log.newGroups) this.newGroups.add(id);
    for (const id of log.newArrays) this.newArrays.add(id);
    for (const id of log.deletedGroups) this.deletedGroups.add(id);
    for (const id of log.deletedArrays) this.deletedArrays.add(id);
    for (const id of log.updatedGroups) this.updatedGroups.add(id);
    for (const id of log.updatedArrays) this.updatedArrays.add(id);
    for (const { nodeId, chunks } of log.updatedChunks) {
      const all = this.chunks.get(nodeId);
      if (all === undefined) this.chunks.set(nodeId, chunks.slice());
      else for (const c of chunks) all.push(c);
    }
    for (const move of log.movedNodes) this.moves.push(move);
  }
}

/**
 * The union of `logs` as one log of snapshot `id` (Icechunk's `TransactionLog::merge`):
 * node id lists sorted (Crockford names sort as the bytes do), chunk coordinates sorted
 * and unique per array, moves in the order given.
 */
export function mergeTransactionLogs(id: string, logs: Iterable<TransactionLog>): TransactionLog {
  const fold = new LogFold();
  for (const log of logs) fold.add(log);
  const sorted = (s: Set<string>) => [...s].sort();
  const updatedChunks: UpdatedChunks[] = [...fold.chunks.keys()].sort().map((nodeId) => ({ nodeId, chunks: sortUnique(fold.chunks.get(nodeId) ?? []) }));
  return {
    id,
    newGroups: sorted(fold.newGroups),
    newArrays: sorted(fold.newArrays),
    deletedGroups: sorted(fold.deletedGroups),
    deletedArrays: sorted(fold.deletedArrays),
    updatedGroups: sorted(fold.updatedGroups),
    updatedArrays: sorted(fold.updatedArrays),
    updatedChunks,
    movedNodes: fold.moves,
  };
}

/**
 * The diff of `logs` (the commits after `from` up to `to`, oldest first) as paths: a
 * node id is named by its path in `to`, or in `from` when `to` no longer has it (a
 * deleted node); ids in neither snapshot (a node created and deleted in between) are
 * left out, as Icechunk does.
 */
export function diffFromLogs(logs: Iterable<TransactionLog>, from: Snapshot, to: Snapshot, missingTxLogs: string[]): IcechunkDiff {
  const merged = mergeTransactionLogs(to.id, logs);
  const paths = new Map<string, string>();
  for (const snapshot of [from, to]) {
    for (const node of snapshot.nodes.values()) paths.set(encodeObjectId(node.nodeId), node.path);
  }
  const named = (ids: string[]): string[] => {
    const out = new Set<string>();
    for (const id of ids) {
      const path = paths.get(id);
      if (path !== undefined) out.add(path);
    }
    return [...out].sort(comparePaths);
  };
  const byPath = new Map<string, number[][]>();
  for (const { nodeId, chunks } of merged.updatedChunks) {
    const path = paths.get(nodeId);
    if (path === undefined) continue;
    const all = byPath.get(path);
    byPath.set(path, all === undefined ? chunks : sortUnique([...all, ...chunks]));
  }
  const updatedChunks: Record<string, number[][]> = {};
  for (const path of [...byPath.keys()].sort(comparePaths)) updatedChunks[path] = byPath.get(path) ?? [];
  return {
    newGroups: named(merged.newGroups),
    newArrays: named(merged.newArrays),
    deletedGroups: named(merged.deletedGroups),
    deletedArrays: named(merged.deletedArrays),
    updatedGroups: named(merged.updatedGroups),
    updatedArrays: named(merged.updatedArrays),
    updatedChunks,
    movedNodes: merged.movedNodes.map(({ from: f, to: t }) => ({ from: f, to: t })),
    missingTxLogs,
  };
}
