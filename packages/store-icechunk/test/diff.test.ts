/**
 * Transaction logs and diffs of Icechunk's compatibility repositories: the diff
 * test_can_read_old.py asserts (main, from the "empty structure" commit), each commit's
 * own log, and the coded errors of a diff that does not run along one history.
 */
import { ZarrError } from "@zarr/core";
import { describe, expect, it } from "vitest";
import { IcechunkRepository } from "../src/index.js";
import { fixture } from "./helpers.js";

const EMPTY_DIFF = {
  newGroups: [],
  newArrays: [],
  deletedGroups: [],
  deletedArrays: [],
  updatedGroups: [],
  updatedArrays: [],
  updatedChunks: {},
  movedNodes: [],
  missingTxLogs: [],
};

for (const name of ["test-repo-v1", "test-repo-v2"]) {
  describe(name, () => {
    it("diffs main from the commit before 'fill data' exactly as test_can_read_old.py asserts", async () => {
      const repo = await IcechunkRepository.open(fixture(name));
      const parents = await repo.ancestry({ branch: "main" });
      const diff = await repo.diff({ from: { snapshot: parents.at(-2)?.id ?? "" }, to: { branch: "main" } });
      expect(diff).toEqual({
        ...EMPTY_DIFF,
        updatedChunks: {
          "/group1/big_chunks": [[0, 0], [0, 1], [1, 0], [1, 1]],
          "/group1/small_chunks": [[0], [1], [2], [3], [4]],
        },
      });
    });

    it("diffs the structure commit and a branch's tip by path", async () => {
      const repo = await IcechunkRepository.open(fixture(name));
      const main = await repo.ancestry({ branch: "main" });
      const initial = main.at(-1)?.id ?? "";
      // From the first (empty) snapshot to "empty structure": the groups and arrays it created.
      const structure = await repo.diff({ from: { snapshot: initial }, to: { snapshot: main.at(-2)?.id ?? "" } });
      expect(structure).toEqual({ ...EMPTY_DIFF, newGroups: ["/", "/group1"], newArrays: ["/group1/big_chunks", "/group1/small_chunks"] });
      // my-branch after main's tip: "delete a chunk" (small_chunks [4]) and "some more structure".
      const branch = await repo.diff({ from: { branch: "main" }, to: { branch: "my-branch" } });
      expect(branch).toEqual({
        ...EMPTY_DIFF,
        newGroups: ["/group2", "/group2/group3", "/group2/group3/group4", "/group2/group3/group4/group5"],
        newArrays: ["/group2/group3/group4/group5/inner"],
        updatedChunks: { "/group1/small_chunks": [[4]] },
      });
      const tagged = await repo.diff({ from: { snapshot: initial }, to: { tag: "it works!" } });
      expect(tagged.updatedChunks["/group1/small_chunks"]).toEqual([[0], [1], [2], [3], [4]]);
      expect(tagged.newGroups).toEqual(["/", "/group1"]);
    });

    it("shows each commit's own transaction log by node id", async () => {
      const repo = await IcechunkRepository.open(fixture(name));
      const head = await repo.transactionLog(await repo.resolve({ branch: "main" }));
      const snapshot = await repo.snapshot(head.id);
      const { encodeObjectId } = await import("../src/index.js");
      const big = encodeObjectId(snapshot.nodes.get("group1/big_chunks")?.nodeId ?? new Uint8Array(8));
      expect(head).toEqual({
        id: await repo.resolve({ branch: "main" }),
        newGroups: [],
        newArrays: [],
        deletedGroups: [],
        deletedArrays: [],
        updatedGroups: [],
        updatedArrays: [],
        updatedChunks: [{ nodeId: big, chunks: [[0, 0]] }],
        movedNodes: [],
        syntheticComposite: undefined,
      });
      expect((await repo.transactionLog({ tag: "it works!" })).updatedChunks.map((u) => u.chunks)).toEqual([[[4]]]);
    });

    it("refuses a diff that does not run from an ancestor, with INVALID_ARGUMENT", async () => {
      const repo = await IcechunkRepository.open(fixture(name));
      for (const range of [
        { from: { branch: "my-branch" }, to: { branch: "main" } },
        { from: { branch: "main" }, to: { branch: "main" } },
        { from: { tag: "it also works!" }, to: { tag: "it works!" } },
      ]) {
        const error = await repo.diff(range).catch((e) => e);
        expect(error).toBeInstanceOf(ZarrError);
        expect(error.code).toBe("INVALID_ARGUMENT");
        expect(error.message).toContain("is not an ancestor of");
      }
      await expect(repo.diff({ from: { tag: "deleted" }, to: { branch: "main" } })).rejects.toMatchObject({ code: "NODE_NOT_FOUND" });
    });
  });
}

describe("split-repo-v2", () => {
  it("diffs the whole history: every chunk of the split array, once", async () => {
    const repo = await IcechunkRepository.open(fixture("split-repo-v2"));
    const history = await repo.ancestry({ branch: "main" });
    const diff = await repo.diff({ from: { snapshot: history.at(-1)?.id ?? "" }, to: { branch: "main" } });
    expect(diff.newArrays).toEqual(["/group1/small_chunks", "/group1/split"]);
    expect(diff.updatedChunks["/group1/split"]).toHaveLength(16);
    expect(diff.updatedChunks["/group1/small_chunks"]).toEqual([[0], [1], [2], [3], [4]]);
  });
});

