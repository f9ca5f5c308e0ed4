/**
 * Zarr v2 nodes created through @zarr/core's own `createGroup`/`createArray` with
 * `zarrFormat: 2` (the registry's `v2Format` writes them): zarr-python 2.13 reads them,
 * and so does our `open`; the documents are those `createArrayV2` writes.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createArray, createGroup, createRegistry, get, MemoryStore, open, openArray, openGroup, set } from "@zarr/core";
import { gzip, zlib } from "@zarr/codec-gzip";
import { vlenUtf8 } from "@zarr/codec-vlen";
import { FileSystemStore } from "@zarr/store-fs";
import { afterAll, describe, expect, it } from "vitest";
import { requirePythonZarr } from "../../../scripts/test-env.mjs";
import { createArrayV2, v2Format } from "../src/index.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const registry = createRegistry([gzip, zlib, vlenUtf8, v2Format]);

/** A v2 hierarchy written with core's create functions only. */
async function writeHierarchy(store: FileSystemStore | MemoryStore) {
  await createGroup(store, "", { zarrFormat: 2, attributes: { title: "made by core" }, registry });
  await createGroup(store, "g", { zarrFormat: 2, registry });
  const t = await createArray(store, "g/t", {
    zarrFormat: 2,
    shape: [3, 4],
    chunkShape: [2, 3],
    dataType: "float32",
    fillValue: Number.NaN,
    compressor: { id: "zlib", level: 1 },
    dimensionNames: ["y", "x"],
    attributes: { units: "K" },
    registry,
  });
  await set(t, [0, null], Float32Array.from([1.5, 2.5, 3.5, 4.5]));
  const f = await createArray(store, "g/f", {
    zarrFormat: 2,
    shape: [2, 3],
    chunkShape: [2, 2],
    dataType: "int16",
    order: "F",
    chunkKeyEncoding: { name: "v2", separator: "/" },
    compressor: null,
    fillValue: -1,
    registry,
  });
  await set(f, null, Int16Array.from([1, 2, 3, 4, 5, 6]));
  const s = await createArray(store, "s", { zarrFormat: 2, shape: [3], chunkShape: [2], dataType: "string", compressor: null, registry });
  await set(s, null, ["a", "bé", ""]);
}

const PYTHON_READ = `
import json, sys, math
import zarr
root = zarr.open_group(zarr.DirectoryStore(sys.argv[1]), mode="r")
def clean(v):
    return None if isinstance(v, float) and math.isnan(v) else v
out = {"root": dict(root.attrs), "g": dict(root["g"].attrs), "arrays": {}}
for path in ["g/t", "g/f", "s"]:
    z = root[path]
    out["arrays"][path] = {
        "dtype": str(z.dtype), "shape": list(z.shape), "chunks": list(z.chunks), "order": z.order,
        "compressor": None if z.compressor is None else z.compressor.get_config(),
        "filters": None if z.filters is None else [c.get_config() for c in z.filters],
        "fill": clean(z.fill_value.item() if hasattr(z.fill_value, "item") else z.fill_value),
        "values": [clean(v) for v in z[...].ravel(order="C").tolist()],
        "attrs": dict(z.attrs),
    }
json.dump(out, sys.stdout)
`;

describe("createArray / createGroup with zarrFormat: 2", () => {
  it("write Zarr v2 that zarr-python 2.13 reads", async () => {
    requirePythonZarr();
    const dir = mkdtempSync(join(tmpdir(), "core-create-v2-"));
    dirs.push(dir);
    await writeHierarchy(new FileSystemStore(dir));
    const out = JSON.parse(
      execFileSync("/usr/bin/python3", ["-c", PYTHON_READ, dir], { encoding: "utf8", env: { ...process.env, PYTHONWARNINGS: "ignore" } }),
    );
    expect(out.root).toEqual({ title: "made by core" });
    expect(out.g).toEqual({});
    expect(out.arrays["g/t"]).toEqual({
      dtype: "float32",
      shape: [3, 4],
      chunks: [2, 3],
      order: "C",
      compressor: { id: "zlib", level: 1 },
      filters: null,
      fill: null, // NaN
      values: [1.5, 2.5, 3.5, 4.5, null, null, null, null, null, null, null, null],
      attrs: { units: "K", _ARRAY_DIMENSIONS: ["y", "x"] },
    });
    expect(out.arrays["g/f"]).toMatchObject({ dtype: "int16", order: "F", compressor: null, fill: -1, values: [1, 2, 3, 4, 5, 6] });
    expect(out.arrays.s).toMatchObject({ dtype: "object", filters: [{ id: "vlen-utf8" }], values: ["a", "bé", ""] });
    // The "/" separator puts chunk (0, 1) of g/f under g/f/0/1.
    expect(readFileSync(join(dir, "g/f/0/1")).length).toBe(2 * 2 * 2);
  });

  it("write nodes our open reads back as Zarr v2, and the same documents createArrayV2 writes", async () => {
    const store = new MemoryStore();
    await writeHierarchy(store);
    const root = await openGroup(store, "", { registry });
    expect(root.zarrFormat).toBe(2);
    expect(root.format?.name).toBe("zarr-v2");
    const t = await openArray(store, "g/t", { registry });
    expect(t.zarrFormat).toBe(2);
    expect(t.dimensionNames).toEqual(["y", "x"]);
    expect(t.config.writeEmptyChunks).toBe(true); // as zarr-python 2 does
    expect(Array.from((await get(t, [0, null])).data as Float32Array)).toEqual([1.5, 2.5, 3.5, 4.5]);
    expect((await get(await openArray(store, "g/f", { registry }))).data).toEqual(Int16Array.from([1, 2, 3, 4, 5, 6]));
    expect((await get(await openArray(store, "s", { registry }))).data).toEqual(["a", "bé", ""]);
    expect(store.map.has("g/zarr.json")).toBe(false);

    const other = new MemoryStore();
    await createArrayV2(other, "g/t", {
      shape: [3, 4],
      chunks: [2, 3],
      dataType: "float32",
      fillValue: Number.NaN,
      compressor: { id: "zlib", level: 1 },
      dimensionNames: ["y", "x"],
      attributes: { units: "K" },
      registry,
    });
    const text = (s: MemoryStore, k: string) => new TextDecoder().decode(s.map.get(k));
    expect(text(store, "g/t/.zarray")).toBe(text(other, "g/t/.zarray"));
    expect(text(store, "g/t/.zattrs")).toBe(text(other, "g/t/.zattrs"));
  });

  it("refuse v3-only options, names that are not strings, and registries without v2Format", async () => {
    const store = new MemoryStore();
    const base = { zarrFormat: 2, shape: [2], dataType: "int8", registry } as const;
    await expect(createArray(store, "a", { ...base, codecs: ["bytes"] })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(createArray(store, "a", { ...base, dimensionNames: [null] })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    // Called directly, the entry refuses what core's createArray would have refused.
    await expect(v2Format.createArray?.(store, "a", { shape: [2], dataType: "int8", chunkGrid: "regular", registry })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining("chunkGrid is a Zarr v3 option"),
    });
    await expect(createArray(store, "a", { ...base, registry: createRegistry([gzip]) })).rejects.toMatchObject({
      code: "UNSUPPORTED",
      message: expect.stringContaining("v2Format from @zarr/v2-compat"),
    });
    expect(store.map.size).toBe(0);
    expect(await open(store, "", { registry }).catch((e) => e.code)).toBe("NODE_NOT_FOUND");
  });
});
