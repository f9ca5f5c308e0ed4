/**
 * Repositories after expiration, as test_can_read_old.py's do_read_expired_repo reads
 * them: re-parented histories, the data of the surviving tip, and the transaction logs of
 * expired ancestors. Icechunk 2.1 lists those logs in the repo info (spec 2.1
 * `pruned_ancestor_tx_logs`) and keeps them through garbage collection, so the tip's log
 * inspects as a synthetic composite and a root-to-tip diff is complete; older versions
 * lost them (the diff sees only the tip's own commit), and a log an older garbage
 * collection deleted is reported missing, never a crash. The repositories are written by
 * the test-only writer (bench/lib/icechunk-writer.mjs), which emulates the expiration.
 */
import { get, MemoryStore, openArray, type ZarrArray } from "@zarr/core";
import { describe, expect, it } from "vitest";
import { IcechunkWriter, idName } from "../../../bench/lib/icechunk-writer.mjs";
import { IcechunkRepository, openIcechunk } from "../src/index.js";
import { registry } from "./helpers.js";

const ROWS = 12;
const SMALL = 4;
const group = { zarr_format: 3, node_type: "group", attributes: {} };
const arrayMeta = (shape: number[]) => ({
  zarr_format: 3,
  node_type: "array",
  shape,
  data_type: "int32",
  chunk_grid: { name: "regular", configuration: { chunk_shape: shape.map(() => 1) } },
  chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
  fill_value: 0,
  codecs: [{ name: "bytes", configuration: { endian: "little" } }],
  attributes: {},
});
const int32 = (v: number) => new Uint8Array(Int32Array.of(v).buffer);
const nodeId = (n: number) => Uint8Array.of(0, 0, 0, 0, 0, 0, 0, n);
const ROOT = nodeId(1);
const GROUP1 = nodeId(2);
const DATA = nodeId(3);
const SMALL_ID = nodeId(4);

interface Built {
  storage: MemoryStore;
  writer: IcechunkWriter;
  /** Snapshot index by commit message. */
  at: Record<string, number>;
}

/**
 * The DAG of the Python fixtures, on main: "create" makes /group1/data (12 × 1 chunks of
 * zeros) and /group1/small (4 chunks); "write a" … "write i" set rows 1 … 9 to their index;
 * "write j" sets row 0 to 99. Tag protect-b keeps "write b". Expiration then drops every
 * commit between the first and the tips, re-pointing "write b" and "write j" at it.
 */
async function expiredRepository(trackTxLogs: boolean): Promise<Built> {
  const storage = new MemoryStore();
  const writer = new IcechunkWriter(storage, { specVersion: 2 });
  const at: Record<string, number> = {};
  at["Repository initialized"] = await writer.init();
  const rows = new Array(ROWS).fill(0);
  const nodes = () => [
    { path: "/", nodeId: ROOT, metadata: group },
    { path: "/group1", nodeId: GROUP1, metadata: group },
    { path: "/group1/data", nodeId: DATA, metadata: arrayMeta([ROWS, 1]), chunks: rows.map((v, i) => ({ index: [i, 0], inline: int32(v) })) },
    { path: "/group1/small", nodeId: SMALL_ID, metadata: arrayMeta([SMALL]), chunks: Array.from({ length: SMALL }, (_, i) => ({ index: [i], inline: int32(0) })) },
  ];
  at.create = await writer.commit("create", nodes(), {
    txLog: {
      newGroups: [ROOT, GROUP1],
      newArrays: [DATA, SMALL_ID],
      updatedChunks: [
        { nodeId: DATA, chunks: rows.map((_, i) => [i, 0]) },
        { nodeId: SMALL_ID, chunks: Array.from({ length: SMALL }, (_, i) => [i]) },
      ],
    },
  });
  for (const [k, letter] of [..."abcdefghi"].entries()) {
    rows[k + 1] = k + 1;
    at[`write ${letter}`] = await writer.commit(`write ${letter}`, nodes(), { txLog: { updatedChunks: [{ nodeId: DATA, chunks: [[k + 1, 0]] }] } });
  }
  rows[0] = 99;
  at["write j"] = await writer.commit("write j", nodes(), { txLog: { updatedChunks: [{ nodeId: DATA, chunks: [[0, 0]] }] } });
  const expired = Object.entries(at)
    .filter(([message]) => !["Repository initialized", "write b", "write j"].includes(message))
    .map(([, i]) => i);
  const root = at["Repository initialized"];
  await writer.expire(expired, { reparent: { [at["write b"]]: root, [at["write j"]]: root }, trackTxLogs });
  await writer.finish({ branches: { main: at["write j"] }, tags: { "protect-b": at["write b"] } });
  return { storage, writer, at };
}

