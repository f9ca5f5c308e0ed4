/**
 * @zarr/all's wrappers keep @zarr/core's typed results: `openArray` with `dataType` and
 * `createArray` with a literal data type narrow the array, and `get` returns the matching
 * typed array. The `expectTypeOf` lines are checked by `pnpm typecheck` (tsc), the values
 * by this test.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { createArray, type DataArray, get, MemoryStore, openArray, set, type ZarrArray } from "../src/index.js";

describe("typed results through @zarr/all", () => {
  it("openArray({ dataType }) and a literal createArray data type narrow what get returns", async () => {
    const store = new MemoryStore();
    const cfg: { level?: number } = {};
    // A codec list written from settings with an optional field: the unset level is left out.
    const made = await createArray(store, "t2m", {
      shape: [3],
      dataType: "float32",
      codecs: [{ name: "bytes" }, { name: "gzip", configuration: { level: cfg.level } }],
    });
    expectTypeOf(made).toEqualTypeOf<ZarrArray<"float32">>();
    expect(made.metadata.codecs[1]).toEqual({ name: "gzip", configuration: { level: 5 } });
    await set(made, null, Float32Array.of(1, 2, 3));

    const t2m = await openArray(store, "t2m", { dataType: "float32" });
    const { data } = await get(t2m);
    expectTypeOf(data).toEqualTypeOf<Float32Array>();
    expect(data).toEqual(Float32Array.of(1, 2, 3));

    const plain = await openArray(store, "t2m");
    expectTypeOf((await get(plain)).data).toEqualTypeOf<DataArray>();
    await expect(openArray(store, "t2m", { dataType: "uint64" })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });
});
