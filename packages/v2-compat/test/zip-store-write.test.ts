/**
 * Zarr v2 written into a zip archive opened for writing (@zarr/store-zip's writable
 * store, through core's `createArray` with `zarrFormat: 2`): zarr-python 2.13's
 * `zarr.ZipStore` reads it, before and after chunks are rewritten and the archive compacted.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzip, zlib } from "@zarr/codec-gzip";
import { createArray, createGroup, createRegistry, get, open, openArray, set } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { ZipStore } from "@zarr/store-zip";
import { openZipFileForWriting } from "@zarr/store-zip/node";
import { afterAll, describe, expect, it } from "vitest";
import { requirePythonZarr } from "../../../scripts/test-env.mjs";
import { v2Format } from "../src/index.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const registry = createRegistry([gzip, zlib, v2Format]);

/** Reads the archive with zarr-python's ZipStore: the root's attributes and each array's values. */
const PYTHON_READ = `
import json, sys, warnings, zarr
warnings.simplefilter("error", UserWarning)  # zipfile warns on duplicate names: there must be none
root = zarr.open(zarr.ZipStore(sys.argv[1], mode="r"))
out = {"attrs": dict(root.attrs), "arrays": {}}
for path in ["temp", "counts"]:
    z = root[path]
    out["arrays"][path] = {"dtype": str(z.dtype), "shape": list(z.shape), "values": z[...].ravel().tolist()}
json.dump(out, sys.stdout)
`;

function readWithZarrPython(file: string) {
  return JSON.parse(execFileSync("/usr/bin/python3", ["-c", PYTHON_READ, file], { encoding: "utf8" }));
}

describe("Zarr v2 in a zip archive opened for writing", () => {
  it("zarr-python's zarr.ZipStore reads it; rewritten chunks read as the newest; compaction keeps it readable", async () => {
    requirePythonZarr();
    const dir = mkdtempSync(join(tmpdir(), "zip-write-v2-"));
    dirs.push(dir);
    const file = join(dir, "data.zip");
    const zip = await openZipFileForWriting(file, { mode: "w", compression: "deflate" });
    await createGroup(zip, "", { zarrFormat: 2, attributes: { title: "zipped v2" }, registry });
    const temp = await createArray(zip, "temp", {
      zarrFormat: 2,
      shape: [4, 5],
      chunkShape: [2, 2],
      dataType: "float64",
      compressor: { id: "zlib", level: 1 },
      registry,
    });
    const values = Float64Array.from({ length: 20 }, (_, i) => i * 0.5);
    await set(temp, null, values);
    const counts = await createArray(zip, "counts", { zarrFormat: 2, shape: [6], chunkShape: [4], dataType: "int32", compressor: null, registry });
    await set(counts, null, Int32Array.from([1, 2, 3, 4, 5, 6]));
    // Rewrite part of the data: the chunks holding it get a second entry each.
    await set(temp, [0, null], Float64Array.from([-1, -2, -3, -4, -5]));
    values.set([-1, -2, -3, -4, -5], 0);
    expect(Array.from((await get(await openArray(zip, "temp", { registry }))).data as Float64Array)).toEqual(Array.from(values));
    await zip.close();

    const expected = {
      attrs: { title: "zipped v2" },
      arrays: {
        temp: { dtype: "float64", shape: [4, 5], values: Array.from(values) },
        counts: { dtype: "int32", shape: [6], values: [1, 2, 3, 4, 5, 6] },
      },
    };
    expect(readWithZarrPython(file)).toEqual(expected);
    // Our read-only ZipStore agrees.
    const reader = new ZipStore(new FileSystemStore(dir), "data.zip");
    expect((await open(reader, "", { registry })).attributes).toEqual({ title: "zipped v2" });
    expect(Array.from((await get(await openArray(reader, "temp", { registry }))).data as Float64Array)).toEqual(Array.from(values));

    const before = statSync(file).size;
    const again = await openZipFileForWriting(file);
    await again.compact();
    await again.close();
    expect(statSync(file).size).toBeLessThan(before);
    expect(readWithZarrPython(file)).toEqual(expected);
  });
});
