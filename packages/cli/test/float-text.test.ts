/**
 * float32 and float16 values print in their shortest round-trip text, as NumPy prints
 * them (issue: `zarr get --format json` printed float32 0.06 as 0.05999999865889549).
 */
import path from "node:path";
import { createArray, set } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { FLOAT16, FLOAT32, roundToFormat, shortestFloatText } from "../src/float-text.js";
import { python, removeTempDirs, tempDir, zarrOk } from "./helpers.js";

afterAll(removeTempDirs);

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** The float32 with these bits, as a JS number. */
function float32FromBits(bits: number): number {
  u32[0] = bits >>> 0;
  return f32[0];
}

describe("roundToFormat", () => {
  it("rounds to float32 exactly as Math.fround does, over every double", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), (x) => Object.is(roundToFormat(x, FLOAT32), Math.fround(x))),
      { numRuns: 20_000 },
    );
  });

  it("rounds to float32 exactly as Math.fround does next to subnormals, powers of two, ties and the largest value", () => {
    const edges = [
      2 ** -149, 2 ** -150, 3 * 2 ** -150, 2 ** -126, 2 ** -126 - 2 ** -150, 1 + 2 ** -24, 1 + 3 * 2 ** -24, 1 - 2 ** -25,
      3.4028234663852886e38, 3.4028235677973366e38, 3.4028235677973362e38, 2 ** 128, 0.1, 1e-46,
    ];
    for (const x of edges.flatMap((e) => [e, -e])) expect(Object.is(roundToFormat(x, FLOAT32), Math.fround(x)), String(x)).toBe(true);
  });

  it("rounds to float16 as NumPy does", () => {
    const inputs = [0.1, 65504, 65519.99, 65520, 2 ** -24, 2 ** -25, 3 * 2 ** -25, 2 ** -14, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 1e-9, -0.3333];
    let seed = 7;
    for (let i = 0; i < 500; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      inputs.push(((seed / 2 ** 31) * 2 - 1) * 2 ** ((i % 40) - 26));
    }
    const numpy = JSON.parse(
      python("import json,sys,numpy as np; xs=json.load(sys.stdin); print(json.dumps([repr(float(np.float16(x))) for x in xs]))", [], JSON.stringify(inputs)),
    ) as string[];
    // Python's repr of a float is its shortest round-trip text, so Number() gives the value back ("inf" for 65520).
    const ours = inputs.map((x) => roundToFormat(x, FLOAT16));
    expect(ours).toEqual(numpy.map((t) => (t === "inf" ? Number.POSITIVE_INFINITY : t === "-inf" ? Number.NEGATIVE_INFINITY : Number(t))));
  });
});

describe("shortestFloatText", () => {
  it("prints what NumPy prints for float32 and float16 (same value, same number of digits)", () => {
    const bits: number[] = [0x3d75c28f /* 0.06 */, 0x3dcccccd, 0x3eaaaaab, 0x00000001, 0x7f7fffff, 0x00800000, 0x4b000001];
    let seed = 11;
    for (let i = 0; i < 2000; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const b = (seed * 2 + (i & 1)) >>> 0;
      if (((b >>> 23) & 0xff) !== 0xff) bits.push(b); // finite only: canonical JSON spells the others as strings
    }
    const f32Values = bits.map(float32FromBits);
    // Zeros are left out: JSON carries no sign of zero to Python (the next test checks -0.0).
    const f16Values = f32Values.map((x) => roundToFormat(x, FLOAT16)).filter((x) => Number.isFinite(x) && x !== 0);
    const printed = JSON.parse(
      python(
        "import json,sys,numpy as np; d=json.load(sys.stdin); print(json.dumps([[str(np.float32(x)) for x in d[0]], [str(np.float16(x)) for x in d[1]]]))",
        [],
        JSON.stringify([f32Values, f16Values]),
      ),
    ) as [string[], string[]];
    const digits = (t: string) => t.replace(/^-/, "").replace(/e.*$/i, "").replace(".", "").replace(/^0+/, "").replace(/0+$/, "").length || 1;
    for (const [values, texts, format] of [
      [f32Values, printed[0], FLOAT32],
      [f16Values, printed[1], FLOAT16],
    ] as const) {
      for (const [i, x] of values.entries()) {
        const ours = shortestFloatText(x, format);
        expect(roundToFormat(Number(ours), format), ours).toBe(x);
        expect(Number(ours), `${x}: ours ${ours}, numpy ${texts[i]}`).toBe(Number(texts[i]));
        expect(digits(ours), `${x}: ours ${ours}, numpy ${texts[i]}`).toBe(digits(texts[i]));
      }
    }
  });

  it("keeps negative zero and writes JSON number syntax", () => {
    expect(shortestFloatText(-0, FLOAT32)).toBe("-0.0");
    expect(shortestFloatText(0, FLOAT32)).toBe("0");
    expect(shortestFloatText(float32FromBits(1), FLOAT32)).toBe("1e-45");
    expect(shortestFloatText(Math.fround(3.4028234663852886e38), FLOAT32)).toBe("3.4028235e+38");
    expect(() => JSON.parse(shortestFloatText(Math.fround(1e-40), FLOAT32))).not.toThrow();
  });
});

describe("zarr get --format json", () => {
  it("prints float32, complex64 and float16 values as NumPy does, float64 in full", async () => {
    const dir = tempDir();
    const store = new FileSystemStore(dir);
    const values = [0.06, 0.1, 1 / 3, -0];
    for (const dataType of ["float32", "float16", "float64"] as const) {
      const arr = await createArray(store, dataType, { shape: [4], chunkShape: [4], dataType });
      await set(arr, null, values);
    }
    const c = await createArray(store, "complex64", { shape: [1], chunkShape: [1], dataType: "complex64" });
    await set(c, null, [[0.06, -0.1]]);
    const text = async (name: string) => (await zarrOk(["get", path.join(dir), name, "--format", "json"])).stdout.toString("utf8");
    expect(await text("float32")).toContain('"values":[0.06,0.1,0.33333334,-0.0]');
    expect(await text("float16")).toContain('"values":[0.06,0.1,0.3333,-0.0]');
    expect(await text("float64")).toContain('"values":[0.06,0.1,0.3333333333333333,-0.0]');
    expect(await text("complex64")).toContain('"values":[[0.06,-0.1]]');
  });
});
