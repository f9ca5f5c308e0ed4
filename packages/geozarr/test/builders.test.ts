import { createArray, createGroup, MemoryStore, readNodeMetadata } from "@zarr/core";
import { describe, expect, it } from "vitest";
import {
  CONVENTION_ENTRIES,
  CONVENTION_ENTRIES_BY_VERSION,
  createDataset,
  datasetAttributes,
  detectConventions,
  layoutEntry,
  mergeAttributes,
  multiscalesAttributes,
  projAttributes,
  readMultiscales,
  readSpatial,
  spatialAttributes,
  validate,
  validateDocument,
} from "../src/index.js";
import { values } from "./helpers.js";

describe("typed builders", () => {
  it("always declare exactly the conventions whose keys they write (v1)", () => {
    const p = projAttributes({ code: "EPSG:32633" });
    expect(p).toEqual({ "proj:code": "EPSG:32633", zarr_conventions: [CONVENTION_ENTRIES.proj] });
    const s = spatialAttributes({ dimensions: ["y", "x"], transform: [10, 0, 0, 0, -10, 100], shape: [10, 20], registration: "node" });
    expect(s).toEqual({
      "spatial:dimensions": ["y", "x"],
      "spatial:transform": [10, 0, 0, 0, -10, 100],
      "spatial:shape": [10, 20],
      "spatial:bbox": [-5, 5, 195, 105],
      "spatial:registration": "node",
      zarr_conventions: [CONVENTION_ENTRIES.spatial],
    });
    const m = multiscalesAttributes({ levels: [{ asset: "0" }, { asset: "1", derivedFrom: "0", scale: [2, 2] }] });
    expect([...detectConventions(m).declared]).toEqual(["multiscales"]);
    expect(validateDocument({ zarr_format: 3, node_type: "group", attributes: m }).findings.map((f) => f.rule)).toEqual(["multiscales.not-geospatial"]);
    const all = multiscalesAttributes({ levels: [{ asset: "0" }], crs: { code: "EPSG:4326" }, spatial: { dimensions: ["lat", "lon"] }, attributes: { title: "t" } });
    expect([...detectConventions(all).declared].sort()).toEqual(["multiscales", "proj", "spatial"]);
    expect(all.title).toBe("t");
    expect(validateDocument({ zarr_format: 3, node_type: "group", attributes: all }).findings).toEqual([]);
  });

  it("write the mini-spec's v1 entries by default and the v0.1 ones on request; both validate", async () => {
    const spatial = { dimensions: ["Y", "X"] as const, transform: [10, 0, 500000, 0, -10, 5000000] as const, shape: [4, 5] as const };
    for (const conventions of ["v1", "v0.1", undefined] as const) {
      const entries = CONVENTION_ENTRIES_BY_VERSION[conventions ?? "v1"];
      const attrs = multiscalesAttributes({
        conventions,
        crs: { code: "EPSG:32633" },
        spatial: { dimensions: ["Y", "X"] },
        levels: [{ asset: "0", scale: [1, 1], shape: [4, 5], transform: [...spatial.transform] }],
      });
      expect(attrs.zarr_conventions).toEqual([entries.multiscales, entries.proj, entries.spatial]);
      const store = new MemoryStore();
      await createGroup(store, "", { attributes: attrs });
      await createDataset(store, "0", { crs: { code: "EPSG:32633" }, spatial: { ...spatial, bbox: false }, conventions, coordinates: false });
      await createArray(store, "0/b", { shape: [4, 5], dataType: "uint8", dimensionNames: ["Y", "X"] });
      expect((await readNodeMetadata(store, "0"))?.attributes.zarr_conventions).toEqual([entries.proj, entries.spatial]);
      const r = await validate(store);
      expect(r.findings, String(conventions)).toEqual([]);
    }
    // v1 writes exactly one CRS field (the code when it has the v1 form); v0.1 writes them all.
    const wkt2 = 'GEOGCRS["WGS 84",ID["EPSG",4326]]';
    expect(Object.keys(projAttributes({ code: "EPSG:4326", wkt2 }))).toEqual(["proj:code", "zarr_conventions"]);
    expect(Object.keys(projAttributes({ code: "OGC:CRS84", wkt2 }))).toEqual(["proj:wkt2", "zarr_conventions"]);
    expect(Object.keys(projAttributes({ code: "EPSG:4326", wkt2 }, { conventions: "v0.1" }))).toEqual(["proj:code", "proj:wkt2", "zarr_conventions"]);
    expect(() => projAttributes({ code: "OGC:CRS84" })).toThrow(/conventions "v0.1"/);
    expect(projAttributes({ code: "OGC:CRS84" }, { conventions: "v0.1" })["proj:code"]).toBe("OGC:CRS84");
    expect(() => spatialAttributes({ dimensions: ["y", "x"] }, { conventions: "v2" as never })).toThrow(/"v1" or "v0.1"/);
    // Merging keeps the entries' version.
    const merged = mergeAttributes(projAttributes({ code: "EPSG:1" }, { conventions: "v0.1" }), spatialAttributes({ dimensions: ["y", "x"] }, { conventions: "v0.1" }));
    expect(merged.zarr_conventions).toEqual([CONVENTION_ENTRIES_BY_VERSION["v0.1"].proj, CONVENTION_ENTRIES_BY_VERSION["v0.1"].spatial]);
  });

  it("refuse input that would not validate", () => {
    expect(() => projAttributes({ code: "32633" })).toThrow(/AUTHORITY:CODE/);
    expect(() => projAttributes({})).toThrow(/needs a code/);
    expect(() => spatialAttributes({ dimensions: ["y", "y"] })).toThrow(/two distinct names/);
    expect(() => spatialAttributes({ dimensions: ["y", "x"], transform: [1, 0, 0, 0, 0, 0] })).toThrow(/invertible/);
    expect(() => spatialAttributes({ dimensions: ["y", "x"], shape: [0, 1] })).toThrow(/positive/);
    expect(() => layoutEntry({ asset: "/abs" })).toThrow(/relative path/);
    expect(() => layoutEntry({ asset: "1", derivedFrom: "0" })).toThrow(/relative scale/);
    expect(() => multiscalesAttributes({ levels: [] })).toThrow(/at least one level/);
    expect(() => multiscalesAttributes({ levels: [{ asset: "1", derivedFrom: "0", scale: [2, 2] }] })).toThrow(/unknown level/);
    expect(() => multiscalesAttributes({ levels: [{ asset: "0" }, { asset: "0" }] })).toThrow(/twice/);
  });

  it("merge attributes, uniting declarations and keeping unknown conventions", () => {
    const other = { uuid: "2dc8d146-3932-4e08-8542-06aa0e826508" };
    const merged = mergeAttributes({ a: 1, zarr_conventions: [other] }, projAttributes({ code: "EPSG:1" }), { a: 2 }, projAttributes({ code: "EPSG:2" }));
    expect(merged).toEqual({ a: 2, "proj:code": "EPSG:2", zarr_conventions: [other, CONVENTION_ENTRIES.proj] });
  });

  it("create Datasets with coordinate arrays that validate", async () => {
    const store = new MemoryStore();
    await createDataset(store, "d", { crs: { code: "EPSG:4326" }, spatial: { dimensions: ["lat", "lon"], transform: [0.5, 0, -10, 0, -0.5, 50], shape: [4, 3] } });
    expect((await values(store, "d/lon")).data).toEqual([-9.75, -9.25, -8.75]);
    expect((await values(store, "d/lat")).data).toEqual([49.75, 49.25, 48.75, 48.25]);
    expect((await readNodeMetadata(store, "d/lon"))?.attributes).toMatchObject({ standard_name: "longitude", units: "degrees_east" });
    expect((await validate(store)).findings).toEqual([]);
    const rot = new MemoryStore();
    await createDataset(rot, "", { crs: { code: "EPSG:32633" }, spatial: { dimensions: ["y", "x"], transform: [7, 7, 0, 7, -7, 0], shape: [2, 3], registration: "node" } });
    expect((await values(rot, "x")).data).toEqual([0, 1, 2]);
    expect(datasetAttributes({ crs: { code: "EPSG:1" }, spatial: { dimensions: ["y", "x"], bbox: false, transform: [1, 0, 0, 0, -1, 0], shape: [1, 1] } })).not.toHaveProperty("spatial:bbox");
  });
});

