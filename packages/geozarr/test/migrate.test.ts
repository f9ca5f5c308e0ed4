import { createArray, createGroup, MemoryStore, readNodeMetadata, set } from "@zarr/core";
import type { JsonObject } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import {
  CONVENTION_ENTRIES,
  CONVENTION_ENTRIES_BY_VERSION,
  CONVENTION_UUIDS,
  describeMultiscales,
  effectiveGeoreference,
  loadHierarchy,
  migrate,
  storeFromDump,
  validate,
} from "../src/index.js";
import { fixture, values } from "./helpers.js";

/** A level group with a 2-D variable and its y/x coordinate arrays (pixel centres). */
async function level(store: MemoryStore, path: string, n: number, cell: number, x0: number, y0: number, attrs: JsonObject = {}) {
  await createGroup(store, path);
  const v = await createArray(store, `${path}/band`, { shape: [n, n], dataType: "uint8", dimensionNames: ["y", "x"], attributes: attrs });
  await set(v, null, 1);
  const x = await createArray(store, `${path}/x`, { shape: [n], dataType: "float64", dimensionNames: ["x"] });
  await set(x, null, Float64Array.from({ length: n }, (_, i) => x0 + (i + 0.5) * cell));
  const y = await createArray(store, `${path}/y`, { shape: [n], dataType: "float64", dimensionNames: ["y"] });
  await set(y, null, Float64Array.from({ length: n }, (_, i) => y0 - (i + 0.5) * cell));
}

