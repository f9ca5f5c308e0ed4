/** `.zmetadata` keys that name no descendant are skipped with a warning, never listed. */
import { createRegistry, listChildren, MemoryStore, openGroup, walkEntries } from "@zarr/core";
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
