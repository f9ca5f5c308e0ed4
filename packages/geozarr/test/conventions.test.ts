import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import {
  CONVENTION_ENTRIES,
  CONVENTION_ENTRIES_BY_VERSION,
  CONVENTION_UUIDS,
  conventionDeclarations,
  detectConventions,
  parseConventionUrl,
  rulesOfVersion,
  withConventions,
} from "../src/index.js";
import { fixture } from "./helpers.js";

describe("zarr_conventions detection", () => {
  it("identifies by uuid first, then schema_url, then spec_url, never by name", () => {
    const d = detectConventions({
      zarr_conventions: [
        { uuid: CONVENTION_UUIDS.multiscales, name: "whatever" },
        { schema_url: "https://raw.githubusercontent.com/zarr-experimental/geo-proj/refs/tags/v1/schema.json" },
        { spec_url: "https://github.com/zarr-conventions/spatial/blob/main/README.md" },
        { name: "proj:" },
      ],
    });
    expect([...d.declared].sort()).toEqual(["multiscales", "proj", "spatial"]);
    expect(d.entries.map((e) => e.identifiedBy)).toEqual(["uuid", "schema_url", "spec_url", undefined]);
    const rules = d.issues.map((i) => [i.rule, i.pointer]);
    expect(rules).toContainEqual(["conventions.identity-mismatch", "/attributes/zarr_conventions/0"]);
    expect(rules).toContainEqual(["conventions.entry-invalid", "/attributes/zarr_conventions/3"]);
    // No known version is "legacy": v1, v0.1 and branch heads give no finding of their own.
    expect(rules.map((r) => r[0])).not.toContain("conventions.legacy-url");
    expect(d.entries.map((e) => [e.version, e.rules])).toEqual([
      ["undeclared", "v1"],
      ["v1", "v1"],
      ["main", "v1"],
      ["undeclared", "v1"],
    ]);
  });

  it("finds each declaration's version from its URLs, and the rules that follow", () => {
    const d = detectConventions({
      zarr_conventions: [
        CONVENTION_ENTRIES_BY_VERSION["v0.1"].proj,
        CONVENTION_ENTRIES_BY_VERSION.v1.spatial,
        { uuid: CONVENTION_UUIDS.multiscales, spec_url: "https://github.com/zarr-conventions/multiscales/blob/v0/README.md" },
      ],
    });
    expect(d.entries.map((e) => [e.convention, e.version, e.rules])).toEqual([
      ["proj", "v0.1", "v0.1"],
      ["spatial", "v1", "v1"],
      ["multiscales", "v0", "v1"],
    ]);
    expect(d.issues).toEqual([]);
    expect(rulesOfVersion("v0.1")).toBe("v0.1");
    for (const v of ["v1", "v0.1.0", "main", "undeclared"]) expect(rulesOfVersion(v)).toBe("v1");
  });

  it("reads the geo-proj 0.1.0 object form as the proj convention, with a warning that migrate rewrites it", () => {
    const d = detectConventions({
      zarr_conventions: {
        [CONVENTION_UUIDS.proj]: {
          version: "0.1.0",
          schema: "https://raw.githubusercontent.com/zarr-experimental/geo-proj/refs/tags/v0.1.0/schema.json",
          name: "geo-proj",
          spec: "https://github.com/zarr-experimental/geo-proj/blob/v0.1.0/README.md",
        },
      },
    });
    expect([...d.declared]).toEqual(["proj"]);
    expect(d.entries[0]).toMatchObject({ convention: "proj", version: "0.1.0", rules: "v1", objectForm: true, ref: "v0.1.0" });
    expect(d.issues.map((i) => `${i.severity} ${i.rule}`)).toEqual(["warning conventions.superseded-form"]);
    expect(d.issues[0].message).toContain("migrate");
    // An object that is not keyed by uuids stays an error.
    expect(detectConventions({ zarr_conventions: { proj: {} } }).issues.map((i) => i.rule)).toEqual(["conventions.not-array"]);
  });

  it("accepts every alias the notes list without complaint about names", () => {
    for (const [name, c] of [["proj:", "proj"], ["proj", "proj"], ["spatial:", "spatial"], ["spatial", "spatial"], ["multiscales", "multiscales"]] as const) {
      const d = detectConventions({ zarr_conventions: [{ uuid: CONVENTION_UUIDS[c], name }] });
      expect(d.declared.has(c)).toBe(true);
      expect(d.issues).toEqual([]);
    }
    for (const url of [
      "https://raw.githubusercontent.com/zarr-experimental/geo-proj/refs/tags/v1/schema.json",
      "https://raw.githubusercontent.com/zarr-conventions/proj/refs/tags/v0.1/schema.json",
      "https://raw.githubusercontent.com/zarr-conventions/proj/main/schema.json",
      "https://github.com/zarr-experimental/geo-proj/blob/v1/README.md",
      "https://github.com/zarr-conventions/proj/tree/v0.1",
    ]) {
      expect(parseConventionUrl(url)?.convention).toBe("proj");
    }
    expect(parseConventionUrl("https://raw.githubusercontent.com/zarr-conventions/proj/refs/tags/v0.1/schema.json")).toEqual({ convention: "proj", ref: "v0.1" });
    expect(parseConventionUrl("https://example.com/proj/schema.json")).toBeUndefined();
  });

  it("reports a name or URL that disagrees with the uuid as a warning, and malformed entries as errors", () => {
    const d = detectConventions({
      zarr_conventions: [
        { uuid: CONVENTION_UUIDS.proj, name: "spatial:" },
        { uuid: CONVENTION_UUIDS.spatial.toUpperCase() },
        { uuid: CONVENTION_UUIDS.spatial, extra: 1 },
        "proj",
        { uuid: "2dc8d146-3932-4e08-8542-06aa0e826508" },
      ],
    });
    const found = d.issues.map((i) => `${i.severity} ${i.rule} ${i.pointer}`);
    expect(found).toEqual([
      "warning conventions.identity-mismatch /attributes/zarr_conventions/0",
      "error conventions.uuid-format /attributes/zarr_conventions/1/uuid",
      "warning conventions.entry-extra-key /attributes/zarr_conventions/2/extra",
      "warning conventions.duplicate /attributes/zarr_conventions/2",
      "error conventions.entry-invalid /attributes/zarr_conventions/3",
      "info conventions.unknown /attributes/zarr_conventions/4",
    ]);
    expect(d.issues[1].message).toContain(CONVENTION_UUIDS.spatial);
    expect(detectConventions({ zarr_conventions: { uuid: "x" } }).issues[0].rule).toBe("conventions.not-array");
  });

  it("writes v1 declarations by default and v0.1 on request, exactly as the published schemas pin them", () => {
    const schemas = join(fixturesDir(), "geozarr", "schemas");
    const pinned = (file: string) => {
      const schema = fixture("schemas", file) as { $defs: { conventionMetadata: { properties: Record<string, { const: string }> } } };
      return Object.fromEntries(Object.entries(schema.$defs.conventionMetadata.properties).map(([k, v]) => [k, v.const]));
    };
    for (const [file, version, c] of [
      ["multiscales-v0.1.schema.json", "v0.1", "multiscales"],
      ["proj-v0.1.schema.json", "v0.1", "proj"],
      ["spatial-v0.1.schema.json", "v0.1", "spatial"],
      ["multiscales-v1.schema.json", "v1", "multiscales"],
      ["proj-v1.schema.json", "v1", "proj"],
    ] as const) {
      expect(CONVENTION_ENTRIES_BY_VERSION[version][c], file).toEqual(pinned(file));
    }
    // Every convention schema is checked above (spatial has no v1 schema: its v1 entry is the mini-spec's, checked in minispec.test.ts).
    expect(readdirSync(schemas).filter((f) => f.endsWith(".schema.json") && f !== "zarr-conventions.schema.json").length).toBe(5);
    expect(CONVENTION_ENTRIES).toBe(CONVENTION_ENTRIES_BY_VERSION.v1);
    expect(conventionDeclarations(["spatial", "proj", "spatial"]).map((e) => e.name)).toEqual(["spatial:", "proj:"]);
    expect(conventionDeclarations(["spatial", "proj"], "v0.1").map((e) => e.name)).toEqual(["spatial", "proj"]);
    expect(() => conventionDeclarations(["proj"], "v2" as never)).toThrow(/"v1" or "v0.1"/);
    const replaced = withConventions({ zarr_conventions: [{ uuid: CONVENTION_UUIDS.proj, name: "proj" }, { uuid: "2dc8d146-3932-4e08-8542-06aa0e826508" }] }, ["proj", "spatial"]);
    expect(replaced.zarr_conventions).toEqual([CONVENTION_ENTRIES.proj, { uuid: "2dc8d146-3932-4e08-8542-06aa0e826508" }, CONVENTION_ENTRIES.spatial]);
    expect(detectConventions(replaced).issues.map((i) => i.rule)).toEqual(["conventions.unknown"]);
    const old = withConventions({ zarr_conventions: [CONVENTION_ENTRIES.proj] }, ["proj"], "v0.1");
    expect(old.zarr_conventions).toEqual([CONVENTION_ENTRIES_BY_VERSION["v0.1"].proj]);
  });
});
