/**
 * `zarr icechunk log|diff|tx REPO ...`: an Icechunk repository's history, the changes
 * between two of its snapshots, and one commit's transaction log.
 */
import type { IcechunkDiff, IcechunkLocation, IcechunkRepository, IcechunkVersion, TransactionLogInspection } from "@zarr/store-icechunk";
import type { Store } from "@zarr/spec";
import type { CliIO } from "../cli-io.js";
import { printable } from "../printable.js";
import { readLimits } from "../read-limits.js";
import { openStoreArg } from "../store-arg.js";
import { expectPositionals, parseCommandArgs, USAGE, UsageError } from "../usage.js";

/** Chunk coordinates the text output lists per array before it says "…". */
const CHUNKS_SHOWN = 20;

/** Runs `zarr icechunk`. */
export async function icechunkCommand(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseCommandArgs("icechunk", args, {
    json: { type: "boolean" },
    from: { type: "string" },
    to: { type: "string" },
  });
  if (values.help) {
    await io.write(`${USAGE.icechunk}\n`);
    return;
  }
  const sub = positionals[0];
  if (sub === undefined) throw new UsageError("missing arguments", "icechunk");
  if (sub !== "log" && sub !== "diff" && sub !== "tx") throw new UsageError(`unknown icechunk subcommand ${JSON.stringify(sub)}`, "icechunk");
  expectPositionals("icechunk", positionals, 2, sub === "tx" ? 3 : 2);
  if (sub !== "diff" && (values.from !== undefined || values.to !== undefined)) throw new UsageError("--from and --to are options of icechunk diff", "icechunk");
  const limits = readLimits("icechunk", values);
  const { IcechunkRepository, splitIcechunkLocation, versionOf } = await import("@zarr/store-icechunk");
  const arg = positionals[1];
  const location: IcechunkLocation | undefined = arg.startsWith("icechunk+") ? splitIcechunkLocation(arg) : undefined;
  const storage: Store = await openStoreArg(location?.repository ?? arg, { writable: false, headers: values.header, limits });
  const repo = await IcechunkRepository.open(storage);
  const version = versionOf(location ?? {});
  if (sub === "log") {
    await printLog(repo, version, values.json === true, io);
    return;
  }
  if (sub === "tx") {
    const snapshot = positionals[2] === undefined ? version : parseVersion(positionals[2], "VERSION");
    // A snapshot id is inspected as given (an expired ancestor's log too).
    const log = await repo.transactionLog("snapshot" in snapshot ? snapshot.snapshot : snapshot);
    await io.write(values.json ? `${prettyJson(txLogJson(log))}\n` : await txLogText(repo, log));
    return;
  }
  const to = values.to === undefined ? version : parseVersion(values.to, "--to");
  const toId = await repo.resolve(to);
  let from: IcechunkVersion;
  if (values.from !== undefined) from = parseVersion(values.from, "--from");
  else {
    // Without --from: the last commit's changes (from the parent of --to).
    const parent = repo.info?.snapshots.get(toId)?.parentId ?? (await repo.snapshot(toId)).parentId;
    if (parent === undefined) throw new UsageError(`snapshot ${toId} is the repository's first: it has no parent to diff from (give --from)`, "icechunk");
    from = { snapshot: parent };
  }
  const fromId = await repo.resolve(from);
  const diff = await repo.diff({ from: { snapshot: fromId }, to: { snapshot: toId } });
  await io.write(values.json ? `${prettyJson({ from: fromId, to: toId, ...diffJson(diff) })}\n` : diffText(diff, fromId, toId));
}

