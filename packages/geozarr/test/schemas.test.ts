/**
 * The published JSON schemas as a cross-check: what this package writes passes them
 * unchanged; on real data they give wrong answers where the notes say they do.
 */
import { MemoryStore, readNodeMetadata } from "@zarr/core";
import type { JsonObject } from "@zarr/spec";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { buildPyramid, multiscalesAttributes, storeFromDump, validate, validateDocument } from "../src/index.js";
import { dataset, fixture } from "./helpers.js";

function schemas() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  // proj:projjson refers to PROJ's schema; any object stands in for it here.
  ajv.addSchema({ $id: "https://proj.org/schemas/v0.7/projjson.schema.json", type: "object" });
  ajv.addFormat("uri", /^[a-z][a-z0-9+.-]*:\/\/\S+$/i);
  const compile = (file: string) => ajv.compile(fixture("schemas", file));
  return {
    multiscales: compile("multiscales-v0.1.schema.json"),
    proj: compile("proj-v0.1.schema.json"),
    spatial: compile("spatial-v0.1.schema.json"),
    conventions: compile("zarr-conventions.schema.json"),
  };
}

describe("the published schemas as a cross-check", () => {
  it("accept every node of a pyramid this package wrote", async () => {
    const s = schemas();
    const src = await dataset({ v: { data: new Float32Array(40 * 30).map((_, i) => i), dataType: "float32" } }, { shape: [40, 30] });
    const dst = new MemoryStore();
    await buildPyramid(src, dst, { minSize: 8 });
    const root = (await readNodeMetadata(dst, "")) as unknown as JsonObject;
    for (const [name, v] of Object.entries(s)) expect(v(root), `${name}: ${JSON.stringify(v.errors)}`).toBe(true);
    for (const level of ["0", "1", "2"]) {
      const g = (await readNodeMetadata(dst, level)) as unknown as JsonObject;
      expect(s.proj(g), JSON.stringify(s.proj.errors)).toBe(true);
      expect(s.spatial(g), JSON.stringify(s.spatial.errors)).toBe(true);
      expect(s.conventions(g)).toBe(true);
    }
  });

  it("reject real data the conventions accept (pinned names and URLs), and agree on structural errors", async () => {
    const s = schemas();
    const h = (fixture("eopf-sentinel2", "S2A_MSIL2A_20251008T100041_N0511_R122_T32TQM_20251008T122613.json").members as Record<string, JsonObject>).measurements;
    const reflectance = { ...(h.members as Record<string, JsonObject>).reflectance };
    delete reflectance.members;
    // The EOPF declaration names the convention "proj:" with v1 URLs: the v0.1 schema pins "proj".
    expect(s.proj(reflectance)).toBe(false);
    expect(JSON.stringify(s.proj.errors)).toContain("const");
    expect(validateDocument(reflectance).valid).toBe(true);
    // A level with derived_from and no transform: both say no.
    const broken: JsonObject = {
      zarr_format: 3,
      node_type: "group",
      attributes: multiscalesAttributes({
        crs: { code: "EPSG:32632" },
        spatial: { dimensions: ["Y", "X"] },
        levels: [
          { asset: "0", scale: [1, 1], transform: [10, 0, 500000, 0, -10, 5000000] },
          { asset: "1", derivedFrom: "0", scale: [2, 2], transform: [20, 0, 500000, 0, -20, 5000000] },
        ],
      }),
    };
    expect(s.multiscales(broken)).toBe(true);
    const layout = ((broken.attributes as JsonObject).multiscales as JsonObject).layout as JsonObject[];
    delete layout[1].transform;
    expect(s.multiscales(broken)).toBe(false);
    expect(validateDocument(broken).findings.map((f) => f.rule)).toContain("multiscales.transform-missing");
    // Scale chains that disagree with the levels are invisible to the schema.
    layout[1].transform = { scale: [4, 4] };
    expect(s.multiscales(broken)).toBe(true);
    expect(validateDocument(broken).findings.map((f) => f.rule)).toContain("multiscales.scale-inconsistent");
    expect((await validate(await storeFromDump(fixture("eopf-sentinel2", "S2A_MSIL2A_20251008T100041_N0511_R122_T32TQM_20251008T122613.json")))).valid).toBe(true);
  });
});
