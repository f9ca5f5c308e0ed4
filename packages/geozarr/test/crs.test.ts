import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import { crsCode, crsFromGdal, crsLabel, isGeographic, normaliseCode, projjsonProblem, readProj, sameCrs, wktAuthorityCode, wktVersion } from "../src/index.js";
import { fixture } from "./helpers.js";

const UTM32_WKT1 =
  'PROJCS["WGS 84 / UTM zone 32N",GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AUTHORITY["EPSG","4326"]],PROJECTION["Transverse_Mercator"],UNIT["metre",1,AUTHORITY["EPSG","9001"]],AUTHORITY["EPSG","32632"]]';

describe("CRS identities without a CRS database", () => {
  it("reads the top-level authority of WKT1 and WKT2, not nested ones", () => {
    expect(wktAuthorityCode(UTM32_WKT1)).toBe("EPSG:32632");
    const wkt2 = (fixture("examples", "proj", "wkt2.json").attributes as Record<string, string>)["proj:wkt2"];
    expect(wktVersion(wkt2)).toBe("wkt2");
    expect(wktVersion(UTM32_WKT1)).toBe("wkt1");
    // This WKT2 has no top-level ID: the method's ID["EPSG",9807] is nested and must not count.
    expect(wktAuthorityCode(wkt2)).toBeUndefined();
    expect(wktAuthorityCode('GEOGCRS["WGS 84",DATUM["x",ELLIPSOID["WGS 84",6378137,298.257223563]],CS[ellipsoidal,2],ID["EPSG",4326]]')).toBe("EPSG:4326");
    expect(wktAuthorityCode('PROJCRS["a ""quoted"" ID[\\"X\\",1] name",ID["EPSG",3857]]')).toBe("EPSG:3857");
  });

  it("identifies every PROJJSON sample and refuses the non-CRS one", () => {
    const dir = join(fixturesDir(), "geozarr", "projjson");
    const expected: Record<string, string | undefined> = {
      "bound_crs.json": "EPSG:4258",
      "compound_crs.json": "EPSG:9518",
      "datum_ensemble.json": "EPSG:4326",
      "explicit_prime_meridian.json": "EPSG:4806",
      "implicit_prime_meridian.json": "EPSG:6318",
      "projected_crs.json": "EPSG:32631",
      "transformation.json": "EPSG:8549",
    };
    expect(readdirSync(dir).sort()).toEqual(Object.keys(expected).sort());
    for (const [file, code] of Object.entries(expected)) {
      const pj = fixture("projjson", file);
      expect(crsCode({ projjson: pj }), file).toBe(code);
      const r = readProj({ "proj:projjson": pj });
      expect(r.issues.map((i) => i.rule), file).toEqual(file === "transformation.json" ? ["proj.projjson-invalid"] : []);
    }
    expect(projjsonProblem(fixture("projjson", "transformation.json"))).toContain('"Transformation" is not a CRS type');
    expect(isGeographic({ projjson: fixture("projjson", "bound_crs.json") })).toBe(true);
    expect(isGeographic({ projjson: fixture("projjson", "projected_crs.json") })).toBe(false);
  });

  it("normalises codes, URLs and URNs, and reads GDAL's _CRS in all its forms", () => {
    expect(normaliseCode("http://www.opengis.net/def/crs/EPSG/0/3857")).toBe("EPSG:3857");
    expect(normaliseCode("urn:ogc:def:crs:EPSG::32633")).toBe("EPSG:32633");
    expect(normaliseCode("epsg:4326")).toBe("EPSG:4326");
    expect(crsFromGdal({ url: "http://www.opengis.net/def/crs/EPSG/0/32632", wkt: UTM32_WKT1 })).toEqual({ code: "EPSG:32632", wkt2: UTM32_WKT1 });
    expect(crsFromGdal(UTM32_WKT1)).toEqual({ wkt2: UTM32_WKT1 });
    expect(crsFromGdal("EPSG:2056")).toEqual({ code: "EPSG:2056" });
    expect(crsFromGdal({ projjson: fixture("projjson", "projected_crs.json") })?.projjson?.type).toBe("ProjectedCRS");
    expect(crsFromGdal({})).toBeUndefined();
    expect(sameCrs({ code: "EPSG:32632" }, { wkt2: UTM32_WKT1 })).toBe(true);
    expect(sameCrs({ code: "OGC:CRS84" }, { code: "EPSG:4326" })).toBe(false);
    expect(sameCrs({ wkt2: 'PROJCRS["x"]' }, { code: "EPSG:1" })).toBeUndefined();
    expect(crsLabel({ wkt2: UTM32_WKT1 })).toBe("EPSG:32632 (WGS 84 / UTM zone 32N)");
  });

  it("checks proj: attributes", () => {
    expect(readProj({ "proj:code": "EPSG:32633" })).toEqual({ value: { code: "EPSG:32633" }, issues: [] });
    // v1 (the default, the mini-spec's rules) wants LETTERS:DIGITS; v0.1 allows any AUTHORITY:CODE.
    expect(readProj({ "proj:code": "OGC:CRS84" }).issues.map((i) => i.rule)).toEqual(["proj.code-format"]);
    expect(readProj({ "proj:code": "OGC:CRS84" }).value).toEqual({ code: "OGC:CRS84" });
    expect(readProj({ "proj:code": "OGC:CRS84" }, undefined, "v0.1").issues).toEqual([]);
    expect(readProj({ "proj:code": "epsg:4326" }).issues[0].message).toContain('write "EPSG:4326"');
    expect(readProj({ "proj:code": "epsg:4326" }, undefined, "v0.1").issues).toEqual([]);
    expect(readProj({ "proj:code": 32633 }).issues[0].message).toContain('"EPSG:32633"');
    expect(readProj({ "proj:code": "EPSG 32633" }).issues[0].rule).toBe("proj.code-format");
    expect(readProj({ "proj:wkt2": "not wkt" }).issues[0].rule).toBe("proj.wkt2-invalid");
    expect(readProj({ "proj:wkt2": UTM32_WKT1 }).issues.map((i) => i.rule)).toEqual(["proj.wkt1"]);
    expect(readProj({ "proj:code": "EPSG:32633", "proj:wkt2": UTM32_WKT1 }, undefined, "v0.1").issues.map((i) => i.rule)).toEqual(["proj.wkt1", "proj.inconsistent"]);
    // v1 takes exactly one of the three; v0.1 at least one.
    expect(readProj({ "proj:code": "EPSG:32632", "proj:wkt2": UTM32_WKT1 }).issues.map((i) => [i.rule, i.pointer])).toEqual([
      ["proj.wkt1", "/attributes/proj:wkt2"],
      ["proj.multiple-crs", "/attributes/proj:wkt2"],
    ]);
    expect(readProj({}).value).toBeUndefined();
  });
});
