/**
 * Hostile v2 metadata: `.zmetadata` keys that name no descendant are skipped with a warning,
 * and names of Object.prototype members never find its properties.
 */
import { createRegistry, listChildren, MemoryStore, openArray, openGroup, walkEntries, ZarrError } from "@zarr/core";
import { afterEach, expect, it, vi } from "vitest";
import { createArrayV2, createGroupV2, v2Format } from "../src/index.js";

afterEach(() => {
  vi.restoreAllMocks();
});

it("invalid .zmetadata keys ('../evil', absolute, empty segments) are skipped with a warning", async () => {
  const registry = createRegistry([v2Format]);
  const store = new MemoryStore();
  await createGroupV2(store, "");
  await createArrayV2(store, "a", { shape: [2], dtype: "<i2" });
  const zarray = JSON.parse(new TextDecoder().decode(await store.get("a/.zarray")));
  const metadata = {
    ".zgroup": { zarr_format: 2 },
    "a/.zarray": zarray,
    "../evil/.zarray": zarray,
    "/abs/.zarray": zarray,
    "x//y/.zgroup": { zarr_format: 2 },
  };
  await store.set(".zmetadata", new TextEncoder().encode(JSON.stringify({ zarr_consolidated_format: 1, metadata })));
  const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
  const root = await openGroup(store, "", { registry });
  expect(warn).toHaveBeenCalledTimes(3);
  expect((await listChildren(root)).map((e) => e.name)).toEqual(["a"]);
  const paths: string[] = [];
  for await (const e of walkEntries(root)) paths.push(e.path);
  expect(paths).toEqual(["a"]);
});

it("names of Object.prototype members as dtype, compressor or filter ids give coded errors that name them", async () => {
  const registry = createRegistry([v2Format]);
  const base = { zarr_format: 2, shape: [2], chunks: [2], dtype: "<i2", compressor: null, fill_value: 0, filters: null, order: "C" };
  const cases = [
    { dtype: "constructor" },
    { dtype: "__proto__" },
    { compressor: { id: "constructor" } },
    { compressor: { id: "toString" } },
    { filters: [{ id: "hasOwnProperty" }] },
    { dtype: "|O", filters: [{ id: "constructor" }] },
  ];
  for (const change of cases) {
    const store = new MemoryStore();
    await store.set("a/.zarray", new TextEncoder().encode(JSON.stringify({ ...base, ...change })));
    // A broken document fails to open; one naming what the registry lacks opens with that as its problem.
    const error = await openArray(store, "a", { registry }).then(
      (arr) => arr.problem,
      (e: unknown) => e,
    );
    expect(error, JSON.stringify(change)).toBeInstanceOf(ZarrError);
    const message = (error as ZarrError).message;
    expect(message).not.toMatch(/native code|\[object Object\]|function /);
  }
});