it("names a spec 1 repository's missing first transaction log with NODE_NOT_FOUND", async () => {
  const repo = await IcechunkRepository.open(fixture("test-repo-v1"));
  const initial = (await repo.ancestry({ branch: "main" })).at(-1)?.id ?? "";
  const error = await repo.transactionLog(initial).catch((e) => e);
  expect(error).toBeInstanceOf(ZarrError);
  expect(error.code).toBe("NODE_NOT_FOUND");
  expect(error.message).toContain(`transactions/${initial}`);
});

describe("transaction logs the test-only writer builds (official flatbuffers Builder)", () => {
  const group = { zarr_format: 3, node_type: "group", attributes: {} };
  const id8 = (n: number) => new Uint8Array(8).fill(n);

  it("parses every list, chunk coordinates and moves (spec 2) and none of spec 1's absent moves", async () => {
    const { encodeFile, FILE_TYPE, transactionLogPayload } = await import("../../../bench/lib/icechunk-writer.mjs");
    const { parseTransactionLog } = await import("../src/transaction-log.js");
    const { encodeObjectId } = await import("../src/index.js");
    const log = {
      newGroups: [id8(1), id8(0)], newArrays: [id8(2)], deletedGroups: [id8(3)], deletedArrays: [id8(4)], updatedGroups: [id8(5)], updatedArrays: [id8(6)],
      updatedChunks: [{ nodeId: id8(2), chunks: [[1, 2, 3], [0, 4294967295, 9]] }],
      movedNodes: [{ from: "/a", to: "/b", nodeId: id8(8), array: true }],
    };
    const n = (k: number) => encodeObjectId(id8(k));
    for (const specVersion of [1, 2]) {
      const bytes = encodeFile(transactionLogPayload(new Uint8Array(12).fill(7), log, { specVersion }), FILE_TYPE.transactionLog, { specVersion });
      expect(parseTransactionLog(bytes, "transactions/X", 1 << 20)).toEqual({
        id: encodeObjectId(new Uint8Array(12).fill(7)),
        newGroups: [n(0), n(1)], newArrays: [n(2)], deletedGroups: [n(3)], deletedArrays: [n(4)], updatedGroups: [n(5)], updatedArrays: [n(6)],
        updatedChunks: [{ nodeId: n(2), chunks: [[0, 4294967295, 9], [1, 2, 3]] }],
        movedNodes: specVersion === 2 ? [{ from: "/a", to: "/b", nodeId: n(8), kind: "array" }] : [],
      });
    }
  });

  it("names deleted nodes by their path in `from`, moved ones in `to`, and lists moves", async () => {
    const { MemoryStore } = await import("@zarr/core");
    const { IcechunkWriter } = await import("../../../bench/lib/icechunk-writer.mjs");
    const storage = new MemoryStore();
    const writer = new IcechunkWriter(storage, { specVersion: 2 });
    await writer.init();
    const root = { path: "/", nodeId: id8(1), metadata: group };
    await writer.commit("make", [root, { path: "/old", nodeId: id8(2), metadata: group }, { path: "/gone", nodeId: id8(3), metadata: group }], {
      txLog: { newGroups: [id8(1), id8(2), id8(3)] },
    });
    await writer.commit("move and delete", [root, { path: "/new", nodeId: id8(2), metadata: group }], {
      txLog: { deletedGroups: [id8(3)], updatedGroups: [id8(1)], movedNodes: [{ from: "/old", to: "/new", nodeId: id8(2) }] },
    });
    await writer.commit("ghost", [root, { path: "/new", nodeId: id8(2), metadata: group }], { txLog: { newGroups: [id8(9)], deletedGroups: [id8(9)] } });
    await writer.finish({ branches: { main: 3 } });
    const repo = await IcechunkRepository.open(storage);
    const history = await repo.ancestry();
    const diff = await repo.diff({ from: { snapshot: history[2].id }, to: { branch: "main" } });
    // The node created and deleted in between (id 9) is in neither snapshot: left out, as Icechunk does.
    expect(diff).toEqual({ ...EMPTY_DIFF, deletedGroups: ["/gone"], updatedGroups: ["/"], movedNodes: [{ from: "/old", to: "/new" }] });
    const whole = await repo.diff({ from: { snapshot: history[3].id }, to: { branch: "main" } });
    // From the empty first snapshot: "/gone" is in neither end, so it is listed nowhere; the moved group by its new path.
    expect(whole.newGroups).toEqual(["/", "/new"]);
    expect(whole.deletedGroups).toEqual([]);
  });
});

it("reads each transaction log once, and the two snapshots a diff names paths from", async () => {
  const { CountingStore } = await import("@zarr/store-utils");
  const counting = new CountingStore(fixture("test-repo-v2"));
  const repo = await IcechunkRepository.open(counting);
  const history = await repo.ancestry({ branch: "main" });
  await repo.diff({ from: { snapshot: history[2].id }, to: { branch: "main" } });
  expect(counting.requests.map((r) => r.key).sort()).toEqual(
    ["repo", `transactions/${history[0].id}`, `transactions/${history[1].id}`, `snapshots/${history[0].id}`, `snapshots/${history[2].id}`].sort(),
  );
});