const idOf = (built: Built, message: string) => idName(built.writer.snapshots[built.at[message]].id);
/** The ids of the logs "write j" lost, oldest first. */
const LOST = ["create", ..."abcdefghi"].map((l) => (l === "create" ? l : `write ${l}`));

async function commonChecks(built: Built): Promise<IcechunkRepository> {
  const repo = await IcechunkRepository.open(built.storage);
  expect((await repo.ancestry({ branch: "main" })).map((s) => s.message)).toEqual(["write j", "Repository initialized"]);
  expect((await repo.ancestry({ tag: "protect-b" })).map((s) => s.message)).toEqual(["write b", "Repository initialized"]);
  const store = await openIcechunk(built.storage);
  const data = Array.from((await get((await openArray(store, "group1/data", { registry })) as ZarrArray, null)).data as Int32Array);
  expect([data[0], data[5], data[8], data[11]]).toEqual([99, 5, 8, 0]);
  const small = await get((await openArray(store, "group1/small", { registry })) as ZarrArray, null);
  expect(Array.from(small.data as Int32Array)).toEqual([0, 0, 0, 0]);
  return repo;
}

describe("a repository expired by Icechunk 2.1 (pruned ancestor logs kept)", () => {
  it("reads the re-parented history and the tip's data", async () => {
    await commonChecks(await expiredRepository(true));
  });

  it("inspects the tip's log as a synthetic composite of the pruned logs and its own", async () => {
    const built = await expiredRepository(true);
    const repo = await commonChecks(built);
    const tip = await repo.resolve({ branch: "main" });
    expect(repo.info?.snapshots.get(tip)?.prunedAncestorTxLogs).toEqual(LOST.map((m) => idOf(built, m)));
    const log = await repo.transactionLog(tip);
    expect(log.syntheticComposite).toEqual({ mergedPrunedAncestorTxLogs: LOST.map((m) => idOf(built, m)), missingTxLogs: [] });
    expect(log.id).toBe(tip);
    expect(log.newArrays).toEqual([idName(DATA), idName(SMALL_ID)]);
    expect(log.updatedChunks.find((u) => u.nodeId === idName(DATA))?.chunks).toEqual(Array.from({ length: ROWS }, (_, i) => [i, 0]));
    // "write b" was re-pointed too and carries "create" and "write a".
    const b = await repo.transactionLog({ tag: "protect-b" });
    expect(b.syntheticComposite?.mergedPrunedAncestorTxLogs).toEqual([idOf(built, "create"), idOf(built, "write a")]);
    // The first commit was never re-parented: a plain log.
    expect((await repo.transactionLog({ snapshot: "1CECHNKREP0F1RSTCMT0" })).syntheticComposite).toBeUndefined();
    // An expired ancestor's log, by the id the composite names, reads on its own (the history no longer lists it).
    const create = await repo.transactionLog(idOf(built, "create"));
    expect(create.newGroups).toEqual([idName(ROOT), idName(GROUP1)]);
    expect(create.syntheticComposite).toBeUndefined();
    await expect(repo.store({ snapshot: idOf(built, "create") })).rejects.toMatchObject({ code: "NODE_NOT_FOUND" });
  });

  it("diffs root to tip completely, folding the pruned logs in", async () => {
    const built = await expiredRepository(true);
    const repo = await IcechunkRepository.open(built.storage);
    const root = (await repo.ancestry({ branch: "main" })).at(-1)?.id ?? "";
    const diff = await repo.diff({ from: { snapshot: root }, to: { branch: "main" } });
    expect(diff.newGroups).toEqual(["/", "/group1"]);
    expect(diff.newArrays).toEqual(["/group1/data", "/group1/small"]);
    expect(Object.keys(diff.updatedChunks)).toEqual(["/group1/data", "/group1/small"]);
    expect(diff.updatedChunks["/group1/data"]).toHaveLength(ROWS);
    expect(diff.updatedChunks["/group1/small"]).toHaveLength(SMALL);
    expect(diff.missingTxLogs).toEqual([]);
  });

  it("degrades without a crash when garbage collection deleted some pruned logs", async () => {
    const built = await expiredRepository(true);
    const gone = [idOf(built, "create"), idOf(built, "write c")];
    for (const id of gone) await built.storage.delete(`transactions/${id}`);
    const repo = await commonChecks(built);
    const log = await repo.transactionLog({ branch: "main" });
    expect(log.syntheticComposite?.missingTxLogs).toEqual(gone);
    expect(log.syntheticComposite?.mergedPrunedAncestorTxLogs).toEqual(LOST.map((m) => idOf(built, m)).filter((id) => !gone.includes(id)));
    const diff = await repo.diff({ from: { snapshot: "1CECHNKREP0F1RSTCMT0" }, to: { branch: "main" } });
    expect(diff.missingTxLogs).toEqual(gone);
    expect(diff.newArrays).toEqual([]); // the creation's log is gone
    expect(diff.updatedChunks).toEqual({ "/group1/data": [[0, 0], [1, 0], [2, 0], [4, 0], [5, 0], [6, 0], [7, 0], [8, 0], [9, 0]] });
  });
});

