/**
 * The published JSON schemas as a cross-check (never as the validator): what this package
 * writes passes the schemas of the version it declares, unchanged; the mini-spec's
 * examples pass the v1 schemas; and on the rules the schemas state (proj:code pattern, one
 * or at least one CRS field, spatial:dimensions on arrays, transform with derived_from)
 * the validator and the schema of the declared version agree.
 */
import { MemoryStore, readNodeMetadata } from "@zarr/core";
import type { JsonObject } from "@zarr/spec";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import {
  buildPyramid,
  CONVENTION_ENTRIES_BY_VERSION,
  type ConventionsVersion,
  multiscalesAttributes,
  storeFromDump,
  validate,
  validateDocument,
} from "../src/index.js";
import { dataset, fixture } from "./helpers.js";
import { miniSpecExamples } from "./minispec.js";

type Check = ((doc: JsonObject) => boolean) & { errors?: unknown };

/** The schemas of one version, compiled. Spatial publishes only v0.1: for v1 its declaration pin is swapped for the mini-spec's v1 entry (the attribute rules are the same). */
function schemas(version: ConventionsVersion): Record<"multiscales" | "proj" | "spatial" | "conventions", Check> {
  const ajv = new Ajv({ strict: false, allErrors: true });
  // proj:projjson refers to PROJ's schema; any object stands in for it here.
  ajv.addSchema({ $id: "https://proj.org/schemas/v0.7/projjson.schema.json", type: "object" });
  ajv.addFormat("uri", /^[a-z][a-z0-9+.-]*:\/\/\S+$/i);
  const compile = (file: string) => ajv.compile(fixture("schemas", file)) as Check;
  const spatial = fixture("schemas", "spatial-v0.1.schema.json") as { $id: string; $defs: { conventionMetadata: { properties: Record<string, { const?: string }> } } };
  if (version === "v1") {
    const entry = CONVENTION_ENTRIES_BY_VERSION.v1.spatial;
    spatial.$id = entry.schema_url as string;
    for (const [k, p] of Object.entries(spatial.$defs.conventionMetadata.properties)) p.const = entry[k] as string;
  }
  return {
    multiscales: compile(`multiscales-${version}.schema.json`),
    proj: compile(`proj-${version}.schema.json`),
    spatial: ajv.compile(spatial) as Check,
    conventions: compile("zarr-conventions.schema.json"),
  };
}

const group = (attributes: JsonObject): JsonObject => ({ zarr_format: 3, node_type: "group", attributes });

