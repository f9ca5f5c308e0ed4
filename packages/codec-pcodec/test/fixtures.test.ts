import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { pcoDecompress } from "../src/index.js";
import { comparable, EXPECTED, fixture, PCODEC_FIXTURES } from "./expected.js";

describe("pcodec's compatibility files", () => {
  it("are all here, and each has expected values", () => {
    const files = readdirSync(PCODEC_FIXTURES).filter((f) => f.endsWith(".pco"));
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(files).toHaveLength(13);
  });

  for (const [name, expected] of Object.entries(EXPECTED)) {
    it(`${name} decodes exactly (floats bit for bit)`, () => {
      const decoded = pcoDecompress(fixture(name), { key: name });
      expect(decoded.numberType).toBe(expected.type);
      expect(decoded.values).toHaveLength(expected.values.length);
      expect(comparable(decoded.numberType, decoded.values)).toEqual(Array.from(expected.values));
    });
  }

  it("reports the versions the files declare", () => {
    expect(pcoDecompress(fixture("v0_0_0_classic.pco"))).toMatchObject({ standaloneVersion: 0, formatVersion: { major: 0, minor: 0 } });
    expect(pcoDecompress(fixture("v0_4_8_minor_version.pco"))).toMatchObject({ standaloneVersion: 2, formatVersion: { major: 4, minor: 0 } });
    expect(pcoDecompress(fixture("v1_0_0_dict.pco"))).toMatchObject({ standaloneVersion: 3, formatVersion: { major: 4, minor: 1 } });
  });
});
