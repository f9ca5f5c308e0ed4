import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import {
  CONVENTION_ENTRIES,
  CONVENTION_UUIDS,
  conventionDeclarations,
  detectConventions,
  parseConventionUrl,
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
    expect(rules).toContainEqual(["conventions.legacy-url", "/attributes/zarr_conventions/1"]);
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
    expect(parseConventionUrl("https://raw.githubusercontent.com/zarr-conventions/proj/refs/tags/v0.1/schema.json")).toEqual({ convention: "proj", ref: "v0.1", current: true });
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

  it("writes v0.1 declarations exactly as the published schemas pin them", () => {
    const schemas = join(fixturesDir(), "geozarr", "schemas");
    for (const [file, c] of [
      ["multiscales-v0.1.schema.json", "multiscales"],
      ["proj-v0.1.schema.json", "proj"],
      ["spatial-v0.1.schema.json", "spatial"],
    ] as const) {
      const schema = fixture("schemas", file) as { $defs: { conventionMetadata: { properties: Record<string, { const: string }> } } };
      const consts = Object.fromEntries(Object.entries(schema.$defs.conventionMetadata.properties).map(([k, v]) => [k, v.const]));
      expect(CONVENTION_ENTRIES[c]).toEqual(consts);
    }
    // Every v0.1 convention schema is checked above (v1 schemas are the mini-spec's, checked elsewhere).
    expect(readdirSync(schemas).filter((f) => f.includes("-v0.1.")).length).toBe(3);
    expect(conventionDeclarations(["spatial", "proj", "spatial"]).map((e) => e.name)).toEqual(["spatial", "proj"]);
    const replaced = withConventions({ zarr_conventions: [{ uuid: CONVENTION_UUIDS.proj, name: "proj:" }, { uuid: "2dc8d146-3932-4e08-8542-06aa0e826508" }] }, ["proj", "spatial"]);
    expect(replaced.zarr_conventions).toEqual([CONVENTION_ENTRIES.proj, { uuid: "2dc8d146-3932-4e08-8542-06aa0e826508" }, CONVENTION_ENTRIES.spatial]);
    expect(detectConventions(replaced).issues.map((i) => i.rule)).toEqual(["conventions.unknown"]);
  });
});
