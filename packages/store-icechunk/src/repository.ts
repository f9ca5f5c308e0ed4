/**
 * An Icechunk repository held in any store: its branches, tags and history, and
 * read-only stores over its snapshots. Spec version 2 keeps all of that in one repo info
 * file (`repo`); spec version 1 in ref files (`refs/`) and the snapshots' parent links.
 * A repository migrated from 1 to 2 has a repo info file and spec 1 snapshots, which
 * read the same way.
 */
import { mapConcurrent, type Store, type StoreRequestOptions, ZarrError } from "@zarr/spec";
import { diffFromLogs, type IcechunkDiff, mergeTransactionLogs } from "./diff.js";
import { icechunkError } from "./errors.js";
import { DEFAULT_MAX_METADATA_BYTES, IcechunkStore, type IcechunkStoreOptions } from "./icechunk-store.js";
import { decodeObjectId } from "./object-id.js";
import { listRefsV1, type RefKind, readRefV1 } from "./refs-v1.js";
import { parseRepoInfo, REPO_INFO_KEY, type RepoInfo, type SnapshotSummary } from "./repo-info.js";
import { parseSnapshot, type Snapshot, snapshotKey } from "./snapshot.js";
import { parseTransactionLog, type TransactionLog, transactionLogKey } from "./transaction-log.js";

/** Which snapshot to read: a branch's tip (default `main`), a tag, or a snapshot id. */
export type IcechunkVersion = { branch: string } | { tag: string } | { snapshot: string };

/** Options of {@link IcechunkRepository.open}. */
export interface IcechunkRepositoryOptions extends StoreRequestOptions {
  /** The largest decoded metadata file (repo info, snapshot, manifest) accepted (default 1 GiB). */
  maxMetadataBytes?: number;
}

/** A read-only view of an Icechunk repository's refs and history. */
export class IcechunkRepository {
  /** The store holding the repository's files. */
  readonly storage: Store;
  /** The repo info file (spec 2 and migrated repositories); `undefined` for spec 1. */
  readonly info: RepoInfo | undefined;
  readonly #maxBytes: number;
  readonly #snapshots = new Map<string, Promise<Snapshot>>();

  private constructor(storage: Store, info: RepoInfo | undefined, maxBytes: number) {
    this.storage = storage;
    this.info = info;
    this.#maxBytes = maxBytes;
  }

  /**
   * Opens the repository in `storage` with one read (`repo`; a spec 1 repository has none
   * and is read through its ref files instead).
   *
   * @example
   * ```ts
   * const repo = await IcechunkRepository.open(new FileSystemStore("/data/repo"));
   * console.log(await repo.listBranches());
   * ```
   */
  static async open(storage: Store, options: IcechunkRepositoryOptions = {}): Promise<IcechunkRepository> {
    const maxBytes = options.maxMetadataBytes ?? DEFAULT_MAX_METADATA_BYTES;
    const bytes = await storage.get(REPO_INFO_KEY, { signal: options.signal });
    const info = bytes === undefined ? undefined : parseRepoInfo(bytes, REPO_INFO_KEY, maxBytes);
    return new IcechunkRepository(storage, info, maxBytes);
  }

  /** The spec version of the repository's entry point: 2 with a repo info file, else 1. */
  get specVersion(): number {
    return this.info?.specVersion ?? 1;
  }

  /** Branch names, sorted. */
  async listBranches(options: StoreRequestOptions = {}): Promise<string[]> {
    return this.info === undefined ? listRefsV1(this.storage, "branch", options) : [...this.info.branches.keys()].sort();
  }

  /** Tag names, sorted (deleted tags are not listed). */
  async listTags(options: StoreRequestOptions = {}): Promise<string[]> {
    if (this.info === undefined) return listRefsV1(this.storage, "tag", options);
    return [...this.info.tags.keys()].filter((t) => !this.info?.deletedTags.has(t)).sort();
  }

