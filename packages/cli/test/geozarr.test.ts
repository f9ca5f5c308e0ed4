/**
 * `zarr geozarr validate|info|pyramid|migrate`, run in-process through `main` (the
 * workspace packages resolve to their sources, so no build is needed).
 */
import path from "node:path";
import { createArray, createGroup, readNodeMetadata, set } from "@zarr/core";
import { CONVENTION_ENTRIES, CONVENTION_ENTRIES_BY_VERSION, createDataset } from "@zarr/geozarr";
import type { JsonObject } from "@zarr/spec";
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

  it("pyramid --conventions v0.1 declares the v0.1 entries, the default declares the mini-spec's v1; both validate", async () => {
    const src = await source();
    const byVersion: Record<string, JsonObject[]> = {};
    for (const version of ["v1", "v0.1"] as const) {
      const dst = path.join(path.dirname(src), `pyramid-${version}.zarr`);
      const args = ["geozarr", "pyramid", src, dst, "--factors", "2", "--min-size", "100"];
      const p = await run(...(version === "v1" ? args : [...args, "--conventions", version]));
      expect(p.code, p.err).toBe(0);
      const store = new FileSystemStore(dst);
      const root = await readNodeMetadata(store, "");
      const level = await readNodeMetadata(store, "1");
      byVersion[version] = [...((root?.attributes.zarr_conventions ?? []) as JsonObject[]), ...((level?.attributes.zarr_conventions ?? []) as JsonObject[])];
      const v = await run("geozarr", "validate", dst, "--strict");
      expect(v.code, v.out).toBe(0);
    }
    const entries = (version: "v1" | "v0.1") => Object.values(CONVENTION_ENTRIES_BY_VERSION[version]);
    for (const e of byVersion.v1) expect(entries("v1")).toContainEqual(e);
    for (const e of byVersion["v0.1"]) expect(entries("v0.1")).toContainEqual(e);
    expect(byVersion["v0.1"].some((e) => String(e.schema_url).includes("/v0.1/"))).toBe(true);
    expect((await run("geozarr", "pyramid", src, `${src}-x`, "--conventions", "v2")).code).toBe(2);
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

  describe("validate for people and programs", () => {
    /** Writes zarr.json documents into a new directory store; returns its path. */
    async function docsStore(name: string, docs: Record<string, JsonObject>): Promise<string> {
      const dir = path.join(tempDir("zarr-geozarr-"), name);
      const store = new FileSystemStore(dir);
      for (const [p, doc] of Object.entries(docs)) await store.set(p === "" ? "zarr.json" : `${p}/zarr.json`, new TextEncoder().encode(JSON.stringify(doc)));
      return dir;
    }
    const band = (attributes: JsonObject = {}): JsonObject => ({
      zarr_format: 3,
      node_type: "array",
      shape: [100, 100],
      data_type: "uint16",
      chunk_grid: { name: "regular", configuration: { chunk_shape: [50, 50] } },
      chunk_key_encoding: { name: "default" },
      fill_value: 0,
      codecs: [{ name: "bytes", configuration: { endian: "little" } }],
      dimension_names: ["Y", "X"],
      attributes,
    });
    // The mini-spec's first Dataset example (smaller arrays): no Y/X coordinate arrays.
    const dataset = (extra: JsonObject = {}): Record<string, JsonObject> => ({
      "": {
        zarr_format: 3,
        node_type: "group",
        attributes: {
          zarr_conventions: [CONVENTION_ENTRIES.proj, CONVENTION_ENTRIES.spatial],
          "proj:code": "EPSG:32633",
          "spatial:dimensions": ["Y", "X"],
          "spatial:transform": [10, 0, 500000, 0, -10, 5000000],
          "spatial:bbox": [500000, 4999000, 501000, 5000000],
          ...extra,
        },
      },
      red: band(),
      nir: band(),
    });

    it("the mini-spec's first Dataset example is valid: exit 0, a summary line", async () => {
      const dir = await docsStore("minispec.zarr", dataset());
      const r = await run("geozarr", "validate", dir);
      expect(r.err).toBe("");
      expect(r.code).toBe(0);
      expect(r.out.trim()).toBe("valid: 0 error(s), 0 warning(s), 0 info; 1 Dataset(s), 0 Multiscale Dataset(s)");
    });

    it("--json: every finding with rule, severity, node path, JSON pointer, message and spec section; exit 1 on errors", async () => {
      const dir = await docsStore("bad-code.zarr", { "": { zarr_format: 3, node_type: "group", attributes: {} }, a: band({ zarr_conventions: [CONVENTION_ENTRIES.proj], "proj:code": "epsg:4326" }) });
      const r = await run("geozarr", "validate", dir, "--json");
      expect(r.code).toBe(1);
      expect(r.err).toBe("zarr: [METADATA_INVALID] 1 GeoZarr error(s) found");
      const j = JSON.parse(r.out);
      expect(j).toMatchObject({ valid: false, strict: false, counts: { error: 1, warning: 0, info: 1 }, summary: "NOT valid: 1 error(s), 0 warning(s), 1 info; 0 Dataset(s), 0 Multiscale Dataset(s)" });
      expect(j.findings).toEqual([
        {
          rule: "proj.code-format",
          severity: "error",
          path: "a",
          pointer: "/attributes/proj:code",
          message: expect.stringContaining('write "EPSG:4326"'),
          section: "Appendix › proj: Properties",
        },
        // The root group declares nothing: "a" is in no Dataset, only proj's own rules apply.
        {
          rule: "dataset.array-not-member",
          severity: "info",
          path: "a",
          pointer: "/attributes/zarr_conventions",
          message: expect.stringContaining('its group "/" does not declare proj: or spatial:'),
          section: "Dataset › Attributes",
        },
      ]);
      const text = await run("geozarr", "validate", dir);
      expect(text.out).toContain("error   proj.code-format  a /attributes/proj:code");
      expect(text.out).toContain("[mini-spec: Appendix › proj: Properties]");
      expect(text.out.trim().split("\n").at(-1)).toBe("NOT valid: 1 error(s), 0 warning(s), 1 info; 0 Dataset(s), 0 Multiscale Dataset(s)");
    });

    it("a multiscales group without proj:/spatial: is valid: an info says it is no Multiscale Dataset, its levels get no Dataset rule", async () => {
      const dir = await docsStore("layout-only.zarr", {
        "": { zarr_format: 3, node_type: "group", attributes: { zarr_conventions: [CONVENTION_ENTRIES.multiscales], multiscales: { layout: [{ asset: "0" }] } } },
        "0": { zarr_format: 3, node_type: "group", attributes: {} },
        // No Y/X coordinate arrays and no transform: a Dataset rule would ask for them.
        "0/red": band(),
      });
      const r = await run("geozarr", "validate", dir, "--json");
      expect(r.code).toBe(0);
      const j = JSON.parse(r.out);
      expect(j.findings.map((f: { severity: string; rule: string }) => `${f.severity} ${f.rule}`)).toEqual(["info multiscales.not-geospatial"]);
      expect(j.findings[0].message).toContain("not a GeoZarr Multiscale Dataset");
      expect(j.summary).toBe("valid: 0 error(s), 0 warning(s), 1 info; 0 Dataset(s), 0 Multiscale Dataset(s)");
    });

    it("--strict makes warnings errors; usage errors stay exit 2", async () => {
      const dir = await docsStore("warning.zarr", dataset({ "spatial:bbox": [0, 0, 0, 0] }));
      const lenient = await run("geozarr", "validate", dir, "--json");
      expect(lenient.code).toBe(0);
      expect(JSON.parse(lenient.out).findings.map((f: { severity: string; rule: string }) => `${f.severity} ${f.rule}`)).toEqual(["warning spatial.bbox-degenerate"]);
      const strict = await run("geozarr", "validate", dir, "--json", "--strict");
      expect(strict.code).toBe(1);
      expect(strict.err).toContain("(--strict)");
      const j = JSON.parse(strict.out);
      expect(j).toMatchObject({ valid: false, strict: true, counts: { error: 1, warning: 0 } });
      expect(j.findings[0]).toMatchObject({ severity: "error", rule: "spatial.bbox-degenerate" });
      expect(j.summary).toContain("(--strict: warnings count as errors)");
      expect((await run("geozarr", "validate", dir, "--min-severity", "loud")).code).toBe(2);
      expect((await run("geozarr", "validate")).code).toBe(2);
      const rules = JSON.parse((await run("geozarr", "validate", "--rules", "--json")).out);
      expect(rules.find((r: { id: string }) => r.id === "proj.multiple-crs")).toEqual({
        id: "proj.multiple-crs",
        severity: "error",
        summary: expect.any(String),
        section: "Appendix › proj: Properties",
      });
    });

    it("migrate upgrades v0.1 declarations to the mini-spec's (dry run first), and --conventions v0.1 writes v0.1", async () => {
      const v01 = CONVENTION_ENTRIES_BY_VERSION["v0.1"];
      const docs = dataset();
      (docs[""].attributes as JsonObject).zarr_conventions = [v01.proj, v01.spatial];
      const dir = await docsStore("v01.zarr", docs);
      expect((await run("geozarr", "validate", dir)).code).toBe(0);
      const dry = await run("geozarr", "migrate", dir, "--dry-run");
      expect(dry.code).toBe(0);
      expect(dry.out).toContain('/  [conventions] declarations proj v0.1 "proj", spatial v0.1 "spatial" → v1');
      const store = new FileSystemStore(dir);
      expect((await readNodeMetadata(store, ""))?.attributes.zarr_conventions).toEqual([v01.proj, v01.spatial]);
      expect((await run("geozarr", "migrate", dir)).code).toBe(0);
      expect((await readNodeMetadata(store, ""))?.attributes.zarr_conventions).toEqual([CONVENTION_ENTRIES.proj, CONVENTION_ENTRIES.spatial]);
      expect((await run("geozarr", "validate", dir)).code).toBe(0);
      const back = await run("geozarr", "migrate", dir, "--conventions", "v0.1");
      expect(back.out).toContain("→ v0.1");
      expect((await readNodeMetadata(store, ""))?.attributes.zarr_conventions).toEqual([v01.proj, v01.spatial]);
      const bad = await run("geozarr", "migrate", dir, "--conventions", "v2");
      expect(bad.code).toBe(2);
      expect(bad.err).toContain('--conventions is v1 or v0.1, not "v2"');
    });
  });
});
