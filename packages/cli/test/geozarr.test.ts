/**
 * `zarr geozarr validate|info|pyramid|migrate`, run in-process through `main` (the
 * workspace packages resolve to their sources, so no build is needed).
 */
import path from "node:path";
import { createArray, createGroup, set } from "@zarr/core";
import { createDataset } from "@zarr/geozarr";
import { FileSystemStore } from "@zarr/store-fs";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempDirs, runInProcess as run, tempDir } from "./helpers.js";

afterAll(removeTempDirs);

async function source(): Promise<string> {
  const dir = path.join(tempDir("zarr-geozarr-"), "scene.zarr");
  const store = new FileSystemStore(dir);
  await createDataset(store, "", { crs: { code: "EPSG:32633" }, spatial: { dimensions: ["y", "x"], transform: [10, 0, 500000, 0, -10, 5000000], shape: [300, 200] } });
  const b = await createArray(store, "b04", { shape: [300, 200], chunkShape: [100, 100], dataType: "uint16", dimensionNames: ["y", "x"], fillValue: 0 });
  await set(b, null, Uint16Array.from({ length: 60000 }, (_, i) => (i % 1000) + 1));
  const m = await createArray(store, "scl", { shape: [300, 200], chunkShape: [100, 100], dataType: "uint8", dimensionNames: ["y", "x"] });
  await set(m, null, Uint8Array.from({ length: 60000 }, (_, i) => i % 4));
  return dir;
}

describe("zarr geozarr", () => {
  it("pyramid, then info and validate on the result", async () => {
    const src = await source();
    const dst = path.join(path.dirname(src), "pyramid.zarr");
    const p = await run("geozarr", "pyramid", src, dst, "--factors", "2,3", "--min-size", "30", "--resampling", "b04=average,scl=mode", "--chunks", "64");
    expect(p.err).toBe("");
    expect(p.code).toBe(0);
    expect(p.out).toContain("wrote 3 level(s) of 2 variable(s)");
    expect(p.out).toContain("1      150×100  ×2  chunks 64×64");
    expect(p.out).toContain("b04=average, scl=mode");
    const info = await run("geozarr", "info", dst);
    expect(info.code).toBe(0);
    expect(info.out).toContain("crs:          EPSG:32633 from proj on /");
    expect(info.out).toMatch(/2 +50×34 +res 60×60 +from 0 ×6 \(average\) +2 variable\(s\): b04, scl/);
    const json = JSON.parse((await run("geozarr", "info", dst, "--json")).out);
    expect(json.multiscales[0].levels.map((l: { shape: number[] }) => l.shape)).toEqual([[300, 200], [150, 100], [50, 34]]);
    const v = await run("geozarr", "validate", dst);
    expect(v.code).toBe(0);
    expect(v.out).toContain("valid: 0 error(s), 0 warning(s), 0 info; 4 Dataset(s), 1 Multiscale Dataset(s)");
  });

  it("validate reports findings, their rules and locations, and exits 1 on errors", async () => {
    const dir = path.join(tempDir("zarr-geozarr-"), "bad.zarr");
    const store = new FileSystemStore(dir);
    await createGroup(store, "", { attributes: { multiscales: { layout: [{ asset: "0" }, { asset: "1", derived_from: "0" }] } } });
    await createGroup(store, "0");
    const r = await run("geozarr", "validate", dir);
    expect(r.code).toBe(1);
    expect(r.out).toContain("error   multiscales.transform-missing  / /attributes/multiscales/layout/1");
    expect(r.out).toContain("error   multiscales.asset-missing  / /attributes/multiscales/layout/1/asset");
    expect(r.err).toContain("zarr: [METADATA_INVALID] 2 GeoZarr error(s) found");
    const j = JSON.parse((await run("geozarr", "validate", dir, "--json", "--min-severity", "error")).out);
    expect(j.valid).toBe(false);
    expect(j.findings.map((f: { rule: string }) => f.rule).sort()).toEqual(["multiscales.asset-missing", "multiscales.transform-missing"]);
    const rules = await run("geozarr", "validate", "--rules");
    expect(rules.out).toContain("multiscales.derived-from-cycle");
  });

  it("migrate --dry-run reports and writes nothing; usage errors exit 2", async () => {
    const dir = path.join(tempDir("zarr-geozarr-"), "stac.zarr");
    const store = new FileSystemStore(dir);
    await createGroup(store, "");
    await createArray(store, "b", { shape: [4, 5], dataType: "uint8", dimensionNames: ["y", "x"], attributes: { "proj:epsg": 32632, "proj:transform": [10, 0, 1000, 0, -10, 2000], "proj:shape": [4, 5] } });
    const dry = await run("geozarr", "migrate", dir, "--dry-run", "--remove-legacy");
    expect(dry.code).toBe(0);
    expect(dry.out).toContain("would change 3 node(s)");
    expect(dry.out).toContain("/  [stac] stac georeferencing → proj (EPSG:32632) and spatial (transform, shape [4, 5])");
    expect(dry.out).toContain("/  [conventions] write the coordinate arrays y, x");
    expect(dry.out).toContain("after migration: valid (0 error(s), 0 warning(s))");
    expect((await run("geozarr", "validate", dir)).out).toContain("legacy.stac-proj");
    const done = await run("geozarr", "migrate", dir, "--remove-legacy");
    expect(done.out).toContain("changed 3 node(s)");
    expect((await run("geozarr", "validate", dir)).out).toContain("valid: 0 error(s), 0 warning(s), 0 info; 1 Dataset(s)");
    const bad = await run("geozarr", "pyramid", dir);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("missing arguments");
    expect((await run("geozarr", "frobnicate")).code).toBe(2);
    expect((await run("geozarr", "pyramid", dir, dir + "2", "--factors", "1")).err).toContain("--factors");
  });
});
