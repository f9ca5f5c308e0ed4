/**
 * Icechunk repositories through the command line: `icechunk+<store URL>` with
 * `?branch=`/`?tag=`/`?snapshot=` in info, tree, get and cp, and `zarr icechunk log`,
 * checked against what Icechunk's test_can_read_old.py expects of its fixtures.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import { parseGetJson, removeTempDirs, tempDir, zarr, zarrOk } from "./helpers.js";

afterAll(removeTempDirs);

const REPOS = path.join(fixturesDir(), "icechunk");
const url = (repo: string, query = "") => `icechunk+${pathToFileURL(path.join(REPOS, repo)).href}${query}`;
const MAIN_HISTORY = ["set virtual chunk", "fill data", "empty structure", "Repository initialized"];
const BRANCH_HISTORY = ["some more structure", "delete a chunk", ...MAIN_HISTORY];

async function values(location: string, array: string): Promise<unknown[]> {
  return parseGetJson((await zarrOk(["get", location, array])).stdout.toString()).values;
}

for (const repo of ["test-repo-v1", "test-repo-v2"]) {
  describe(repo, () => {
    it("zarr icechunk log prints each branch's and tag's history", async () => {
      const log = async (query: string) => {
        const lines = (await zarrOk(["icechunk", "log", url(repo, query)])).stdout.toString().trimEnd().split("\n");
        for (const line of lines) expect(line).toMatch(/^[0-9A-Z]{20} {2}\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z {2}/);
        return lines.map((l) => l.slice(48));
      };
      expect(await log("")).toEqual(MAIN_HISTORY);
      expect(await log("?branch=my-branch")).toEqual(BRANCH_HISTORY);
      expect(await log("?tag=it%20also%20works!")).toEqual(BRANCH_HISTORY);
      expect(await log("?tag=it works!")).toEqual(BRANCH_HISTORY.slice(1));
      const json = JSON.parse((await zarrOk(["icechunk", "log", path.join(REPOS, repo), "--json"])).stdout.toString());
      expect(json.map((c: { message: string }) => c.message)).toEqual(MAIN_HISTORY);
      expect(json[0].parent).toBe(json[1].id);
      const snapshot = json[1].id;
      expect(await log(`?snapshot=${snapshot}`)).toEqual(MAIN_HISTORY.slice(1));
      const deleted = await zarr(["icechunk", "log", url(repo, "?tag=deleted")]);
      expect(deleted.code).toBe(1);
      expect(deleted.stderr).toContain("[NODE_NOT_FOUND]");
      expect(deleted.stderr).toContain("ref not found");
    });

    it("tree, info and get read every branch and tag", async () => {
      const tree = (await zarrOk(["tree", url(repo, "?branch=my-branch")])).stdout.toString();
      expect(tree).toContain("inner [10, 10] float32");
      expect(tree).toContain("small_chunks [5] int8");
      expect((await zarrOk(["tree", url(repo)])).stdout.toString()).not.toContain("group2");
      const info = JSON.parse((await zarrOk(["info", url(repo, "?tag=it%20works!"), "group1", "--json"])).stdout.toString());
      expect(info.attributes).toEqual({ this: "is a nice group", icechunk: 1, size: 42 });
      expect(await values(url(repo), "group1/small_chunks")).toEqual(["84", "84", "84", "84", "84"]);
      for (const query of ["?branch=my-branch", "?tag=it%20works!", "?tag=it%20also%20works!"]) {
        expect(await values(url(repo, query), "group1/small_chunks")).toEqual(["84", "84", "84", "84", "8"]);
      }
      const inner = await values(url(repo, "?branch=my-branch"), "group2/group3/group4/group5/inner");
      expect(inner).toEqual(new Array(100).fill("NaN"));
      // The native chunks of big_chunks read; its virtual chunk (c/0/0) needs its container.
      expect(await values(url(repo), "group1/big_chunks").catch(() => "failed")).toBe("failed");
      const region = parseGetJson((await zarrOk(["get", url(repo), "group1/big_chunks", "--select", "5:10, 0:10"])).stdout.toString());
      expect(region.values).toEqual(new Array(50).fill(42));
      const virtual = await zarr(["get", url(repo), "group1/big_chunks", "--select", "0:5, 0:5"]);
      expect(virtual.code).toBe(1);
      expect(virtual.stderr).toContain("[UNSUPPORTED]");
      expect(virtual.stderr).toContain('"s3://testbucket/"');
    });
  });
}

describe("split-repo-v2", () => {
  it("cp copies a snapshot to a plain Zarr store that reads the same", async () => {
    const out = path.join(tempDir(), "copy.zarr");
    const log = JSON.parse((await zarrOk(["icechunk", "log", url("split-repo-v2"), "--json"])).stdout.toString());
    const writeData = log.find((c: { message: string }) => c.message === "write data").id;
    await zarrOk(["cp", url("split-repo-v2", `?snapshot=${writeData}`), out]);
    expect(await values(out, "group1/split")).toEqual(new Array(100).fill(120));
    expect(await values(out, "group1/small_chunks")).toEqual(["0", "0", "0", "0", "0"]);
    expect(await values(url("split-repo-v2"), "group1/split")).toEqual(new Array(100).fill(14));
  });
});

/** What test_can_read_old.py asserts of `repo.diff(to_branch="main", from_snapshot_id=parents[-2].id)`. */
const PYTHON_DIFF = {
  new_groups: [],
  new_arrays: [],
  deleted_groups: [],
  deleted_arrays: [],
  updated_groups: [],
  updated_arrays: [],
  updated_chunks: { "/group1/big_chunks": [[0, 0], [0, 1], [1, 0], [1, 1]], "/group1/small_chunks": [[0], [1], [2], [3], [4]] },
  moved_nodes: [],
  missing_tx_logs: [],
};