describe("typed accessors", () => {
  it("read spatial fields and report bad ones with pointers", () => {
    const r = readSpatial({
      "spatial:dimensions": ["y", "x"],
      "spatial:transform": [10, 0, 0, 0, -10, 0, 0, 0, 1],
      "spatial:bbox": [0, 0, 0, 0],
      "spatial:shape": [10.5, 3],
      "spatial:registration": "center",
      "spatial:transform_type": "rpc",
    });
    expect(r.value).toEqual({ dimensions: ["y", "x"], bbox: [0, 0, 0, 0], transformType: "rpc" });
    expect(r.issues.map((i) => [i.rule, i.pointer])).toEqual([
      ["spatial.transform-invalid", "/attributes/spatial:transform"],
      ["spatial.transform-type-unknown", "/attributes/spatial:transform_type"],
      ["spatial.bbox-degenerate", "/attributes/spatial:bbox"],
      ["spatial.shape-invalid", "/attributes/spatial:shape"],
      ["spatial.registration-invalid", "/attributes/spatial:registration"],
    ]);
    expect(r.issues[0].message).toContain("first six numbers");
    // An antimeridian-crossing bbox (xmin > xmax) is fine.
    expect(readSpatial({ "spatial:bbox": [170, -10, -170, 10] }).issues).toEqual([]);
  });

  it("read multiscales layouts and spot older formats", () => {
    const ms = readMultiscales({
      multiscales: {
        layout: [
          { asset: "0", "spatial:shape": [4, 4] },
          { asset: "1", derived_from: "0", transform: { scale: [2, 2], translation: [0.5] }, resampling_method: "mode" },
          { asset: "../x" },
          { asset: "2", transform: { scale: [0, 1] } },
        ],
        resampling_method: "average",
      },
    });
    expect(ms.value?.layout.map((l) => [l.asset, l.derivedFrom, l.transform, l.resamplingMethod, l.spatialShape])).toEqual([
      ["0", undefined, undefined, undefined, [4, 4]],
      ["1", "0", { scale: [2, 2], translation: [0.5] }, "mode", undefined],
      ["2", undefined, {}, undefined, undefined],
    ]);
    expect(ms.issues.map((i) => [i.rule, i.pointer])).toEqual([
      ["multiscales.transform-invalid", "/attributes/multiscales/layout/1/transform"],
      ["multiscales.asset-invalid", "/attributes/multiscales/layout/2/asset"],
      ["multiscales.transform-invalid", "/attributes/multiscales/layout/3/transform/scale"],
    ]);
    expect(readMultiscales({ multiscales: [{ datasets: [] }] }).issues[0].message).toContain("migrate()");
    expect(readMultiscales({ multiscales: { tile_matrix_set: "WebMercatorQuad" } }).issues[0].message).toContain("GeoZarr 0.4");
  });
});