async function printLog(repo: IcechunkRepository, version: IcechunkVersion, json: boolean, io: CliIO): Promise<void> {
  const history = await repo.ancestry(version);
  if (json) {
    const rows = history.map((s) => ({ id: s.id, parent: s.parentId ?? null, time: s.flushedAt.toISOString(), message: s.message }));
    await io.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  await io.write(history.map((s) => `${s.id}  ${s.flushedAt.toISOString()}  ${printable(s.message)}\n`).join(""));
}

/**
 * A version on the command line: `branch:NAME`, `tag:NAME`, `snapshot:ID`, or bare, a
 * snapshot id when it is one (20 Crockford base 32 characters) and else a branch name.
 */
function parseVersion(text: string, what: string): IcechunkVersion {
  const colon = text.indexOf(":");
  const kind = colon < 0 ? "" : text.slice(0, colon);
  const name = text.slice(colon + 1);
  if (kind === "branch") return { branch: name };
  if (kind === "tag") return { tag: name };
  if (kind === "snapshot") return { snapshot: name };
  if (text === "") throw new UsageError(`${what} is empty: give branch:NAME, tag:NAME or snapshot:ID`, "icechunk");
  return /^[0-9A-HJKMNP-TV-Z]{20}$/i.test(text) ? { snapshot: text } : { branch: text };
}

/**
 * `JSON.stringify(value, null, 2)`, except that arrays of numbers (chunk coordinates) stay
 * on one line: a diff of a million chunks is a million lines, not four million.
 */
function prettyJson(value: unknown, indent = ""): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0 || value.every((v) => typeof v === "number")) return JSON.stringify(value);
    return `[\n${value.map((v) => inner + prettyJson(v, inner)).join(",\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return "{}";
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${prettyJson(v, inner)}`).join(",\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** The transaction log as Icechunk's `inspect_transaction_log` writes it (its JSON field names). */
function txLogJson(log: TransactionLogInspection): Record<string, unknown> {
  const out: Record<string, unknown> = {
    new_groups: log.newGroups,
    new_arrays: log.newArrays,
    deleted_groups: log.deletedGroups,
    deleted_arrays: log.deletedArrays,
    updated_groups: log.updatedGroups,
    updated_arrays: log.updatedArrays,
    updated_chunks: log.updatedChunks.map((u) => ({ node_id: u.nodeId, chunks: u.chunks })),
    moved_nodes: log.movedNodes.map((m) => ({ from: m.from, to: m.to })),
  };
  if (log.syntheticComposite !== undefined) {
    out.synthetic_composite = {
      merged_pruned_ancestor_tx_logs: log.syntheticComposite.mergedPrunedAncestorTxLogs,
      missing_tx_logs: log.syntheticComposite.missingTxLogs,
    };
  }
  return out;
}

/** The diff with Icechunk's `Diff` field names. */
function diffJson(diff: IcechunkDiff): Record<string, unknown> {
  return {
    new_groups: diff.newGroups,
    new_arrays: diff.newArrays,
    deleted_groups: diff.deletedGroups,
    deleted_arrays: diff.deletedArrays,
    updated_groups: diff.updatedGroups,
    updated_arrays: diff.updatedArrays,
    updated_chunks: diff.updatedChunks,
    moved_nodes: diff.movedNodes,
    missing_tx_logs: diff.missingTxLogs,
  };
}

function chunkList(chunks: number[][]): string {
  const shown = chunks.slice(0, CHUNKS_SHOWN).map((c) => `[${c.join(",")}]`);
  if (chunks.length > CHUNKS_SHOWN) shown.push("…");
  return `${chunks.length} chunk${chunks.length === 1 ? "" : "s"}: ${shown.join(" ")}`;
}

/** One line per change, `kind  path`, in the order groups, arrays, moves, chunks. */
function diffText(diff: IcechunkDiff, fromId: string, toId: string): string {
  const lines = [`diff ${fromId}..${toId}`];
  const rows: [string, string[]][] = [
    ["new group", diff.newGroups],
    ["new array", diff.newArrays],
    ["deleted group", diff.deletedGroups],
    ["deleted array", diff.deletedArrays],
    ["updated group", diff.updatedGroups],
    ["updated array", diff.updatedArrays],
  ];
  for (const [kind, paths] of rows) for (const p of paths) lines.push(`${kind.padEnd(14)} ${printable(p)}`);
  for (const m of diff.movedNodes) lines.push(`${"moved".padEnd(14)} ${printable(m.from)} -> ${printable(m.to)}`);
  for (const [p, chunks] of Object.entries(diff.updatedChunks)) lines.push(`${"chunks".padEnd(14)} ${printable(p)}  ${chunkList(chunks)}`);
  for (const id of diff.missingTxLogs) lines.push(`${"missing log".padEnd(14)} ${id} (an expired ancestor's transaction log is gone: its changes are not shown)`);
  if (lines.length === 1) lines.push("no changes");
  return `${lines.join("\n")}\n`;
}

/** One line per change, `kind  node id  path` (the path from the snapshot or its parent, when either has the node). */
async function txLogText(repo: IcechunkRepository, log: TransactionLogInspection): Promise<string> {
  const { encodeObjectId } = await import("@zarr/store-icechunk");
  // Paths from the snapshot and its parent; an expired snapshot's files may be gone (ids only then).
  const paths = new Map<string, string>();
  const gone = (error: unknown) => {
    if ((error as { code?: string })?.code === "NODE_NOT_FOUND") return undefined;
    throw error;
  };
  const snapshot = await repo.snapshot(log.id).catch(gone);
  const parentId = repo.info?.snapshots.get(log.id)?.parentId ?? snapshot?.parentId;
  const parent = parentId === undefined ? undefined : await repo.snapshot(parentId).catch(gone);
  for (const s of [parent, snapshot]) {
    for (const node of s?.nodes.values() ?? []) paths.set(encodeObjectId(node.nodeId), node.path);
  }
  const named = (id: string) => `${id}  ${printable(paths.get(id) ?? "(not in this snapshot or its parent)")}`;
  const lines = [`transaction log of ${log.id}`];
  const rows: [string, string[]][] = [
    ["new group", log.newGroups],
    ["new array", log.newArrays],
    ["deleted group", log.deletedGroups],
    ["deleted array", log.deletedArrays],
    ["updated group", log.updatedGroups],
    ["updated array", log.updatedArrays],
  ];
  for (const [kind, ids] of rows) for (const id of ids) lines.push(`${kind.padEnd(14)} ${named(id)}`);
  for (const m of log.movedNodes) lines.push(`${"moved".padEnd(14)} ${m.nodeId}  ${printable(m.from)} -> ${printable(m.to)}`);
  for (const u of log.updatedChunks) lines.push(`${"chunks".padEnd(14)} ${named(u.nodeId)}  ${chunkList(u.chunks)}`);
  const composite = log.syntheticComposite;
  if (composite !== undefined) {
    lines.push(
      `synthetic composite: expiration re-parented this snapshot; the log above merges ${composite.mergedPrunedAncestorTxLogs.length} expired ancestors' logs with its own`,
    );
    for (const id of composite.mergedPrunedAncestorTxLogs) lines.push(`${"merged log".padEnd(14)} ${id}`);
    for (const id of composite.missingTxLogs) lines.push(`${"missing log".padEnd(14)} ${id} (gone from storage: its changes are not shown)`);
  }
  if (lines.length === 1) lines.push("no changes");
  return `${lines.join("\n")}\n`;
}