for (const repo of ["test-repo-v1", "test-repo-v2"]) {
  describe(`${repo}: zarr icechunk diff and tx`, () => {
    it("diff --json prints the diff test_can_read_old.py asserts; the text form lists it by path", async () => {
      const log = JSON.parse((await zarrOk(["icechunk", "log", url(repo), "--json"])).stdout.toString());
      const from = log.at(-2).id;
      const json = JSON.parse((await zarrOk(["icechunk", "diff", url(repo), "--from", `snapshot:${from}`, "--to", "branch:main", "--json"])).stdout.toString());
      expect(json).toEqual({ from, to: log[0].id, ...PYTHON_DIFF });
      // A bare id and the default --to (REPO's version, main) say the same.
      const bare = JSON.parse((await zarrOk(["icechunk", "diff", path.join(REPOS, repo), "--from", from, "--json"])).stdout.toString());
      expect(bare).toEqual(json);
      const text = (await zarrOk(["icechunk", "diff", url(repo, "?branch=my-branch"), "--from", "main"])).stdout.toString();
      expect(text.split("\n").slice(1, -1)).toEqual([
        "new group      /group2",
        "new group      /group2/group3",
        "new group      /group2/group3/group4",
        "new group      /group2/group3/group4/group5",
        "new array      /group2/group3/group4/group5/inner",
        "chunks         /group1/small_chunks  1 chunk: [4]",
      ]);
      // Without --from: the last commit of --to ("delete a chunk" for the tag).
      const last = (await zarrOk(["icechunk", "diff", url(repo), "--to", "tag:it works!"])).stdout.toString();
      expect(last.split("\n").slice(1, -1)).toEqual(["chunks         /group1/small_chunks  1 chunk: [4]"]);
    });

    it("tx prints one commit's transaction log by node id and path", async () => {
      const text = (await zarrOk(["icechunk", "tx", url(repo)])).stdout.toString();
      expect(text).toMatch(/^transaction log of [0-9A-Z]{20}\nchunks {9}[0-9A-Z]{13} {2}\/group1\/big_chunks {2}1 chunk: \[0,0\]\n$/);
      const json = JSON.parse((await zarrOk(["icechunk", "tx", url(repo), "tag:it works!", "--json"])).stdout.toString());
      expect(json.updated_chunks).toEqual([{ node_id: expect.stringMatching(/^[0-9A-Z]{13}$/), chunks: [[4]] }]);
      expect(json.synthetic_composite).toBeUndefined();
    });

    it("refuses a diff from a snapshot that is not an ancestor, and --from without diff", async () => {
      const bad = await zarr(["icechunk", "diff", url(repo), "--from", "my-branch"]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain("[INVALID_ARGUMENT]");
      expect(bad.stderr).toContain("is not an ancestor of");
      const usage = await zarr(["icechunk", "log", url(repo), "--from", "main"]);
      expect(usage.code).toBe(2);
      const missing = await zarr(["icechunk", "tx", url(repo), "tag:deleted"]);
      expect(missing.stderr).toContain("[NODE_NOT_FOUND]");
    });
  });
}

describe("an expired spec 2.1 repository", () => {
  it("tx shows the synthetic composite, diff folds the pruned logs in and names a missing one", async () => {
    const { FileSystemStore } = await import("@zarr/store-fs");
    const { IcechunkWriter, idName } = await import("../../../bench/lib/icechunk-writer.mjs");
    const dir = path.join(tempDir(), "expired");
    const writer = new IcechunkWriter(new FileSystemStore(dir), { specVersion: 2 });
    const group = { zarr_format: 3, node_type: "group", attributes: {} };
    const id = (n: number) => new Uint8Array(8).fill(n);
    await writer.init();
    await writer.commit("make a", [{ path: "/", nodeId: id(1), metadata: group }, { path: "/a", nodeId: id(2), metadata: group }], { txLog: { newGroups: [id(1), id(2)] } });
    await writer.commit("make b", [{ path: "/", nodeId: id(1), metadata: group }, { path: "/a", nodeId: id(2), metadata: group }, { path: "/b", nodeId: id(3), metadata: group }], {
      txLog: { newGroups: [id(3)] },
    });
    await writer.commit("touch a", [{ path: "/", nodeId: id(1), metadata: group }, { path: "/a", nodeId: id(2), metadata: group }, { path: "/b", nodeId: id(3), metadata: group }], {
      txLog: { updatedGroups: [id(2)] },
    });
    await writer.expire([1, 2], { reparent: { 3: 0 }, trackTxLogs: true });
    await writer.finish({ branches: { main: 3 } });
    const pruned = [1, 2].map((i) => idName(writer.snapshots[i].id));
    const repo = `icechunk+${pathToFileURL(dir).href}`;
    const tx = JSON.parse((await zarrOk(["icechunk", "tx", repo, "--json"])).stdout.toString());
    expect(tx.synthetic_composite).toEqual({ merged_pruned_ancestor_tx_logs: pruned, missing_tx_logs: [] });
    expect(tx.new_groups).toEqual([idName(id(1)), idName(id(2)), idName(id(3))]);
    const diff = (await zarrOk(["icechunk", "diff", repo])).stdout.toString();
    expect(diff.split("\n").slice(1, -1)).toEqual(["new group      /", "new group      /a", "new group      /b", "updated group  /a"]);
    // An expired commit's log, by the id the composite names: its snapshot file is gone, so ids only.
    const ancestor = (await zarrOk(["icechunk", "tx", repo, pruned[1]])).stdout.toString();
    expect(ancestor).toBe(`transaction log of ${pruned[1]}\nnew group      ${idName(id(3))}  (not in this snapshot or its parent)\n`);
    const { rm } = await import("node:fs/promises");
    await rm(path.join(dir, "transactions", pruned[0]));
    const degraded = (await zarrOk(["icechunk", "diff", repo])).stdout.toString();
    expect(degraded).toContain(`missing log    ${pruned[0]}`);
    expect(degraded).not.toContain("new group      /a");
    expect((await zarrOk(["icechunk", "tx", repo])).stdout.toString()).toContain(`missing log    ${pruned[0]}`);
  });
});
