/**
 * The conventions' own examples, validated as documents and, where a hierarchy makes
 * sense, materialised into stores. The expected findings are the ones documented in
 * README.md ("What the validator says about the published examples").
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { JsonObject } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import { describeMultiscales, loadHierarchy, validate, validateDocument } from "../src/index.js";
import { array, fixture, group, writeDocs } from "./helpers.js";

/** Findings per example as `severity rule pointer`, sorted. */
const DOCUMENTED: Record<string, string[]> = {
  "conventions-meta/composability.json": [
    "info multiscales.conventions-missing /attributes/zarr_conventions",
    "warning proj.legacy-keys /attributes/multiscales/layout/0/proj:shape",
    "warning proj.legacy-keys /attributes/multiscales/layout/0/proj:transform",
    "warning proj.legacy-keys /attributes/multiscales/layout/1/proj:shape",
    "warning proj.legacy-keys /attributes/multiscales/layout/1/proj:transform",
    "warning proj.legacy-keys /attributes/multiscales/layout/2/proj:shape",
    "warning proj.legacy-keys /attributes/multiscales/layout/2/proj:transform",
    "warning proj.legacy-keys /attributes/proj:bbox",
  ],
  "conventions-meta/minimal.json": ["info conventions.unknown /attributes/zarr_conventions/0"],
  "conventions-meta/projection.json": ["info dataset.incomplete-conventions /attributes/zarr_conventions", "warning proj.legacy-keys /attributes/proj:transform"],
  "multiscales/array-based-pyramid.json": [ "info multiscales.not-geospatial /attributes/zarr_conventions"],
  "multiscales/custom-pyramid-levels.json": [ "info multiscales.not-geospatial /attributes/zarr_conventions"],
  "multiscales/dem-multiresolution.json": [],
  "multiscales/geospatial-pyramid.json": [],
  "multiscales/power-of-2-pyramid.json": [ "info multiscales.not-geospatial /attributes/zarr_conventions"],
  "multiscales/sentinel-2-multiresolution.json": ["info spatial.bbox-mismatch /attributes/spatial:bbox"],
  "proj/epsg26711.json": [],
  "proj/epsg3587.json": [],
  "proj/multiscales.json": ["info spatial.bbox-mismatch /attributes/spatial:bbox"],
  "proj/wkt2.json": [],
  "spatial/multiscales.json": [],
  "spatial/proj.json": [],
};

function summary(findings: { severity: string; rule: string; pointer: string }[]): string[] {
  return findings.map((f) => `${f.severity} ${f.rule} ${f.pointer}`).sort();
}

describe("the published examples as documents", () => {
  const dir = join(fixturesDir(), "geozarr", "examples");
  const files = readdirSync(dir).flatMap((sub) => readdirSync(join(dir, sub)).map((f) => `${sub}/${f}`));

  it("covers every example", () => {
    expect(files.sort()).toEqual(Object.keys(DOCUMENTED).sort());
  });

  it.each(Object.entries(DOCUMENTED))("%s", (file, expected) => {
    const r = validateDocument(fixture("examples", ...file.split("/")));
    expect(summary(r.findings)).toEqual(expected.slice().sort());
    expect(r.valid).toBe(!expected.some((e) => e.startsWith("error")));
    for (const f of r.findings) expect(f.message.length).toBeGreaterThan(20);
  });

  it("says how to fix what it finds", () => {
    const r = validateDocument(fixture("examples", "multiscales", "sentinel-2-multiresolution.json"));
    const bbox = r.findings.find((f) => f.rule === "spatial.bbox-mismatch");
    expect(bbox?.message).toContain("[500000, 4890200, 609800, 5000000]");
    const c = validateDocument(fixture("examples", "conventions-meta", "composability.json"));
    expect(c.findings.find((f) => f.rule === "multiscales.conventions-missing")?.message).toContain("spatial is not declared");
  });
});

