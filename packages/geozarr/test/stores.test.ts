/**
 * A table of small valid and invalid GeoZarr stores with known CRS, levels and shapes:
 * each is classified (valid or not) with exactly the expected error rule ids.
 */
import type { JsonObject } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import {
  CONVENTION_ENTRIES,
  datasetAttributes,
  describeMultiscales,
  effectiveGeoreference,
  findMultiscales,
  loadHierarchy,
  multiscalesAttributes,
  projAttributes,
  validate,
  withConventions,
} from "../src/index.js";
import { array, group, writeDocs } from "./helpers.js";

const T10: [number, number, number, number, number, number] = [10, 0, 500000, 0, -10, 5000000];
const ds = (shape: [number, number] = [100, 80], extra: JsonObject = {}) =>
  ({ ...datasetAttributes({ crs: { code: "EPSG:32633" }, spatial: { dimensions: ["y", "x"], transform: T10, shape } }), ...extra });

/** A valid single-level Dataset at `prefix` with variable b04. */
function datasetDocs(prefix: string, shape: [number, number] = [100, 80], attributes: JsonObject = ds(shape)): Record<string, JsonObject> {
  const p = (n: string) => (prefix === "" ? n : `${prefix}/${n}`);
  return {
    [prefix]: group(attributes),
    [p("b04")]: array([...shape], ["y", "x"]),
    [p("y")]: array([shape[0]], ["y"], {}, "float64"),
    [p("x")]: array([shape[1]], ["x"], {}, "float64"),
  };
}

/** A valid 3-level Multiscale Dataset (100×80 → 50×40 → 25×20). */
function pyramidDocs(mutate: (levels: JsonObject[]) => void = () => {}): Record<string, JsonObject> {
  const shapes: [number, number][] = [[100, 80], [50, 40], [25, 20]];
  const levels = shapes.map((shape, i) => ({
    asset: String(i),
    ...(i > 0 ? { derivedFrom: String(i - 1), scale: [2, 2] } : { scale: [1, 1] }),
    shape,
    transform: [10 * 2 ** i, 0, 500000, 0, -10 * 2 ** i, 5000000] as [number, number, number, number, number, number],
  }));
  const root = multiscalesAttributes({ levels, resamplingMethod: "average", crs: { code: "EPSG:32633" }, spatial: { dimensions: ["y", "x"] } });
  mutate((root.multiscales as JsonObject).layout as JsonObject[]);
  let docs: Record<string, JsonObject> = { "": group(root) };
  shapes.forEach((shape, i) => {
    docs = { ...docs, ...datasetDocs(String(i), shape, {}) };
  });
  return docs;
}

interface Case {
  name: string;
  /** Applied to the documents before writing them. */
  mutate?: (docs: Record<string, JsonObject>) => void;
  docs: Record<string, JsonObject>;
  errors: string[];
  crs?: string;
  levels?: Array<[string, [number, number]]>;
}

