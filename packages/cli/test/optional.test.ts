/** `zarr info` and `zarr get` on zarrs' `optional` arrays: the command's registry holds the type and codec. */
import path from "node:path";
import { createArray, createRegistry, set } from "@zarr/core";
import { optionalEntries } from "@zarr/core/extensions";
import { FileSystemStore } from "@zarr/store-fs";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempDirs, runInProcess, tempDir } from "./helpers.js";

afterAll(removeTempDirs);

describe("optional arrays in the zarr command", () => {
  it("prints nulls for missing elements", async () => {
    const dir = path.join(tempDir(), "o.zarr");
    const registry = createRegistry([...optionalEntries]);
    const arr = await createArray(new FileSystemStore(dir), "a", { shape: [3], chunkShape: [3], dataType: { name: "optional", configuration: { name: "float32" } }, registry });
    await set(arr, null, [1.5, null, 3]);
    const got = await runInProcess("get", dir, "a", "--format", "json");
    expect(got.err).toBe("");
    expect(JSON.parse(got.out)).toEqual({ shape: [3], data_type: { name: "optional", configuration: { name: "float32" } }, values: [1.5, null, 3] });
    // Elements in the inner type's canonical form (64-bit integers as strings), missing ones as null.
    const big = await createArray(new FileSystemStore(dir), "b", { shape: [2], chunkShape: [2], dataType: { name: "optional", configuration: { name: "int64" } }, registry });
    await set(big, null, [5n, null]);
    expect(JSON.parse((await runInProcess("get", dir, "b", "--format", "json")).out).values).toEqual(["5", null]);
    const info = await runInProcess("info", dir, "a", "--json");
    expect(JSON.parse(info.out)).toMatchObject({ data_type: { name: "optional", configuration: { name: "float32" } }, fill_value: null, readable: true });
  });
});