describe("migration to the conventions", () => {
  it("GeoZarr 0.4 tile matrix sets (inline, origin from the coordinates), dry run first", async () => {
    const store = new MemoryStore();
    await createGroup(store, "", {
      attributes: {
        multiscales: {
          tile_matrix_set: {
            crs: "http://www.opengis.net/def/crs/EPSG/0/32633",
            tileMatrices: [
              { id: "1", cellSize: 20, matrixWidth: 50, matrixHeight: 50 },
              { id: "0", cellSize: 10, matrixWidth: 100, matrixHeight: 100 },
              { id: "2", cellSize: 60, matrixWidth: 17, matrixHeight: 17 },
            ],
          },
          resampling_method: "average",
          tile_matrix_limits: {},
        },
      },
    });
    await level(store, "0", 100, 10, 500000, 4200000);
    await level(store, "1", 50, 20, 500000, 4200000);
    await level(store, "2", 17, 60, 500000, 4200000);
    const before = await validate(store);
    expect(before.findings.map((f) => f.rule)).toContain("multiscales.invalid");
    const keys = store.keys();
    const plan = await migrate(store, { dryRun: true });
    expect(store.keys()).toEqual(keys);
    expect((await readNodeMetadata(store, ""))?.attributes.multiscales).toHaveProperty("tile_matrix_set");
    expect(plan.changes.map((c) => [c.path, c.source])).toEqual([["", "geozarr-0.4"], ["0", "geozarr-0.4"], ["1", "geozarr-0.4"], ["2", "geozarr-0.4"]]);
    expect(plan.validation.valid).toBe(true);
    expect(plan.validation.findings).toEqual([]);
    await migrate(store);
    const after = await validate(store);
    expect(after.findings).toEqual([]);
    const ms = describeMultiscales(await loadHierarchy(store));
    expect(ms.crs?.code).toBe("EPSG:32633");
    expect(ms.levels.map((l) => [l.asset, l.derivedFrom, l.scale, l.shape, l.transform])).toEqual([
      ["0", undefined, [1, 1], [100, 100], [10, 0, 500000, 0, -10, 4200000]],
      ["1", "0", [2, 2], [50, 50], [20, 0, 500000, 0, -20, 4200000]],
      ["2", "1", [3, 3], [17, 17], [60, 0, 500000, 0, -60, 4200000]],
    ]);
    expect(ms.resamplingMethod).toBe("average");
    expect((await readNodeMetadata(store, ""))?.attributes.multiscales).toHaveProperty("tile_matrix_set");
  });

  it("a well-known WebMercatorQuad and an ndpyramid pyramid", async () => {
    const tms = new MemoryStore();
    await createGroup(tms, "", { attributes: { multiscales: [{ tile_matrix_set: "WebMercatorQuad", resampling_method: "nearest" }] } });
    for (const z of [0, 1]) {
      await createGroup(tms, String(z));
      await createArray(tms, `${z}/v`, { shape: [256 * 2 ** z, 256 * 2 ** z], dataType: "uint8", dimensionNames: ["y", "x"] });
    }
    const t = await migrate(tms);
    expect(t.notes).toEqual([]);
    const ms = describeMultiscales(await loadHierarchy(tms));
    expect(ms.crs?.code).toBe("EPSG:3857");
    expect(ms.levels.map((l) => l.asset)).toEqual(["1", "0"]);
    expect(ms.levels[0].transform).toEqual([156543.03392804097 / 2, 0, -20037508.342789244, 0, -156543.03392804097 / 2, 20037508.342789244]);
    expect(ms.bbox).toEqual([-20037508.342789244, -20037508.342789244, 20037508.342789244, 20037508.342789244]);

    const nd = new MemoryStore();
    await createGroup(nd, "", {
      attributes: {
        multiscales: [{ datasets: [{ path: "0", pixels_per_tile: 128, crs: "EPSG:3857" }, { path: "1", pixels_per_tile: 128, crs: "EPSG:3857" }], metadata: { method: "pyramid_reproject" } }],
      },
    });
    for (const z of [0, 1]) {
      await createGroup(nd, String(z));
      await createArray(nd, `${z}/tavg`, { shape: [3, 128 * 2 ** z, 128 * 2 ** z], dataType: "float32", dimensionNames: ["month", "y", "x"] });
    }
    const r = await migrate(nd);
    expect(r.changes[0].description).toContain("ndpyramid datasets → multiscales layout of 2 levels (1, 0)");
    const m2 = describeMultiscales(await loadHierarchy(nd));
    // Finest first: level "1" (256 px) then "0" (128 px), derived with scale 2.
    expect(m2.levels.map((l) => [l.asset, l.derivedFrom, l.scale, l.resolution?.[0]])).toEqual([
      ["1", undefined, [1, 1], (2 * 20037508.342789244) / 256],
      ["0", "1", [2, 2], (2 * 20037508.342789244) / 128],
    ]);
  });

  it("GDAL _CRS with coordinate arrays, and CF grid_mapping with GeoTransform", async () => {
    const gdal = new MemoryStore();
    await level(gdal, "", 40, 30, 300000, 4000000, { _CRS: { url: "http://www.opengis.net/def/crs/EPSG/0/32631" } });
    const g = await migrate(gdal);
    expect(g.changes.map((c) => [c.path, c.source])).toEqual([["", "gdal"]]);
    const h = await loadHierarchy(gdal);
    expect(effectiveGeoreference(h, "band")).toMatchObject({ crs: { code: "EPSG:32631", source: "proj" }, transform: [30, 0, 300000, 0, -30, 4000000] });
    expect((await validate(gdal)).findings.filter((f) => f.severity !== "info")).toEqual([]);

    const cf = new MemoryStore();
    await createGroup(cf, "");
    await createArray(cf, "t", { shape: [5, 6], dataType: "float32", dimensionNames: ["y", "x"], attributes: { grid_mapping: "crs" } });
    await createArray(cf, "crs", {
      shape: [],
      dataType: "int32",
      attributes: { grid_mapping_name: "latitude_longitude", crs_wkt: 'GEOGCS["WGS 84",AUTHORITY["EPSG","4326"]]', GeoTransform: "-180 0.5 0 90 0 -0.5" },
    });
    const c = await migrate(cf, { dryRun: true });
    expect(c.changes.map((x) => x.description)).toEqual([
      "write the coordinate arrays y, x (pixel centres) a Dataset needs",
      'cf georeferencing → proj (EPSG:4326) and spatial (transform, shape [5, 6]) for the 1 spatial variable(s)',
    ]);
    expect(c.validation.findings.filter((f) => f.severity === "error")).toEqual([]);
    expect(c.changes[1].set).toMatchObject({ "proj:code": "EPSG:4326", "spatial:transform": [0.5, 0, -180, 0, -0.5, 90], "spatial:shape": [5, 6] });
    expect(cf.keys().some((k) => k.startsWith("x/"))).toBe(false);
    await migrate(cf);
    expect((await values(cf, "x")).data).toEqual([-179.75, -179.25, -178.75, -178.25, -177.75, -177.25]);
    expect((await values(cf, "y")).data).toEqual([89.75, 89.25, 88.75, 88.25, 87.75]);
    expect((await validate(cf)).findings.filter((f) => f.severity === "error")).toEqual([]);
  });

  it("the EOPF products: STAC-georeferenced masks get the conventions; declared groups are left alone", async () => {
    const store = await storeFromDump(fixture("eopf-sentinel2", "S2A_MSIL2A_20251008T100041_N0511_R122_T32TQM_20251008T122613.json"));
    const plan = await migrate(store, { dryRun: true, removeLegacy: true });
    const paths = plan.changes.filter((c) => c.set.zarr_conventions !== undefined).map((c) => c.path);
    expect(paths).toContain("conditions/mask/detector_footprint/r10m");
    expect(paths.some((p) => p.startsWith("measurements/reflectance"))).toBe(false);
    const r10 = plan.changes.find((c) => c.path === "conditions/mask/detector_footprint/r10m");
    expect(r10?.set).toMatchObject({ "proj:code": "EPSG:32632", "spatial:transform": [10, 0, 699960, 0, -10, 4700040], "spatial:shape": [10980, 10980] });
    const removals = plan.changes.filter((c) => c.remove.includes("proj:epsg"));
    expect(removals.length).toBeGreaterThan(0);
    // What is left are the two quirks migration cannot fix: different variables per level and 0-d CF variables.
    const left = (r: Awaited<ReturnType<typeof validate>>) => [...new Set(r.findings.map((f) => f.rule))].sort();
    expect(left(plan.validation)).toEqual(["dataarray.scalar-auxiliary", "multiscales.variables-differ"]);
    // Levels now carry explicit transforms; r720m's is derived through its scale chain.
    const ms = plan.changes.find((c) => c.path === "measurements/reflectance")?.set.multiscales as { layout: JsonObject[] };
    expect(ms.layout.map((l) => (l["spatial:transform"] as number[])[0])).toEqual([10, 20, 60, 120, 360, 360 * (305 / 152)]);
    await migrate(store, { removeLegacy: true });
    const applied = await validate(store);
    expect(left(applied)).toEqual(left(plan.validation));
    expect(applied.counts).toEqual(plan.validation.counts);
  });

  describe("older declarations upgraded to the mini-spec's form (dry run first)", () => {
    const T: number[] = [10, 0, 500000, 0, -10, 5000000];
    const v01 = CONVENTION_ENTRIES_BY_VERSION["v0.1"];
    /** A Dataset group of `attributes` with a 4×5 band (no coordinate arrays: the transform georeferences it). */
    async function store(attributes: JsonObject): Promise<MemoryStore> {
      const s = new MemoryStore();
      await createGroup(s, "", { attributes });
      await createArray(s, "b", { shape: [4, 5], dataType: "uint8", dimensionNames: ["Y", "X"] });
      return s;
    }
    const v1Dataset = { zarr_conventions: [CONVENTION_ENTRIES.proj, CONVENTION_ENTRIES.spatial], "proj:code": "EPSG:32633", "spatial:dimensions": ["Y", "X"], "spatial:transform": T };
    const GEO_PROJ_010 = {
      version: "0.1.0",
      schema: "https://raw.githubusercontent.com/zarr-experimental/geo-proj/refs/tags/v0.1.0/schema.json",
      name: "geo-proj",
      description: "Coordinate reference system information for geospatial data",
      spec: "https://github.com/zarr-experimental/geo-proj/blob/v0.1.0/README.md",
    };
    /** Name, attributes, the change's source, and what validation says before (severity rule, infos aside). */
    const SOURCES: Array<[string, JsonObject, string, string[]]> = [
      // v0.1 and branch heads are accepted as they are: migrating only writes the mini-spec's form.
      ["v0.1 declarations", { ...v1Dataset, zarr_conventions: [v01.proj, v01.spatial] }, "conventions", []],
      [
        "branch heads and the v0 tag",
        {
          ...v1Dataset,
          zarr_conventions: [
            { uuid: CONVENTION_UUIDS.proj, schema_url: "https://raw.githubusercontent.com/zarr-experimental/geo-proj/refs/heads/main/schema.json", name: "proj:" },
            { uuid: CONVENTION_UUIDS.spatial, spec_url: "https://github.com/zarr-conventions/spatial/blob/v0/README.md", name: "spatial" },
          ],
        },
        "conventions",
        [],
      ],
      [
        "geo-proj 0.1.0: object-form declaration with proj: keys at the root",
        { zarr_conventions: { [CONVENTION_UUIDS.proj]: GEO_PROJ_010 }, "proj:code": "EPSG:32633", "proj:spatial_dimensions": ["Y", "X"], "proj:transform": T },
        "geo-proj-0.1.0",
        // The validator does not read the 0.1.0 fields as georeferencing: it says to migrate.
        // Declaring proj alone, the group is no Dataset (an info), so no Dataset rule applies.
        ["warning conventions.superseded-form", "warning proj.legacy-keys"],
      ],
      [
        "geo-proj 0.1.0: the geo dictionary",
        { zarr_conventions: { [CONVENTION_UUIDS.proj]: GEO_PROJ_010 }, geo: { proj: { version: "0.1.0", code: "EPSG:32633", spatial_dimensions: ["Y", "X"], transform: [...T, 0, 0, 1] } } },
        "geo-proj-0.1.0",
        // The CRS in geo.proj satisfies geo-proj 0.1.0 (no proj.missing-crs); declaring proj
        // alone, the group is no Dataset, so no Dataset rule applies.
        [...Array(2).fill("warning conventions.superseded-form")],
      ],
      ["geo-proj 0.1.0: the geo dictionary without a declaration", { geo: { proj: { code: "EPSG:32633", spatial_dimensions: ["Y", "X"], transform: T } } }, "geo-proj-0.1.0", ["warning conventions.superseded-form"]],
      ["v1 with two CRS fields", { ...v1Dataset, "proj:wkt2": 'PROJCRS["WGS 84 / UTM zone 33N",ID["EPSG",32633]]' }, "conventions", ["error proj.multiple-crs"]],
    ];

    it.each(SOURCES)("%s", async (_name, attributes, source, before) => {
      const s = await store(attributes);
      const found = (await validate(s)).findings.filter((f) => f.severity !== "info").map((f) => `${f.severity} ${f.rule}`);
      expect(found.sort()).toEqual(before);
      const keys = s.keys();
      const metadata = await readNodeMetadata(s, "");
      const plan = await migrate(s, { dryRun: true });
      expect(s.keys()).toEqual(keys);
      expect(await readNodeMetadata(s, "")).toEqual(metadata);
      expect(plan.changes.map((c) => [c.path, c.source])).toEqual([["", source]]);
      expect(plan.validation.findings).toEqual([]);
      await migrate(s);
      const after = (await readNodeMetadata(s, ""))?.attributes as JsonObject;
      // Exactly the mini-spec's Dataset attributes.
      expect(after).toEqual(v1Dataset);
      expect((await validate(s)).findings).toEqual([]);
      // Migrating again changes nothing.
      expect((await migrate(s, { dryRun: true })).changes).toEqual([]);
    });

    it("to v0.1 on request, and notes what v1 cannot hold", async () => {
      const s = await store(v1Dataset);
      const plan = await migrate(s, { conventions: "v0.1" });
      expect(plan.changes.map((c) => c.description)).toEqual(["declarations proj v1 \"proj:\", spatial v1 \"spatial:\" → v0.1"]);
      expect((await readNodeMetadata(s, ""))?.attributes.zarr_conventions).toEqual([v01.proj, v01.spatial]);
      expect((await validate(s)).findings).toEqual([]);
      const crs84 = await store({ ...v1Dataset, zarr_conventions: [v01.proj, v01.spatial], "proj:code": "OGC:CRS84" });
      const r = await migrate(crs84, { dryRun: true });
      expect(r.notes[0]).toContain('proj:code "OGC:CRS84" has no v1 form');
      expect(r.changes[0].set).not.toHaveProperty("proj:code");
    });
  });
});
