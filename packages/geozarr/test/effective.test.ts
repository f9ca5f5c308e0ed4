import { describe, expect, it } from "vitest";
import { CONVENTION_ENTRIES, effectiveGeoreference, gridExtent, hierarchyFromDump, loadHierarchy, pixelCenter } from "../src/index.js";
import { array, group, writeDocs } from "./helpers.js";

const P = CONVENTION_ENTRIES.proj;
const S = CONVENTION_ENTRIES.spatial;
const WKT = 'PROJCS["WGS 84 / UTM zone 31N",GEOGCS["WGS 84"],AUTHORITY["EPSG","32631"]]';

describe("effective georeferencing", () => {
  it("takes the CRS whole from the nearest source and merges spatial fields one by one", async () => {
    const store = await writeDocs({
      "": group({ zarr_conventions: [P, S], "proj:code": "EPSG:32633", "proj:wkt2": 'PROJCRS["x",ID["EPSG",32633]]', "spatial:dimensions": ["y", "x"], "spatial:transform": [10, 0, 0, 0, -10, 100], "spatial:registration": "node" }),
      a: array([10, 20], ["y", "x"], { zarr_conventions: [P, S], "proj:code": "EPSG:4326", "spatial:transform": [1, 0, 5, 0, -1, 50] }),
      b: array([10, 20], ["y", "x"]),
      "sub": group(),
      "sub/c": array([10, 20], ["y", "x"]),
    });
    const h = await loadHierarchy(store);
    const a = effectiveGeoreference(h, "a");
    // The array's own CRS replaces the group's entirely: no wkt2 leaks in from the group.
    expect(a.crs).toEqual({ code: "EPSG:4326", source: "proj", from: "a" });
    expect(a.transform).toEqual([1, 0, 5, 0, -1, 50]);
    expect(a.dimensions).toEqual(["y", "x"]);
    expect(a.registration).toBe("node");
    expect(a.provenance.dimensions).toMatchObject({ from: "", origin: "parent" });
    const b = effectiveGeoreference(h, "b");
    expect(b.crs?.wkt2).toContain("PROJCRS");
    expect(b.transform).toEqual([10, 0, 0, 0, -10, 100]);
    // Node registration: samples on the nodes, footprint half a cell beyond them.
    expect(b.extent).toEqual([-5, 5, 195, 105]);
    expect(pixelCenter(b, 0, 0)).toEqual([0, 100]);
    // Groups give defaults to their direct child arrays only.
    const c = effectiveGeoreference(h, "sub/c");
    expect(c.crs).toBeUndefined();
    expect(c.dimensions).toEqual(["y", "x"]);
    expect(c.provenance.dimensions?.origin).toBe("inferred");
  });

  it("reads GDAL _CRS, CF grid_mapping (crs_wkt, spatial_ref, GeoTransform), STAC proj:epsg and _ARRAY_DIMENSIONS", () => {
    const h = hierarchyFromDump({
      node_type: "group",
      attributes: {},
      members: {
        gdal: { ...array([4, 5, 6], null, { _ARRAY_DIMENSIONS: ["band", "Y", "X"], _CRS: { wkt: WKT } }), members: undefined } as never,
        gdalstr: array([5, 6], null, { _ARRAY_DIMENSIONS: ["lat", "lon"], _CRS: "EPSG:4326" }) as never,
        cf: array([5, 6], ["y", "x"], { grid_mapping: "crs" }) as never,
        crs: array([], null, { grid_mapping_name: "transverse_mercator", crs_wkt: WKT, GeoTransform: "300000 30 0 4000000 0 -30" }) as never,
        cf2: array([5, 6], ["y", "x"], { grid_mapping: "spatial_ref: y x" }) as never,
        spatial_ref: array([], null, { spatial_ref: WKT }) as never,
        stac: array([5, 6], ["y", "x"], { "proj:epsg": 32632, "proj:transform": [20, 0, 1, 0, -20, 2, 0, 0, 1], "proj:shape": [5, 6] }) as never,
        stale: array([5, 6], ["y", "x"], { "proj:epsg": 32632, "proj:transform": [20, 0, 1, 0, -20, 2], "proj:shape": [50, 60] }) as never,
      },
    });
    const gdal = effectiveGeoreference(h, "gdal");
    expect(gdal.crs).toMatchObject({ wkt2: WKT, source: "gdal:_CRS" });
    expect(gdal.dimensions).toEqual(["Y", "X"]);
    expect(gdal.roles).toEqual({ y: 1, x: 2, others: [0], assumed: false });
    expect(effectiveGeoreference(h, "gdalstr").crs).toMatchObject({ code: "EPSG:4326", source: "gdal:_CRS" });
    const cf = effectiveGeoreference(h, "cf");
    expect(cf.crs).toMatchObject({ wkt2: WKT, source: "cf:grid_mapping", from: "crs" });
    expect(cf.transform).toEqual([30, 0, 300000, 0, -30, 4000000]);
    expect(cf.provenance.transform?.detail).toBe("GeoTransform (CF grid mapping)");
    expect(effectiveGeoreference(h, "cf2").crs).toMatchObject({ source: "cf:grid_mapping", from: "spatial_ref" });
    const stac = effectiveGeoreference(h, "stac");
    expect(stac.crs).toMatchObject({ code: "EPSG:32632", source: "stac:proj:epsg" });
    expect(stac.transform).toEqual([20, 0, 1, 0, -20, 2]);
    const stale = effectiveGeoreference(h, "stale");
    expect(stale.transform).toBeUndefined();
    expect(stale.notes[0]).toContain("[50, 60]");
  });

  it("handles rotated transforms: extents from all four corners", () => {
    const t = [Math.cos(Math.PI / 6) * 10, Math.sin(Math.PI / 6) * 10, 1000, Math.sin(Math.PI / 6) * 10, -Math.cos(Math.PI / 6) * 10, 2000] as const;
    const e = gridExtent(t, [30, 40]);
    const corners = [[0, 0], [40, 0], [0, 30], [40, 30]].map(([c, r]) => [t[0] * c + t[1] * r + t[2], t[3] * c + t[4] * r + t[5]]);
    expect(e[0]).toBeCloseTo(Math.min(...corners.map((p) => p[0])), 9);
    expect(e[3]).toBeCloseTo(Math.max(...corners.map((p) => p[1])), 9);
  });
});