describe("the published schemas as a cross-check", () => {
  it("accept every node of a pyramid this package wrote (v1)", async () => {
    const s = schemas("v1");
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

  it.each(["v1", "v0.1"] as const)("accept what the builders write with conventions %s, and not the other version's", (version) => {
    const attributes = multiscalesAttributes({
      conventions: version,
      crs: { code: "EPSG:32633" },
      spatial: { dimensions: ["Y", "X"] },
      levels: [
        { asset: "0", scale: [1, 1], shape: [100, 80], transform: [10, 0, 500000, 0, -10, 5000000] },
        { asset: "1", derivedFrom: "0", scale: [2, 2], shape: [50, 40], transform: [20, 0, 500000, 0, -20, 5000000] },
      ],
    });
    const own = schemas(version);
    const other = schemas(version === "v1" ? "v0.1" : "v1");
    for (const [name, v] of Object.entries(own)) expect(v(group(attributes)), `${name}: ${JSON.stringify(v.errors)}`).toBe(true);
    // The schemas pin the declaration: each version's entries fail the other's schemas.
    expect(other.proj(group(attributes))).toBe(false);
    expect(validateDocument(group(attributes)).findings).toEqual([]);
  });

  it("accept the mini-spec's examples (v1)", () => {
    const s = schemas("v1");
    for (const e of miniSpecExamples()) {
      const root = e.docs[""];
      const declared = ((root.attributes as JsonObject | undefined)?.zarr_conventions ?? []) as JsonObject[];
      for (const entry of declared) {
        const check = s[entry.name === "multiscales" ? "multiscales" : entry.name === "proj:" ? "proj" : "spatial"];
        expect(check(root), `${e.title} ${entry.name}: ${JSON.stringify(check.errors)}`).toBe(true);
      }
    }
  });

  it("agree with the validator on the rules they state, version by version", () => {
    const cases: Array<[string, ConventionsVersion, JsonObject, boolean]> = [
      ["v1 code", "v1", { "proj:code": "EPSG:4326" }, true],
      ["v1 lowercase code", "v1", { "proj:code": "epsg:4326" }, false],
      ["v1 OGC:CRS84", "v1", { "proj:code": "OGC:CRS84" }, false],
      ["v1 code and wkt2", "v1", { "proj:code": "EPSG:4326", "proj:wkt2": 'GEOGCRS["WGS 84",ID["EPSG",4326]]' }, false],
      ["v1 no CRS", "v1", {}, false],
      ["v0.1 OGC:CRS84", "v0.1", { "proj:code": "OGC:CRS84" }, true],
      ["v0.1 lowercase code", "v0.1", { "proj:code": "epsg:4326" }, true],
      ["v0.1 code and wkt2", "v0.1", { "proj:code": "EPSG:4326", "proj:wkt2": 'GEOGCRS["WGS 84",ID["EPSG",4326]]' }, true],
      ["v0.1 no CRS", "v0.1", {}, false],
      ["v0.1 code without colon", "v0.1", { "proj:code": "4326" }, false],
    ];
    for (const [name, version, keys, valid] of cases) {
      const doc = group({ zarr_conventions: [CONVENTION_ENTRIES_BY_VERSION[version].proj], ...keys });
      expect(schemas(version).proj(doc), `schema: ${name}`).toBe(valid);
      const errors = validateDocument(doc).findings.filter((f) => f.severity === "error");
      expect(errors.length === 0, `validator: ${name} ${JSON.stringify(errors)}`).toBe(valid);
    }
    // spatial:dimensions is required on arrays declaring spatial.
    const spatialArray = (attributes: JsonObject): JsonObject => ({
      zarr_format: 3,
      node_type: "array",
      shape: [4, 5],
      dimension_names: ["Y", "X"],
      attributes: { zarr_conventions: [CONVENTION_ENTRIES_BY_VERSION.v1.spatial], ...attributes },
    });
    const arrays: Array<[JsonObject, boolean]> = [
      [{ "spatial:dimensions": ["Y", "X"] }, true],
      [{ "spatial:transform": [1, 0, 0, 0, -1, 0] }, false],
    ];
    for (const [attrs, valid] of arrays) {
      expect(schemas("v1").spatial(spatialArray(attrs))).toBe(valid);
      expect(validateDocument(spatialArray(attrs)).valid).toBe(valid);
    }
  });

  it("reject real data the conventions accept (pinned names and URLs), and agree on structural errors", async () => {
    const s = schemas("v0.1");
    const h = (fixture("eopf-sentinel2", "S2A_MSIL2A_20251008T100041_N0511_R122_T32TQM_20251008T122613.json").members as Record<string, JsonObject>).measurements;
    const reflectance = { ...(h.members as Record<string, JsonObject>).reflectance };
    delete reflectance.members;
    // The EOPF declaration names the convention "proj:" with v1 URLs: the v0.1 schema pins "proj", the v1 schema accepts it.
    expect(s.proj(reflectance)).toBe(false);
    expect(JSON.stringify(s.proj.errors)).toContain("const");
    expect(schemas("v1").proj(reflectance)).toBe(true);
    expect(validateDocument(reflectance).valid).toBe(true);
    // A level with derived_from and no transform: both say no.
    const broken = group(
      multiscalesAttributes({
        conventions: "v0.1",
        crs: { code: "EPSG:32632" },
        spatial: { dimensions: ["Y", "X"] },
        levels: [
          { asset: "0", scale: [1, 1], transform: [10, 0, 500000, 0, -10, 5000000] },
          { asset: "1", derivedFrom: "0", scale: [2, 2], transform: [20, 0, 500000, 0, -20, 5000000] },
        ],
      }),
    );
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
