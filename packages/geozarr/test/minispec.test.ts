/**
 * The mini-spec's JSON examples are normative: each, as a store, validates with no error
 * and no warning; each changed in a way the mini-spec forbids fails with the expected rule.
 */
import type { JsonObject } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { CONVENTION_ENTRIES, validate } from "../src/index.js";
import { writeDocs } from "./helpers.js";
import { exampleMarkers, exampleStoreDocs, miniSpecExamples, miniSpecText } from "./minispec.js";

const EXAMPLES = miniSpecExamples();

describe("the mini-spec's examples", () => {
  it("are all found: one per json block of the text", () => {
    const text = miniSpecText();
    expect(EXAMPLES.length).toBe(exampleMarkers(text).length);
    // Cross-check with a second count: every example has a root or an array document.
    expect((text.match(/^"zarr\.json": \{$/gm) ?? []).length).toBe(EXAMPLES.length);
    expect(EXAMPLES.map((e) => [e.title, Object.keys(e.docs)])).toEqual([
      ["Array metadata", [""]],
      ["Members", ["", "red", "nir"]],
      ["Members", ["", "lat"]],
      ["Simple Power-of-2 Pyramid", [""]],
      ["Sentinel-2 Multi-Resolution Pyramid", [""]],
    ]);
  });

  it("declare the conventions with exactly the entries this package writes", () => {
    for (const e of EXAMPLES) {
      for (const entry of ((e.docs[""]?.attributes as JsonObject | undefined)?.zarr_conventions ?? []) as JsonObject[]) {
        const known = Object.values(CONVENTION_ENTRIES).find((c) => c.uuid === entry.uuid);
        expect(entry).toEqual(known);
      }
    }
  });

  it.each(EXAMPLES.map((e) => [`${e.index} ${e.title}`, e] as const))("%s validates with no error and no warning", async (_name, example) => {
    const report = await validate(await writeDocs(exampleStoreDocs(example)));
    expect(report.findings.filter((f) => f.severity !== "info")).toEqual([]);
    expect(report.valid).toBe(true);
    // The pyramids' bboxes are not the base level's extent (Power-of-2 is 100 km off in
    // ymin, Sentinel-2 20 m): the mini-spec does not ask them to agree, so it is an info.
    expect(report.findings.map((f) => `${f.rule} ${f.path} ${f.pointer}`)).toEqual(
      example.title.includes("Pyramid") ? ["spatial.bbox-mismatch  /attributes/spatial:bbox"] : [],
    );
  });
});

type Docs = Record<string, JsonObject>;
const times = (n: number, rule: string) => Array.from({ length: n }, () => rule);
const attrs = (docs: Docs, path = "") => docs[path].attributes as JsonObject;
const layout = (docs: Docs) => (attrs(docs).multiscales as { layout: JsonObject[] }).layout;
const declarations = (docs: Docs) => attrs(docs).zarr_conventions as JsonObject[];
const without = (docs: Docs, name: string) => {
  attrs(docs).zarr_conventions = declarations(docs).filter((e) => e.name !== name);
};

/** Validates the store of example `i` after `change`. */
async function validateChanged(i: number, change: (d: Docs) => void) {
  const docs = structuredClone(exampleStoreDocs(EXAMPLES[i]));
  change(docs);
  return validate(await writeDocs(docs));
}

/** Example index → the forbidden changes of it, each with the rules (severity rule) it must raise, and nothing else. */
const FORBIDDEN: Array<[number, string, (d: Docs) => void, string[]]> = [
  // DataArray.
  [0, "a scalar array", (d) => { d[""].shape = []; delete d[""].dimension_names; d[""].chunk_grid = { name: "regular", configuration: { chunk_shape: [] } }; }, ["error dataarray.scalar"]],
  [0, "no dimension_names", (d) => { delete d[""].dimension_names; }, ["error dataarray.dimension-names-missing"]],
  [0, "a null dimension name", (d) => { d[""].dimension_names = ["lat", null, "time"]; }, ["error dataarray.dimension-names-missing"]],
  [0, "duplicate dimension names", (d) => { d[""].dimension_names = ["lat", "lat", "time"]; }, ["error dataarray.dimension-names-duplicate"]],
  // Dataset: proj.
  [1, "proj:code in lowercase", (d) => { attrs(d)["proj:code"] = "epsg:32633"; }, ["error proj.code-format"]],
  [1, "proj:code not LETTERS:DIGITS", (d) => { attrs(d)["proj:code"] = "OGC:CRS84"; }, ["error proj.code-format"]],
  [1, "proj:code and proj:wkt2 both", (d) => { attrs(d)["proj:wkt2"] = 'PROJCRS["WGS 84 / UTM zone 33N",ID["EPSG",32633]]'; }, ["error proj.multiple-crs"]],
  [1, "no CRS field", (d) => { delete attrs(d)["proj:code"]; }, ["error proj.missing-crs", ...times(2, "error dataset.georeferencing-missing")]],
  // Dataset: spatial.
  [1, "no spatial:dimensions", (d) => { delete attrs(d)["spatial:dimensions"]; }, ["error spatial.dimensions-missing"]],
  [1, "spatial:dimensions of one name", (d) => { attrs(d)["spatial:dimensions"] = ["Y"]; }, ["error spatial.dimensions-invalid"]],
  [1, "spatial:dimensions the arrays lack", (d) => { attrs(d)["spatial:dimensions"] = ["lat", "lon"]; }, [...times(2, "error spatial.dimensions-not-in-array"), ...times(4, "error dataset.coordinate-missing")]],
  [1, "spatial:transform of five numbers", (d) => { attrs(d)["spatial:transform"] = [10, 0, 500000, 0, -10]; }, ["error spatial.transform-invalid", ...times(4, "error dataset.coordinate-missing"), "warning spatial.transform-missing"]],
  [1, "a spatial:transform that is not invertible", (d) => { attrs(d)["spatial:transform"] = [10, 0, 500000, 0, 0, 5000000]; }, ["error spatial.transform-degenerate", ...times(4, "error dataset.coordinate-missing"), "warning spatial.transform-missing"]],
  [1, "no spatial:transform and no coordinate arrays", (d) => { delete attrs(d)["spatial:transform"]; }, [...times(4, "error dataset.coordinate-missing"), "warning spatial.transform-missing"]],
  [1, "spatial:bbox of three numbers", (d) => { attrs(d)["spatial:bbox"] = [500000, 4900000, 600000]; }, ["error spatial.bbox-invalid"]],
  [1, "spatial:shape other than the arrays'", (d) => { attrs(d)["spatial:shape"] = [10000, 9999]; }, times(2, "error spatial.shape-mismatch")],
  [1, "spatial:shape not positive integers", (d) => { attrs(d)["spatial:shape"] = [0, 10000]; }, ["error spatial.shape-invalid"]],
  [1, "spatial:registration neither pixel nor node", (d) => { attrs(d)["spatial:registration"] = "center"; }, ["error spatial.registration-invalid"]],
  // Dataset: declarations and members.
  [1, "zarr_conventions not an array", (d) => { attrs(d).zarr_conventions = declarations(d)[0]; }, ["error conventions.not-array", "warning conventions.undeclared", "warning conventions.undeclared"]],
  [1, "an entry without uuid or URL", (d) => { for (const e of declarations(d)) { delete e.uuid; delete e.schema_url; delete e.spec_url; } }, ["error conventions.entry-invalid", "error conventions.entry-invalid", "warning conventions.undeclared", "warning conventions.undeclared"]],
  [1, "a uuid in capitals", (d) => { declarations(d)[0].uuid = (declarations(d)[0].uuid as string).toUpperCase(); }, ["error conventions.uuid-format"]],
  [1, "a data variable without dimension names", (d) => { delete d.red.dimension_names; }, ["error dataarray.dimension-names-missing"]],
  [1, "a scalar data variable", (d) => { d.red.shape = []; d.red.dimension_names = []; d.red.chunk_grid = { name: "regular", configuration: { chunk_shape: [] } }; }, ["error dataarray.scalar"]],
  [1, "a data variable with a non-spatial dimension and no coordinate", (d) => { d.red.shape = [3, 10000, 10000]; d.red.dimension_names = ["band", "Y", "X"]; d.red.chunk_grid = { name: "regular", configuration: { chunk_shape: [1, 1024, 1024] } }; }, ["error dataset.coordinate-missing"]],
  // Multiscale Dataset.
  [3, "an empty layout", (d) => { (attrs(d).multiscales as JsonObject).layout = []; }, ["error multiscales.invalid"]],
  [3, "a layout entry without asset", (d) => { delete layout(d)[1].asset; }, ["error multiscales.asset-invalid", "warning multiscales.undeclared-member"]],
  [3, "an absolute asset path", (d) => { layout(d)[1].asset = "/1"; }, ["error multiscales.asset-invalid", "warning multiscales.undeclared-member"]],
  [3, "derived_from without transform", (d) => { delete layout(d)[1].transform; }, ["error multiscales.transform-missing"]],
  [3, "derived_from an unknown level", (d) => { layout(d)[1].derived_from = "9"; }, ["error multiscales.derived-from-unknown"]],
  [3, "a level derived from itself", (d) => { layout(d)[0].derived_from = "1"; }, ["error multiscales.derived-from-cycle", "error multiscales.scale-inconsistent", "error multiscales.scale-inconsistent"]],
  [3, "a scale that disagrees with the levels", (d) => { layout(d)[1].transform = { scale: [4, 4], translation: [0, 0] }; }, ["error multiscales.scale-inconsistent", "error multiscales.scale-inconsistent"]],
  [3, "a level's spatial:shape other than its arrays'", (d) => { layout(d)[1]["spatial:shape"] = [512, 500]; }, ["error multiscales.shape-mismatch", "error multiscales.scale-inconsistent"]],
  [3, "a level that does not exist", (d) => { delete d["1"]; delete d["1/band"]; }, ["error multiscales.asset-missing"]],
  [3, "no spatial:dimensions", (d) => { delete attrs(d)["spatial:dimensions"]; }, ["error spatial.dimensions-missing"]],
  [4, "a level without a variable the others hold", (d) => { delete d["r60m/B08"]; }, ["warning multiscales.variables-differ"]],
  [4, "a member that is not a level", (d) => { d.extra = { zarr_format: 3, node_type: "group", attributes: {} }; }, ["warning multiscales.undeclared-member"]],
  [4, "an absolute scale where a relative one belongs", (d) => { layout(d)[3].transform = { scale: [12, 12], translation: [0, 0] }; }, ["error multiscales.scale-inconsistent", "error multiscales.scale-inconsistent"]],
];

describe("the mini-spec's examples changed in the ways it forbids", () => {
  it.each(FORBIDDEN.map(([i, what, change, rules]) => [`${EXAMPLES[i].title}: ${what}`, i, change, rules] as const))("%s", async (_name, i, change, rules) => {
    const report = await validateChanged(i, change);
    const found = report.findings.filter((f) => f.severity !== "info").map((f) => `${f.severity} ${f.rule}`);
    expect(found.sort()).toEqual([...rules].sort());
    expect(report.valid).toBe(!rules.some((r) => r.startsWith("error")));
  });
});

/**
 * Example index → changes after which the example no longer qualifies as a (Multiscale)
 * Dataset: the keys are used without their declaration (a warning), an info says what is
 * not declared, and no Dataset or Multiscale Dataset rule applies, so the store stays valid.
 */
const NOT_QUALIFYING: Array<[number, string, (d: Docs) => void, string]> = [
  [1, "proj used but not declared", (d) => without(d, "proj:"), "dataset.incomplete-conventions"],
  [1, "spatial used but not declared", (d) => without(d, "spatial:"), "dataset.incomplete-conventions"],
  [3, "proj not declared", (d) => without(d, "proj:"), "multiscales.conventions-missing"],
  [3, "spatial not declared", (d) => without(d, "spatial:"), "multiscales.conventions-missing"],
  [3, "multiscales not declared", (d) => without(d, "multiscales"), "multiscales.conventions-missing"],
  [4, "proj and spatial not declared", (d) => { without(d, "proj:"); without(d, "spatial:"); }, "multiscales.not-geospatial"],
];

describe("the mini-spec's examples changed so that they no longer qualify", () => {
  it.each(NOT_QUALIFYING.map(([i, what, change, info]) => [`${EXAMPLES[i].title}: ${what}`, i, change, info] as const))("%s", async (_name, i, change, info) => {
    const report = await validateChanged(i, change);
    const undeclared = report.findings.filter((f) => f.severity !== "info").map((f) => `${f.severity} ${f.rule}`);
    expect(undeclared.length).toBeGreaterThan(0);
    expect(new Set(undeclared)).toEqual(new Set(["warning conventions.undeclared"]));
    expect(report.findings.filter((f) => f.path === "" && f.rule === info).map((f) => f.severity)).toEqual(["info"]);
    expect(report.valid).toBe(true);
    expect(report.multiscales).toEqual([]);
  });
});

