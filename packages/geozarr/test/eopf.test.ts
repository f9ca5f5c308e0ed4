/**
 * Real Sentinel-2 GeoZarr products as the EOPF converter writes them: metadata-only stores
 * built from the hierarchy dumps validate with the documented findings (no errors; the
 * real-world quirks as warnings), and georeferencing resolves through them.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { JsonObject, JsonValue } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import { describeMultiscales, effectiveGeoreference, loadHierarchy, storeFromDump, validate } from "../src/index.js";
import { fixture } from "./helpers.js";

interface DumpNode {
  path: string;
  node: JsonObject;
  parent?: JsonObject;
}

function* nodes(n: JsonObject, path = "", parent?: JsonObject): Generator<DumpNode> {
  yield { path, node: n, parent };
  const members = (n.members ?? {}) as Record<string, JsonObject>;
  for (const [k, v] of Object.entries(members)) yield* nodes(v, path === "" ? k : `${path}/${k}`, n);
}

const attrs = (n: JsonObject) => (n.attributes ?? {}) as Record<string, JsonValue>;
const declares = (n: JsonObject) => Array.isArray(attrs(n).zarr_conventions) && (attrs(n).zarr_conventions as JsonValue[]).length > 0;

/** What the validator must report, counted straight from the dump. */
function expectedCounts(dump: JsonObject): Record<string, number> {
  const all = [...nodes(dump)];
  const arrays = all.filter((d) => d.node.node_type === "array");
  const count = (f: (d: DumpNode) => boolean) => all.filter(f).length;
  return {
    // STAC proj:epsg & co on arrays that declare nothing.
    "warning legacy.stac-proj": arrays.filter((d) => attrs(d.node)["proj:epsg"] !== undefined && !declares(d.node)).length,
    // Their proj:wkt2 holds WKT1.
    "warning proj.wkt1": arrays.filter((d) => String(attrs(d.node)["proj:wkt2"] ?? "").startsWith("PROJCS")).length,
    // Groups with spatial:bbox [0, 0, 0, 0].
    "warning spatial.bbox-degenerate": count((d) => JSON.stringify(attrs(d.node)["spatial:bbox"]) === "[0,0,0,0]"),
    // 0-d arrays (spatial_ref, band) inside groups that declare conventions.
    "warning dataarray.scalar-auxiliary": arrays.filter((d) => (d.node.shape as number[]).length === 0 && d.parent !== undefined && declares(d.parent)).length,
    // 2-D arrays whose proj:shape is another level's.
    "warning legacy.stale": arrays.filter((d) => {
      const ps = attrs(d.node)["proj:shape"] as number[] | undefined;
      const shape = d.node.shape as number[];
      return ps !== undefined && shape.length === 2 && (ps[0] !== shape[0] || ps[1] !== shape[1]);
    }).length,
    "warning multiscales.variables-differ": count((d) => attrs(d.node).multiscales !== undefined),
  };
}

const DIR = join(fixturesDir(), "geozarr", "eopf-sentinel2");

describe.each(readdirSync(DIR))("EOPF dump %s", (file) => {
  const dump = fixture("eopf-sentinel2", file);

  it("validates with no error and the documented warnings", async () => {
    const store = await storeFromDump(dump);
    const report = await validate(store);
    expect(report.valid).toBe(true);
    const counts: Record<string, number> = {};
    for (const f of report.findings) counts[`${f.severity} ${f.rule}`] = (counts[`${f.severity} ${f.rule}`] ?? 0) + 1;
    const expected = expectedCounts(dump);
    // Plus one spatial.transform-missing per Dataset whose spatial variables get no spatial:transform.
    const { "warning spatial.transform-missing": missing, ...rest } = counts;
    expect(rest).toEqual(expected);
    const transformless = report.findings.filter((f) => f.rule === "spatial.transform-missing").map((f) => f.path);
    expect(transformless.length).toBe(missing);
    expect(transformless).toContain("measurements/reflectance/r10m");
    // Levels derived from r10m get their transform through the chain: no warning there.
    expect(transformless).not.toContain("measurements/reflectance/r20m");
    expect(report.multiscales).toEqual(["measurements/reflectance"]);
    const table = report.findings.find((f) => f.rule === "multiscales.variables-differ");
    expect(table?.message).toMatch(/r10m: .*b02 b03 b04 .*b08/);
  });

  it("resolves the pyramid and the georeferencing of its variables", async () => {
    const h = await loadHierarchy(await storeFromDump(dump));
    const ms = describeMultiscales(h, "measurements/reflectance");
    const code = (attrs(((dump.members as Record<string, JsonObject>).measurements.members as Record<string, JsonObject>).reflectance)["proj:code"]) as string;
    expect(ms.crs?.code).toBe(code);
    expect(ms.levels.map((l) => l.shape)).toEqual([[10980, 10980], [5490, 5490], [1830, 1830], [915, 915], [305, 305], [152, 152]]);
    const base = ms.levels[0];
    expect(base.transformProvenance?.detail).toBe("proj:transform (STAC)");
    expect(ms.levels.map((l) => l.resolution?.[0])).toEqual([10, 20, 60, 120, 360, 10 * 36 * (305 / 152)].map((v) => expect.closeTo(v, 9)));
    const r20 = effectiveGeoreference(h, "measurements/reflectance/r20m/b05");
    expect(r20.crs).toMatchObject({ code, source: "proj", from: "measurements/reflectance/r20m" });
    expect(r20.transform?.slice(0, 2)).toEqual([20, 0]);
    expect(r20.transform?.[2]).toBe(base.transform?.[2]);
    expect(r20.roles).toEqual({ y: 0, x: 1, others: [], assumed: false });
    // The stale legacy transform of r720m is not used.
    const r720 = effectiveGeoreference(h, "measurements/reflectance/r720m/b01");
    expect(r720.provenance.transform?.origin).toBe("derived");
    expect(r720.notes[0]).toContain("[1830, 1830]");
    // Outside the conventions (no declarations), the STAC keys still georeference the masks.
    const mask = effectiveGeoreference(h, "conditions/mask/detector_footprint/r10m/b02");
    expect(mask.crs).toMatchObject({ source: "proj-undeclared" });
    expect(mask.transform).toEqual(base.transform);
  });
});