const CASES: Case[] = [
  { name: "a Dataset", docs: datasetDocs(""), errors: [], crs: "EPSG:32633" },
  {
    name: "a pyramid",
    docs: pyramidDocs(),
    errors: [],
    crs: "EPSG:32633",
    levels: [["0", [100, 80]], ["1", [50, 40]], ["2", [25, 20]]],
  },
  { name: "proj:code malformed", docs: datasetDocs("", [100, 80], ds([100, 80], { "proj:code": "32633" })), errors: ["proj.code-format", "dataset.georeferencing-missing"] },
  {
    name: "proj declared without a CRS",
    docs: datasetDocs("", [100, 80], { zarr_conventions: [CONVENTION_ENTRIES.proj, CONVENTION_ENTRIES.spatial], "spatial:dimensions": ["y", "x"] }),
    errors: ["proj.missing-crs", "dataset.georeferencing-missing"],
  },
  { name: "spatial:shape disagrees with the arrays", docs: datasetDocs("", [100, 80], ds([90, 80])), errors: ["spatial.shape-mismatch"], crs: "EPSG:32633" },
  { name: "spatial:transform of five numbers", docs: datasetDocs("", [100, 80], ds([100, 80], { "spatial:transform": [1, 0, 0, 0, -1] })), errors: ["spatial.transform-invalid"] },
  { name: "spatial:dimensions of three names", docs: datasetDocs("", [100, 80], ds([100, 80], { "spatial:dimensions": ["t", "y", "x"] })), errors: ["spatial.dimensions-invalid"] },
  {
    name: "a spatial dimension the array lacks",
    docs: { ...datasetDocs(""), b04: array([100, 80], ["y", "x"], { "spatial:dimensions": ["lat", "x"], zarr_conventions: [CONVENTION_ENTRIES.spatial] }) },
    errors: ["spatial.dimensions-not-in-array"],
  },
  { name: "registration neither pixel nor node", docs: datasetDocs("", [100, 80], ds([100, 80], { "spatial:registration": "area" })), errors: ["spatial.registration-invalid"] },
  {
    name: "no coordinate arrays: spatial:transform georeferences y and x",
    docs: (() => { const d = datasetDocs(""); delete d.x; delete d.y; return d; })(),
    errors: [],
    crs: "EPSG:32633",
  },
  {
    name: "a missing coordinate array without spatial:transform",
    docs: (() => { const a = ds(); delete a["spatial:transform"]; const d = datasetDocs("", [100, 80], a); delete d.x; return d; })(),
    errors: ["dataset.coordinate-missing"],
  },
  { name: "a missing coordinate array for a non-spatial dimension", docs: { ...datasetDocs(""), b05: array([3, 100, 80], ["band", "y", "x"]) }, errors: ["dataset.coordinate-missing"] },
  { name: "a coordinate of the wrong length", docs: { ...datasetDocs(""), x: array([81], ["x"]) }, errors: ["dataset.coordinate-mismatch"] },
  { name: "a scalar array", docs: { ...datasetDocs(""), flag: array([], null) }, errors: ["dataarray.scalar"] },
  { name: "unnamed dimensions", docs: { ...datasetDocs(""), b05: array([100, 80], null) }, errors: ["dataarray.dimension-names-missing"] },
  { name: "duplicate dimension names", docs: { ...datasetDocs(""), b05: array([100, 100], ["y", "y"]) }, errors: ["dataarray.dimension-names-duplicate"] },
  { name: "a level that does not exist", docs: (() => { const d = pyramidDocs(); for (const k of ["2", "2/b04", "2/x", "2/y"]) delete d[k]; return d; })(), errors: ["multiscales.asset-missing"] },
  { name: "derived_from cycle", docs: pyramidDocs((l) => { l[0].derived_from = "2"; l[0].transform = { scale: [0.25, 0.25] }; }), errors: ["multiscales.derived-from-cycle"] },
  { name: "derived_from an unknown level", docs: pyramidDocs((l) => { l[2].derived_from = "9"; }), errors: ["multiscales.derived-from-unknown"] },
  { name: "derived_from without transform", docs: pyramidDocs((l) => { delete l[1].transform; }), errors: ["multiscales.transform-missing"] },
  { name: "an absolute scale where a relative one belongs", docs: pyramidDocs((l) => { l[2].transform = { scale: [4, 4], translation: [0, 0] }; }), errors: ["multiscales.scale-inconsistent", "multiscales.scale-inconsistent"] },
  { name: "a level's spatial:shape disagrees with its arrays", docs: pyramidDocs((l) => { l[1]["spatial:shape"] = [51, 40]; }), errors: ["multiscales.shape-mismatch"] },
  { name: "an asset with ..", docs: pyramidDocs((l) => { l[2].asset = "../2"; }), errors: ["multiscales.asset-invalid"] },
  { name: "a layout that is empty", docs: { "": group({ ...multiscalesAttributes({ levels: [{ asset: "0" }] }), multiscales: { layout: [] } }) }, errors: ["multiscales.invalid"] },
  {
    // Not a Multiscale Dataset (an info says so), but a correct use of multiscales and proj.
    name: "a geospatial pyramid that does not declare spatial",
    docs: (() => { const d = pyramidDocs(); const a = d[""].attributes as JsonObject; a.zarr_conventions = (a.zarr_conventions as JsonObject[]).filter((e) => e.name !== "spatial:"); return d; })(),
    errors: [],
    crs: "EPSG:32633",
  },
  // Convention attributes are checked on every node that declares them, in a Dataset or not.
  {
    name: "an array outside any Dataset declaring proj with proj:code epsg:4326",
    docs: { "": group(), a: array([4, 5], ["y", "x"], projAttributes({ code: "EPSG:4326" }, { conventions: "v1" })) },
    errors: ["proj.code-format"],
    mutate: (d) => { (d.a.attributes as JsonObject)["proj:code"] = "epsg:4326"; },
  },
  {
    name: "an array outside any Dataset with proj:code and proj:wkt2",
    docs: { "": group(), a: array([4, 5], ["y", "x"], { ...projAttributes({ code: "EPSG:4326" }), "proj:wkt2": 'GEOGCRS["WGS 84",ID["EPSG",4326]]' }) },
    errors: ["proj.multiple-crs"],
  },
  {
    name: "the same array declaring proj v0.1 (several CRS fields and OGC:CRS84 allowed)",
    docs: { "": group(), a: array([4, 5], ["y", "x"], { ...projAttributes({ code: "OGC:CRS84" }, { conventions: "v0.1" }), "proj:wkt2": 'GEOGCRS["WGS 84",ID["OGC","CRS84"]]' }) },
    errors: [],
  },
  {
    name: "an array outside any Dataset declaring spatial without spatial:dimensions",
    docs: { "": group(), a: array([4, 5], ["y", "x"], withConventions({ "spatial:transform": [1, 0, 0, 0, -1, 0] }, ["spatial"])) },
    errors: ["spatial.dimensions-missing"],
  },
  {
    name: "an array declaring spatial whose group gives spatial:dimensions",
    docs: { "": group({ "spatial:dimensions": ["y", "x"], ...withConventions({}, ["spatial"]) }), a: array([4, 5], ["y", "x"], withConventions({ "spatial:transform": [1, 0, 0, 0, -1, 0] }, ["spatial"])) },
    // No spatial.dimensions-missing; declaring spatial alone, the group is no Dataset, so
    // no Dataset rule (such as dataset.georeferencing-missing) applies.
    errors: [],
  },
  {
    name: "an array declaring proj whose group gives the CRS",
    docs: { "": group(projAttributes({ code: "EPSG:4326" })), a: array([4, 5], ["y", "x"], withConventions({}, ["proj"])), y: array([4], ["y"]), x: array([5], ["x"]) },
    errors: [],
    crs: "EPSG:4326",
  },
  {
    name: "a v1 array inheriting nothing: proj declared without a CRS",
    docs: { "": group(), a: array([4, 5], ["y", "x"], withConventions({}, ["proj"])) },
    errors: ["proj.missing-crs"],
  },
  {
    name: "an array under a v0.1 group: the group's version applies to the array's proj keys",
    docs: {
      "": group(projAttributes({ code: "OGC:CRS84" }, { conventions: "v0.1" })),
      a: array([4, 5], ["y", "x"], { "proj:code": "OGC:CRS84" }),
      y: array([4], ["y"]),
      x: array([5], ["x"]),
    },
    errors: [],
  },
  {
    name: "a geo-proj 0.1.0 geo dictionary with a code that is not LETTERS:DIGITS",
    docs: { "": group(), a: array([4, 5], ["y", "x"], { geo: { proj: { code: "epsg:4326", spatial_dimensions: ["y", "x"] } } }) },
    errors: ["proj.code-format"],
  },
  {
    name: "a root array (a DataArray on its own) with duplicate dimension names",
    docs: { "": array([4, 5], ["y", "y"]) },
    errors: ["dataarray.dimension-names-duplicate"],
  },
  {
    name: "legacy georeferencing only (GDAL _CRS, xarray dims)",
    docs: {
      "": group(),
      b04: array([100, 80], null, { _ARRAY_DIMENSIONS: ["y", "x"], _CRS: { url: "http://www.opengis.net/def/crs/EPSG/0/32631" } }),
      y: array([100], ["y"]),
      x: array([80], ["x"]),
    },
    errors: [],
    crs: "EPSG:32631",
  },
];

describe("classifying stores", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const docs = structuredClone(c.docs);
    c.mutate?.(docs);
    const store = await writeDocs(docs);
    const report = await validate(store);
    const errors = report.findings.filter((f) => f.severity === "error").map((f) => f.rule).sort();
    expect(errors).toEqual(c.errors.slice().sort());
    expect(report.valid).toBe(c.errors.length === 0);
    const h = await loadHierarchy(store);
    const arr = h.all().find((n) => n.name === "b04");
    if (c.crs !== undefined && arr !== undefined) expect(effectiveGeoreference(h, arr.path).crs?.code ?? undefined).toBe(c.crs);
    if (c.levels !== undefined) {
      const ms = describeMultiscales(h, findMultiscales(h)[0]);
      expect(ms.levels.map((l) => [l.asset, l.shape])).toEqual(c.levels);
    }
    for (const f of report.findings) {
      expect(f.pointer === "" || f.pointer.startsWith("/")).toBe(true);
      expect(h.node(f.path)).toBeDefined();
    }
  });
});
