/** @zarr/all reads Zarr v2 and the early v3 draft through `open` without any setup. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import { formatEntries } from "../src/entries.js";
import { FileSystemStore, get, open, openArray, openStore, registry, toCanonicalJson } from "../src/index.js";

describe("formats in @zarr/all", () => {
  it("registers Zarr v2 and the early v3 draft (lazily)", async () => {
    expect(formatEntries.map((e) => e.name)).toEqual(["zarr-v2", "zarr-v3-draft"]);
    expect((await registry.formats()).map((f) => f.name)).toEqual(["zarr-v2", "zarr-v3-draft"]);
  });

  it("opens v2 stores, directories and zip archives, as transparently as v3", async () => {
    const dir = join(fixturesDir(), "zarr-python", "v2");
    const root = await open(new FileSystemStore(join(dir, "data.zarr"), { readOnly: true }));
    expect(root.kind).toBe("group");
    expect(root.zarrFormat).toBe(2);
    const zip = await openStore(join(dir, "data.zipped_from_parent.zarr.zip"));
    const arr = await openArray(zip, "2d.chunked.U7");
    expect(arr.zarrFormat).toBe(2);
    expect(toCanonicalJson(await get(arr)).values).toEqual(["a", "b", "cc", "d"]);
  });
});
