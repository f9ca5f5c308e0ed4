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
