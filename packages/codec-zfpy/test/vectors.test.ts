/**
 * The committed test vectors (test-data/vectors, made by scripts/make-test-data.py with
 * zfpy, libzfp 1.0): every stream decodes to exactly the bytes zfpy decoded it to. Runs
 * without Python.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readZfpHeader, zfpDecompress } from "../src/index.js";
import { bytesOf, firstDifference } from "./helpers.js";

const DIR = join(import.meta.dirname, "..", "test-data", "vectors");
const manifest: { name: string; dtype: string; shape: number[]; args: Record<string, number> }[] = JSON.parse(
  readFileSync(join(DIR, "manifest.json"), "utf8"),
);

/** The mode each set of zfpy arguments gives. */
function expectedMode(args: Record<string, number>): string {
  if (args.tolerance === 0) return "expert";
  if ("tolerance" in args) return "fixed-accuracy";
  if ("rate" in args) return "fixed-rate";
  if ("precision" in args) return "fixed-precision";
  return "reversible";
}

describe("committed zfpy vectors", () => {
  it("cover every type, 1 to 4 dimensions and every mode", () => {
    const seen = new Set(manifest.map((v) => `${v.dtype}`));
    expect([...seen].sort()).toEqual(["float32", "float64", "int32", "int64"]);
    expect(new Set(manifest.map((v) => v.shape.length))).toEqual(new Set([1, 2, 3, 4]));
    expect(new Set(manifest.map((v) => expectedMode(v.args)))).toEqual(
      new Set(["reversible", "fixed-accuracy", "fixed-rate", "fixed-precision", "expert"]),
    );
    expect(manifest.some((v) => v.name.includes("expert") && "rate" in v.args)).toBe(true);
  });

  for (const vector of manifest) {
    it(`${vector.name}: ${vector.dtype} [${vector.shape}] ${JSON.stringify(vector.args)} decodes bit for bit`, () => {
      const stream = new Uint8Array(readFileSync(join(DIR, `${vector.name}.zfp`)));
      const expected = new Uint8Array(readFileSync(join(DIR, `${vector.name}.bin`)));
      const header = readZfpHeader(stream);
      expect(header.type).toBe(vector.dtype);
      expect(header.size).toEqual([...vector.shape].reverse());
      expect(header.mode).toBe(expectedMode(vector.args));
      // Settings the 12-bit form cannot hold take the 64-bit expert form.
      const blockBits = (vector.args.rate ?? 0) * 4 ** vector.shape.length;
      expect(header.modeBits).toBe(blockBits > 2048 || vector.args.tolerance === 0 ? 64 : 12);
      const out = zfpDecompress(stream, { key: vector.name });
      expect(out.shape).toEqual(vector.shape);
      expect(out.type).toBe(vector.dtype);
      expect(firstDifference(bytesOf(out.data), expected)).toBe(-1);
    });
  }
});