  /** The snapshot id of a branch, tag or snapshot id; `NODE_NOT_FOUND` when there is none. */
  async resolve(version: IcechunkVersion = { branch: "main" }, options: StoreRequestOptions = {}): Promise<string> {
    if ("snapshot" in version) {
      decodeObjectId(version.snapshot, 12);
      const id = version.snapshot.toUpperCase();
      if (this.info !== undefined && !this.info.snapshots.has(id)) throw icechunkError("NODE_NOT_FOUND", snapshotKey(id), "no such snapshot in the repository");
      return id;
    }
    const kind: RefKind = "branch" in version ? "branch" : "tag";
    const name = "branch" in version ? version.branch : version.tag;
    if (typeof name !== "string" || name === "" || name.includes("/")) throw new ZarrError("INVALID_ARGUMENT", `Invalid Icechunk ${kind} name ${JSON.stringify(name)}`);
    let id: string | undefined;
    if (this.info === undefined) id = await readRefV1(this.storage, kind, name, options);
    else if (kind === "branch") id = this.info.branches.get(name);
    else id = this.info.deletedTags.has(name) ? undefined : this.info.tags.get(name);
    if (id === undefined) throw icechunkError("NODE_NOT_FOUND", `${kind} ${name}`, `ref not found: the repository has no ${kind} ${JSON.stringify(name)}`);
    return id;
  }