/** A Multiscale Dataset store from an example's root document and per-level shapes. */
async function materialise(root: JsonObject, shapes: Record<string, [number, number]>, dims: [string, string] = ["Y", "X"]) {
  const docs: Record<string, JsonObject> = { "": { zarr_format: 3, node_type: "group", attributes: root.attributes as JsonObject } };
  for (const [asset, [h, w]] of Object.entries(shapes)) {
    const parts = asset.split("/");
    const arrayLevel = parts.length > 1;
    const levelGroup = arrayLevel ? parts[0] : asset;
    docs[levelGroup] = group();
    const varPath = arrayLevel ? asset : `${asset}/b04`;
    docs[varPath] = array([h, w], dims);
    docs[`${levelGroup}/${dims[0]}`] = array([h], [dims[0]], {}, "float64");
    docs[`${levelGroup}/${dims[1]}`] = array([w], [dims[1]], {}, "float64");
  }
  return writeDocs(docs);
}

describe("the examples as whole hierarchies", () => {
  it("Sentinel-2: levels from the layout validate; the published bbox is flagged", async () => {
    const root = fixture("examples", "multiscales", "sentinel-2-multiresolution.json");
    const store = await materialise(root, { r10m: [10980, 10980], r20m: [5490, 5490], r60m: [1830, 1830], r120m: [915, 915], r360m: [305, 305], r720m: [153, 153] });
    const r = await validate(store);
    expect(summary(r.findings)).toEqual(["info spatial.bbox-mismatch /attributes/spatial:bbox"].sort());
    const ms = describeMultiscales(await loadHierarchy(store));
    expect(ms.crs?.code).toBe("EPSG:32633");
    expect(ms.levels.map((l) => [l.asset, l.shape, l.resolution?.[0]])).toEqual([
      ["r10m", [10980, 10980], 10],
      ["r20m", [5490, 5490], 20],
      ["r60m", [1830, 1830], 60],
      ["r120m", [915, 915], 120],
      ["r360m", [305, 305], 360],
      ["r720m", [153, 153], 720],
    ]);
  });

  it("power-of-2: the absolute scale of level 2 disagrees with the arrays (relative scales pass)", async () => {
    const root = fixture("examples", "multiscales", "power-of-2-pyramid.json");
    const absolute = await validate(await materialise(root, { "0": [1024, 1024], "1": [512, 512], "2": [256, 256] }));
    const inconsistent = absolute.findings.filter((f) => f.severity === "error");
    expect(inconsistent.map((f) => [f.rule, f.pointer])).toEqual([["multiscales.scale-inconsistent", "/attributes/multiscales/layout/2/transform/scale"]]);
    expect(inconsistent[0].message).toContain("relative scale of about [2, 2]");
    const relative = await validate(await materialise(root, { "0": [1024, 1024], "1": [512, 512], "2": [128, 128] }));
    expect(relative.valid).toBe(true);
  });

  it("custom levels: scales 4 and 8 chained relative to half and quarter do not match the shapes", async () => {
    const root = fixture("examples", "multiscales", "custom-pyramid-levels.json");
    const r = await validate(await materialise(root, { full: [4096, 4096], half: [2048, 2048], quarter: [1024, 1024], eighth: [512, 512] }));
    expect(r.findings.filter((f) => f.severity === "error").map((f) => f.pointer)).toEqual([
      "/attributes/multiscales/layout/2/transform/scale",
      "/attributes/multiscales/layout/3/transform/scale",
    ]);
  });

  it("array-based: levels that are arrays inside groups", async () => {
    const root = fixture("examples", "multiscales", "array-based-pyramid.json");
    const store = await materialise(root, { "0/data": [512, 512], "1/data": [256, 256], "2/data": [128, 128] });
    const r = await validate(store);
    expect(r.valid).toBe(true);
    const ms = describeMultiscales(await loadHierarchy(store));
    expect(ms.levels.map((l) => [l.kind, l.shape, l.translation])).toEqual([
      ["array", [512, 512], [0, 0]],
      ["array", [256, 256], [0.5, 0.5]],
      ["array", [128, 128], [0.5, 0.5]],
    ]);
    const missing = await validate(await materialise(root, { "0/data": [512, 512], "1/data": [256, 256] }));
    expect(missing.findings.filter((f) => f.severity === "error").map((f) => f.rule)).toEqual(["multiscales.asset-missing"]);
  });
});
