/**
 * `zarr info` and `tree` on early-draft Zarr v3 hierarchies (GDAL 3.6's
 * `-co FORMAT=ZARR_V3`, zarr-python 2.13's experimental v3 API): the format is named, and
 * the stored keys and chunks are counted where the draft keeps them (`data/root/…`,
 * `meta/root/…`), not under `path/`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveGdal, requirePeer, requirePythonZarr } from "../../../scripts/test-env.mjs";
import { gdalTiff, removeTempDirs, runInProcess, tempDir } from "./helpers.js";

afterAll(removeTempDirs);

/** Files (and their total size) at the given paths below `root`: directories recursively, missing paths skipped. */
function usage(root: string, ...rel: string[]): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  const visit = (p: string) => {
    if (!existsSync(p)) return;
    if (statSync(p).isDirectory()) for (const e of readdirSync(p)) visit(path.join(p, e));
    else {
      bytes += statSync(p).size;
      files++;
    }
  };
  for (const r of rel) visit(path.join(root, r));
  return { bytes, files };
}

async function infoJson(...args: string[]) {
  const r = await runInProcess("info", ...args, "--json");
  if (r.code !== 0) throw new Error(r.err);
  return JSON.parse(r.out);
}

describe("a GDAL 3.6 early-draft v3 array", () => {
  let store = "";
  beforeAll(() => {
    requirePeer(haveGdal(), "GDAL (gdal-bin)");
    const band = Uint16Array.from({ length: 64 * 48 }, (_, i) => i % 1000);
    const tif = gdalTiff([band], 64, 48, []);
    store = path.join(tempDir("zarr-cli-draft-"), "band.zarr");
    execFileSync("gdal_translate", ["-q", "-of", "ZARR", "-co", "FORMAT=ZARR_V3", "-co", "BLOCKSIZE=32,32", tif, store], { stdio: "pipe" });
  });

  it("info names the draft format and counts the real chunk keys and bytes", async () => {
    const info = await infoJson(store, "band");
    const stored = usage(store, "data/root/band", "meta/root/band.array.json");
    expect(stored.files).toBe(5); // four chunks and the array's document
    expect(info).toMatchObject({
      node_type: "array",
      zarr_format: 3,
      format: "zarr-v3-draft",
      shape: [48, 64],
      chunk_key_encoding: { name: "v3-draft", configuration: { separator: "/" } },
      stored_keys: stored.files,
      stored_bytes: stored.bytes,
      chunks_stored: 4,
      chunks_total: 4,
      readable: true,
    });
    const text = (await runInProcess("info", store, "band")).out;
    expect(text).toContain("node:               array (early Zarr v3 draft, as GDAL 3.6 and zarr-python 2.13 write it)\n");
    expect(text).toContain(`stored:             ${stored.bytes} bytes (8.3 KiB) in 5 keys\n`);
    expect(text).toContain("chunks:             4 of 4 stored\n");
  });

  it("info on the root group counts the whole store; tree names the layout", async () => {
    const info = await infoJson(store);
    const all = usage(store, ".");
    expect(info).toMatchObject({ node_type: "group", format: "zarr-v3-draft", stored_keys: all.files, stored_bytes: all.bytes });
    expect((await runInProcess("info", store)).out).toContain("node:               group (early Zarr v3 draft, as GDAL 3.6 and zarr-python 2.13 write it)\n");
    expect((await runInProcess("tree", store)).out).toBe("/ (early Zarr v3 draft layout)\n└── band [48, 64] uint16\n");
    const tree = JSON.parse((await runInProcess("tree", store, "--json")).out);
    expect(tree).toMatchObject({ format: "zarr-v3-draft", children: [{ name: "band", format: "zarr-v3-draft" }] });
  });
});

describe("a zarr-python 2.13 early-draft hierarchy", () => {
  it("counts a nested group's documents and chunks, and its arrays' chunks", async () => {
    const store = path.join(tempDir("zarr-cli-draft-"), "py.zarr");
    requirePythonZarr();
    const script = path.resolve(import.meta.dirname, "..", "..", "v2-compat", "test", "python", "write_v3_draft.py");
    // zarr-python 2.13 writes the draft layout only with its experimental v3 API switched on.
    execFileSync("/usr/bin/python3", [script, store], { env: { ...process.env, ZARR_V3_EXPERIMENTAL_API: "1", PYTHONDONTWRITEBYTECODE: "1" }, stdio: "pipe" });
    const group = await infoJson(store, "groups/a");
    const expected = usage(store, "data/root/groups/a", "meta/root/groups/a", "meta/root/groups/a.group.json");
    expect(expected.files).toBeGreaterThan(2);
    expect(group).toMatchObject({ format: "zarr-v3-draft", stored_keys: expected.files, stored_bytes: expected.bytes });
    const implicit = await infoJson(store, "compressors");
    const below = usage(store, "data/root/compressors", "meta/root/compressors");
    expect(implicit).toMatchObject({ implicit: true, stored_keys: below.files, stored_bytes: below.bytes });
    const gzip = await infoJson(store, "compressors/gzip");
    expect(gzip.chunks_stored).toBeGreaterThan(0);
    expect(gzip.stored_keys).toBe(usage(store, "data/root/compressors/gzip", "meta/root/compressors/gzip.array.json").files);
  });
});