  /** Snapshot `id`, read once. */
  snapshot(id: string, options: StoreRequestOptions = {}): Promise<Snapshot> {
    let snapshot = this.#snapshots.get(id);
    if (snapshot === undefined) {
      const key = snapshotKey(id);
      snapshot = this.storage.get(key, options).then((bytes) => {
        if (bytes === undefined) throw icechunkError("NODE_NOT_FOUND", key, "the snapshot file is missing");
        const parsed = parseSnapshot(bytes, key, this.#maxBytes);
        if (parsed.id !== id) throw icechunkError("CODEC_FAILED", key, `corrupt file: it holds snapshot ${parsed.id}`);
        return parsed;
      });
      snapshot.catch(() => this.#snapshots.delete(id));
      this.#snapshots.set(id, snapshot);
    }
    return snapshot;
  }

  /**
   * The history of a branch, tag or snapshot: that snapshot first, then each parent up to
   * the repository's first commit. Spec 2 reads it from the repo info file; spec 1 reads
   * one snapshot file per commit. After expiration a snapshot's parent is the one the
   * expiration re-pointed it to (the expired commits are gone from the history).
   */
  async ancestry(version: IcechunkVersion = { branch: "main" }, options: StoreRequestOptions = {}): Promise<SnapshotSummary[]> {
    const out: SnapshotSummary[] = [];
    for await (const summary of this.#history(await this.resolve(version, options), options)) out.push(summary);
    return out;
  }

  /** Snapshot `id`'s history, newest first, read only as far as the caller iterates. */
  async *#history(id: string | undefined, options: StoreRequestOptions): AsyncGenerator<SnapshotSummary> {
    const seen = new Set<string>();
    while (id !== undefined) {
      if (seen.has(id)) throw icechunkError("CODEC_FAILED", snapshotKey(id), "corrupt history: the parent links form a cycle");
      seen.add(id);
      const summary: SnapshotSummary = this.info?.snapshots.get(id) ?? summarize(await this.snapshot(id, options));
      yield summary;
      id = summary.parentId;
    }
  }

  /** The transaction log of `id` (a snapshot id, or a pruned ancestor's log id); `undefined` when storage has none. */
  async #readTransactionLog(id: string, options: StoreRequestOptions): Promise<TransactionLog | undefined> {
    const key = transactionLogKey(id);
    const bytes = await this.storage.get(key, options);
    return bytes === undefined ? undefined : parseTransactionLog(bytes, key, this.#maxBytes);
  }

  /** Snapshot `id`'s own transaction log; `NODE_NOT_FOUND` when the file is missing. */
  async #ownTransactionLog(id: string, options: StoreRequestOptions): Promise<TransactionLog> {
    const log = await this.#readTransactionLog(id, options);
    const key = transactionLogKey(id);
    if (log === undefined) throw icechunkError("NODE_NOT_FOUND", key, "the transaction log file is missing");
    if (log.id !== id) throw icechunkError("CODEC_FAILED", key, `corrupt file: it holds the transaction log of snapshot ${log.id}`);
    return log;
  }

  /**
   * The full change history of the commits `ids` (oldest first): for each, the logs of its
   * expired ancestors that the repo info lists (spec 2.1, oldest first), then its own.
   * Pruned logs storage no longer holds (an older garbage collection deleted them) are
   * skipped and named in `missing`. All the files are read with one bound on reads in flight.
   */
  async #changeHistory(ids: string[], options: StoreRequestOptions): Promise<{ logs: TransactionLog[]; merged: string[]; missing: string[] }> {
    const wanted: { id: string; own: boolean }[] = [];
    for (const id of ids) {
      for (const pruned of this.info?.snapshots.get(id)?.prunedAncestorTxLogs ?? []) wanted.push({ id: pruned, own: false });
      wanted.push({ id, own: true });
    }
    const found = await mapConcurrent(
      wanted,
      LOG_READS_IN_FLIGHT,
      ({ id, own }) => (own ? this.#ownTransactionLog(id, options) : this.#readTransactionLog(id, options)),
      { signal: options.signal },
    );
    const logs: TransactionLog[] = [];
    const merged: string[] = [];
    const missing: string[] = [];
    for (const [i, log] of found.entries()) {
      const { id, own } = wanted[i];
      if (log === undefined) missing.push(id);
      else {
        logs.push(log);
        if (!own) merged.push(id);
      }
    }
    return { logs, merged, missing };
  }

  /**
   * What commit `snapshot` changed, by node id, as Icechunk's `inspect_transaction_log`
   * shows it. When expiration re-parented the snapshot (spec 2.1: the repo info lists its
   * pruned ancestors' logs), the result merges those logs with its own and says so in
   * `syntheticComposite`, naming the logs merged and those storage no longer holds.
   * `snapshot` is a snapshot id (read as given, so the log of an expired ancestor a
   * composite names can be inspected too) or a branch, tag or snapshot to resolve.
   * `NODE_NOT_FOUND` when the snapshot's own log is missing (spec 1 initial commits have none).
   *
   * @example
   * ```ts
   * const log = await repo.transactionLog(await repo.resolve({ branch: "main" }));
   * console.log(log.newArrays, log.updatedChunks, log.syntheticComposite);
   * ```
   */
  async transactionLog(snapshot: string | IcechunkVersion, options: StoreRequestOptions = {}): Promise<TransactionLogInspection> {
    // An id is read as given, even one the history no longer lists: an expired ancestor's
    // log that a composite names can be inspected on its own, as in Icechunk.
    const id = typeof snapshot === "string" ? snapshotIdOf(snapshot) : await this.resolve(snapshot, options);
    const { logs, merged, missing } = await this.#changeHistory([id], options);
    if (logs.length === 1 && missing.length === 0) return { ...logs[0], syntheticComposite: undefined };
    return { ...mergeTransactionLogs(id, logs), syntheticComposite: { mergedPrunedAncestorTxLogs: merged, missingTxLogs: missing } };
  }

  /**
   * What changed from snapshot `from` to snapshot `to` (each a branch, tag or snapshot id),
   * as Icechunk's `Repository.diff` reports it: new, deleted and updated groups and arrays
   * by path, and the chunk coordinates written or deleted per array path. Folds the
   * transaction logs of the commits after `from` up to `to` along `to`'s history, each
   * commit's expired ancestors' logs (spec 2.1) before its own; pruned logs storage no
   * longer holds are named in `missingTxLogs` (the diff lacks them) rather than failing.
   * `INVALID_ARGUMENT` when `from` is not an ancestor of `to` (or is `to`).
   *
   * @example
   * ```ts
   * const history = await repo.ancestry({ branch: "main" });
   * const diff = await repo.diff({ from: { snapshot: history[1].id }, to: { branch: "main" } });
   * console.log(diff.updatedChunks["/temperature"]);
   * ```
   */
  async diff(range: { from: IcechunkVersion; to: IcechunkVersion }, options: StoreRequestOptions = {}): Promise<IcechunkDiff> {
    const [fromId, toId] = await Promise.all([this.resolve(range.from, options), this.resolve(range.to, options)]);
    const between: string[] = [];
    let reached = false;
    for await (const summary of this.#history(toId, options)) {
      if (summary.id === fromId) {
        reached = true;
        break;
      }
      between.push(summary.id);
    }
    if (!reached || between.length === 0) {
      throw new ZarrError(
        "INVALID_ARGUMENT",
        `Icechunk diff: snapshot ${fromId} is not an ancestor of snapshot ${toId}${fromId === toId ? " (they are the same snapshot)" : ""}; a diff runs from an older commit of the same history`,
      );
    }
    const { logs, missing } = await this.#changeHistory(between.reverse(), options);
    const [from, to] = await Promise.all([this.snapshot(fromId, options), this.snapshot(toId, options)]);
    return diffFromLogs(logs, from, to, missing);
  }

  /** A read-only store over a branch, tag or snapshot (default: branch `main`). */
  async store(version: IcechunkVersion = { branch: "main" }, options: IcechunkStoreOptions & StoreRequestOptions = {}): Promise<IcechunkStore> {
    const snapshot = await this.snapshot(await this.resolve(version, options), options);
    return new IcechunkStore(this.storage, snapshot, { maxMetadataBytes: this.#maxBytes, ...options });
  }
}

/** `id` checked to name a snapshot (`INVALID_ARGUMENT` if not), upper case. */
function snapshotIdOf(id: string): string {
  decodeObjectId(id, 12);
  return id.toUpperCase();
}

/** Transaction logs read at once by a diff or an inspection. */
const LOG_READS_IN_FLIGHT = 8;

/** A transaction log as {@link IcechunkRepository.transactionLog} shows it. */
export interface TransactionLogInspection extends TransactionLog {
  /**
   * Set when the log is not one file but the merge of the snapshot's own log with the logs
   * of ancestors expiration removed (spec 2.1); `undefined` for a plain log.
   */
  syntheticComposite: { mergedPrunedAncestorTxLogs: string[]; missingTxLogs: string[] } | undefined;
}

function summarize(snapshot: Snapshot): SnapshotSummary {
  return {
    id: snapshot.id,
    parentId: snapshot.parentId,
    flushedAtMicros: snapshot.flushedAtMicros,
    flushedAt: new Date(Math.floor(snapshot.flushedAtMicros / 1000)),
    message: snapshot.message,
    prunedAncestorTxLogs: [],
  };
}

/** Options of {@link openIcechunk}: which version, and the store's options. */
export type OpenIcechunkOptions = Partial<{ branch: string; tag: string; snapshot: string }> & IcechunkStoreOptions & IcechunkRepositoryOptions;

/**
 * Opens a read-only store over a branch (default `main`), tag or snapshot of the
 * Icechunk repository in `storage`. Give at most one of `branch`, `tag`, `snapshot`.
 *
 * @example
 * ```ts
 * const store = await openIcechunk(new FileSystemStore("/data/repo"), { tag: "v1" });
 * const array = await openArray(store, "temperature");
 * ```
 */
export async function openIcechunk(storage: Store, options: OpenIcechunkOptions = {}): Promise<IcechunkStore> {
  const repo = await IcechunkRepository.open(storage, options);
  return repo.store(versionOf(options), options);
}

/** The version named by `branch`, `tag` or `snapshot` (default: branch `main`); `INVALID_ARGUMENT` for more than one. */
export function versionOf(options: Partial<{ branch: string; tag: string; snapshot: string }>): IcechunkVersion {
  const given = (["branch", "tag", "snapshot"] as const).filter((k) => options[k] !== undefined);
  if (given.length > 1) throw new ZarrError("INVALID_ARGUMENT", `Give one of branch, tag and snapshot, not ${given.join(" and ")}`);
  if (options.tag !== undefined) return { tag: options.tag };
  if (options.snapshot !== undefined) return { snapshot: options.snapshot };
  return { branch: options.branch ?? "main" };
}