describe("a repository expired by Icechunk 2.0 (pruned logs lost)", () => {
  it("shows the tip's own log and diffs only the tip's commit", async () => {
    const built = await expiredRepository(false);
    const repo = await commonChecks(built);
    const log = await repo.transactionLog({ branch: "main" });
    expect(log.syntheticComposite).toBeUndefined();
    expect(log.updatedChunks).toEqual([{ nodeId: idName(DATA), chunks: [[0, 0]] }]);
    const diff = await repo.diff({ from: { snapshot: "1CECHNKREP0F1RSTCMT0" }, to: { branch: "main" } });
    expect(diff.newArrays).toEqual([]);
    expect(diff.updatedChunks).toEqual({ "/group1/data": [[0, 0]] });
    // No transaction logs beyond the live snapshots' (three: initial, write b, write j).
    const logs: string[] = [];
    for await (const key of built.storage.list()) if (key.startsWith("transactions/")) logs.push(key);
    expect(logs).toHaveLength(3);
  });
});

describe("a spec 1 repository expired by Icechunk 1.x (the tip's snapshot file re-pointed)", () => {
  it("reads the re-parented history, the tip's own log, and diffs only the tip's commit", async () => {
    const storage = new MemoryStore();
    const writer = new IcechunkWriter(storage, { specVersion: 1 });
    await writer.init();
    const nodes = (value: number) => [
      { path: "/", nodeId: ROOT, metadata: group },
      { path: "/x", nodeId: DATA, metadata: arrayMeta([2]), chunks: [{ index: [0], inline: int32(value) }] },
    ];
    const created = await writer.commit("create", nodes(1), { txLog: { newGroups: [ROOT], newArrays: [DATA], updatedChunks: [{ nodeId: DATA, chunks: [[0]] }] } });
    const id = writer.snapshots[created].id;
    // Expiration rewrote the tip with the first snapshot as its parent and deleted "create".
    const tip = await writer.commit("write", nodes(7), { parent: 0, txLog: { updatedChunks: [{ nodeId: DATA, chunks: [[0]] }] } });
    await storage.delete(`snapshots/${idName(id)}`);
    await storage.delete(`transactions/${idName(id)}`);
    await writer.finish({ branches: { main: tip } });
    const repo = await IcechunkRepository.open(storage);
    expect(repo.specVersion).toBe(1);
    const history = await repo.ancestry();
    expect(history.map((s) => s.message)).toEqual(["write", "Repository initialized"]);
    const log = await repo.transactionLog({ branch: "main" });
    expect(log.syntheticComposite).toBeUndefined();
    const diff = await repo.diff({ from: { snapshot: history[1].id }, to: { branch: "main" } });
    expect(diff.newArrays).toEqual([]);
    expect(diff.updatedChunks).toEqual({ "/x": [[0]] });
    const store = await openIcechunk(storage);
    expect(Array.from((await get((await openArray(store, "x", { registry })) as ZarrArray, null)).data as Int32Array)).toEqual([7, 0]);
  });
});
