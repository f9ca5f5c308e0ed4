/**
 * Interop of the numcodecs array filters with numcodecs 0.11 itself, in one batched Python
 * call: numcodecs encodes → we decode to the values numcodecs decodes; we encode → our
 * bytes equal numcodecs' own encoding (bit for bit, NaN payloads aside) and numcodecs
 * decodes them to what we decode.
 */
import type { CodecEntry, DataType, JsonObject, TypedArray } from "@zarr/spec";
import { shapeSize } from "@zarr/spec";
import { beforeAll, describe, expect, it } from "vitest";
import { asType, delta, fixedScaleOffset, numcodecsBitround, numcodecsPackBits, quantize } from "../src/index.js";
import { numpyStr } from "../src/numpy-dtype.js";
import { NUM, type NumType, numTypeOf } from "../src/numeric-type.js";
import { arrayCodec, b64, ctx, dataType, firstDifference, fromLE, nd, python, sameValues, toLE, unb64, NO_PYTHON } from "./helpers.js";
import { sampleValues } from "./samples.js";

interface Case {
  label: string;
  entry: CodecEntry;
  id: string;
  config: JsonObject;
  type: NumType;
  shape: number[];
  values?: TypedArray;
  /** Compare encodings as raw bytes (bit patterns), not values. */
  bitExact?: boolean;
  sample?: { specials?: boolean; scale?: number };
}

const cases: Case[] = [];
const add = (c: Case) => cases.push(c);

// delta: every numeric type, with and without astype, 1-d and 2-d
for (const t of [NUM.i1, NUM.i2, NUM.i4, NUM.i8, NUM.u1, NUM.u2, NUM.u4, NUM.u8, NUM.f2, NUM.f4, NUM.f8, NUM.c8, NUM.c16]) {
  add({ label: `delta ${t.code}`, entry: delta, id: "delta", config: { dtype: numpyStr(t) }, type: t, shape: [57], sample: { specials: true } });
  add({ label: `delta ${t.code} 2-d`, entry: delta, id: "delta", config: { dtype: t.v3 }, type: t, shape: [6, 7] });
}
for (const [from, to] of [
  [NUM.i2, NUM.i1],
  [NUM.i4, NUM.i8],
  [NUM.u1, NUM.i2],
  [NUM.u8, NUM.i8],
  [NUM.f8, NUM.f4],
  [NUM.f4, NUM.f8],
  [NUM.f4, NUM.i2],
  [NUM.i4, NUM.f8],
  [NUM.i2, NUM.f2],
  [NUM.f2, NUM.f4],
  [NUM.c8, NUM.c16],
] as const) {
  add({
    label: `delta ${from.code} as ${to.code}`,
    entry: delta,
    id: "delta",
    config: { dtype: numpyStr(from), astype: numpyStr(to) },
    type: from,
    shape: [40],
    sample: { scale: 100 },
  });
}

// fixedscaleoffset: the numcodecs docs' examples, wrap-around, integer data, float16
const fso = (label: string, t: NumType, config: JsonObject, sample?: Case["sample"]) =>
  add({ label: `fixedscaleoffset ${label}`, entry: fixedScaleOffset, id: "fixedscaleoffset", config, type: t, shape: [64], sample });
fso("f8→u1", NUM.f8, { offset: 1000, scale: 10, dtype: "<f8", astype: "|u1" }, { scale: 20 });
fso("f8→u2 scale 1000", NUM.f8, { offset: 1000, scale: 1000, dtype: "<f8", astype: "<u2" }, { scale: 2 });
fso("f4→i2 wraps", NUM.f4, { offset: 1000, scale: 10, dtype: "<f4", astype: "<i2" }, { scale: 20000 });
fso("f4 specials→i4", NUM.f4, { offset: 0.5, scale: 3, dtype: "<f4", astype: "<i4" }, { specials: true });
fso("f8→f4", NUM.f8, { offset: -2.5, scale: 0.1, dtype: "<f8", astype: "<f4" });
fso("f8 no astype", NUM.f8, { offset: 12.25, scale: 4, dtype: "float64" });
fso("i2→i1", NUM.i2, { offset: 1000, scale: 1, dtype: "<i2", astype: "|i1" });
fso("i4 float offset", NUM.i4, { offset: 0.5, scale: 2, dtype: "<i4", astype: "<i4" });
fso("u1 negative offset", NUM.u1, { offset: -3, scale: 2, dtype: "|u1", astype: "<u2" });
fso("i8", NUM.i8, { offset: 7, scale: 3, dtype: "<i8", astype: "<i8" });
fso("f2→u1", NUM.f2, { offset: 10, scale: 2, dtype: "<f2", astype: "|u1" }, { scale: 100 });
fso("f2 big scale", NUM.f2, { offset: 0, scale: 1000, dtype: "<f2", astype: "<i4" }, { scale: 50 });

// quantize
for (const t of [NUM.f2, NUM.f4, NUM.f8]) {
  for (const digits of [0, 1, 2, 3, 5]) {
    add({
      label: `quantize ${t.code} digits ${digits}`,
      entry: quantize,
      id: "quantize",
      config: { digits, dtype: numpyStr(t) },
      type: t,
      shape: [48],
      sample: { specials: true, scale: 10 },
    });
  }
}
add({ label: "quantize f8 as f4", entry: quantize, id: "quantize", config: { digits: 2, dtype: "<f8", astype: "<f4" }, type: NUM.f8, shape: [48] });
add({ label: "quantize f4 as f2", entry: quantize, id: "quantize", config: { digits: 1, dtype: "<f4", astype: "<f2" }, type: NUM.f4, shape: [48] });

// bitround: bit patterns must match exactly
for (const [t, keeps] of [
  [NUM.f2, [0, 1, 3, 9, 10]],
  [NUM.f4, [0, 1, 3, 10, 22, 23]],
  [NUM.f8, [0, 1, 3, 20, 31, 32, 33, 51, 52]],
] as const) {
  for (const keepbits of keeps) {
    add({
      label: `bitround ${t.code} keepbits ${keepbits}`,
      entry: numcodecsBitround,
      id: "bitround",
      config: { keepbits },
      type: t,
      shape: [50],
      bitExact: true,
      sample: { specials: true, scale: 1e6 },
    });
  }
}

// astype
for (const [from, to] of [
  [NUM.f8, NUM.f4],
  [NUM.f8, NUM.f2],
  [NUM.f8, NUM.i2],
  [NUM.f4, NUM.u1],
  [NUM.i4, NUM.i1],
  [NUM.i8, NUM.f4],
  [NUM.u8, NUM.f8],
  [NUM.u2, NUM.i8],
  [NUM.i1, NUM.b1],
  [NUM.b1, NUM.f4],
  [NUM.f4, NUM.c8],
  [NUM.c16, NUM.c8],
] as const) {
  add({
    label: `astype ${from.code}→${to.code}`,
    entry: asType,
    id: "astype",
    config: { encode_dtype: numpyStr(to), decode_dtype: numpyStr(from) },
    type: from,
    shape: [5, 9],
    sample: { scale: 600 },
  });
}

// packbits: every padding count
for (const n of [1, 7, 8, 9, 15, 16, 17, 64, 101]) {
  add({ label: `packbits ${n}`, entry: numcodecsPackBits, id: "packbits", config: {}, type: NUM.b1, shape: [n] });
}
add({ label: "packbits 2-d", entry: numcodecsPackBits, id: "packbits", config: {}, type: NUM.b1, shape: [3, 5] });

interface Prepared {
  c: Case;
  inDt: DataType;
  encDt: DataType;
  values: TypedArray;
  ours: TypedArray;
  oursDecoded: TypedArray;
}

interface PyResult {
  encoded: string;
  encodedDtype: string;
  decoded: string;
  decodedOurs: string;
  error?: string;
}

const prepared: Prepared[] = [];
let results: PyResult[];

beforeAll(async () => {
  if (NO_PYTHON) return;
  for (const [i, c] of cases.entries()) {
    const inDt = await dataType(c.type.v3);
    const n = shapeSize(c.shape);
    const values = c.values ?? sampleValues(c.type, inDt, n, 1000 + i, c.sample);
    const codec = await arrayCodec(c.entry, c.config, inDt, c.shape);
    const spec = { shape: c.shape, dataType: inDt, fillValue: inDt.getItem(inDt.allocate(1), 0) };
    const encSpec = codec.encodedSpec(spec);
    const enc = await codec.encode(nd(values, c.shape), spec, ctx);
    const dec = await codec.decode(enc, spec, ctx);
    prepared.push({ c, inDt, encDt: encSpec.dataType, values, ours: enc.data as TypedArray, oursDecoded: dec.data as TypedArray });
  }
  results = python<PyResult[]>(
    `
import warnings
warnings.simplefilter("ignore")
out = []
with np.errstate(all="ignore"):
    for c in data:
        try:
            arr = np.frombuffer(unb64(c["input"]), dtype=c["dtype"]).reshape(c["shape"]).copy()
            codec = numcodecs.get_codec(dict(c["config"], id=c["id"]))
            enc = np.asarray(codec.encode(arr))
            dec = np.asarray(codec.decode(enc))
            ours = np.frombuffer(unb64(c["ours"]), dtype=enc.dtype)
            dec_ours = np.asarray(codec.decode(ours))
            out.append({"encoded": b64(enc.tobytes()), "encodedDtype": enc.dtype.str,
                        "decoded": b64(dec.tobytes()), "decodedOurs": b64(dec_ours.tobytes())})
        except Exception as e:
            out.append({"error": repr(e), "encoded": "", "encodedDtype": "", "decoded": "", "decodedOurs": ""})
print(json.dumps(out))
`,
    prepared.map((p) => ({
      input: b64(toLE(p.inDt, p.values)),
      dtype: numpyStr(p.c.type),
      shape: p.c.shape,
      id: p.c.id,
      config: p.c.config,
      ours: b64(toLE(p.encDt, p.ours)),
    })),
  );
});

describe.skipIf(NO_PYTHON).each(cases.map((c, i) => [c.label, i] as const))("%s", (_label, i) => {
  it("encodes exactly as numcodecs 0.11 does", () => {
    const p = prepared[i];
    const r = results[i];
    expect(r.error).toBeUndefined();
    if (p.c.bitExact) {
      expect(b64(toLE(p.encDt, p.ours))).toBe(r.encoded);
      return;
    }
    const encNum = numTypeOf(p.encDt) as NumType;
    expect(r.encodedDtype.replace(">", "<")).toBe(numpyStr(encNum));
    const theirs = fromLE(p.encDt, unb64(r.encoded));
    expect(sameValues(p.ours, theirs), firstDifference(p.ours, theirs)).toBe(true);
  });

  it("decodes numcodecs' encoding to what numcodecs decodes, and numcodecs decodes ours likewise", async () => {
    const p = prepared[i];
    const r = results[i];
    const codec = await arrayCodec(p.c.entry, p.c.config, p.inDt, p.c.shape);
    const spec = { shape: p.c.shape, dataType: p.inDt, fillValue: p.inDt.getItem(p.inDt.allocate(1), 0) };
    const encShape = codec.encodedSpec(spec).shape;
    const theirEnc = p.c.bitExact ? fromLE(p.encDt, unb64(r.encoded)) : fromLE(p.encDt, unb64(r.encoded));
    const decoded = (await codec.decode(nd(theirEnc, encShape), spec, ctx)).data as TypedArray;
    const theirDecoded = fromLE(p.inDt, unb64(r.decoded));
    expect(sameValues(decoded, theirDecoded), firstDifference(decoded, theirDecoded)).toBe(true);
    const theirDecodedOurs = fromLE(p.inDt, unb64(r.decodedOurs));
    expect(sameValues(p.oursDecoded, theirDecodedOurs), firstDifference(p.oursDecoded, theirDecodedOurs)).toBe(true);
  });
});

describe.skipIf(NO_PYTHON)("lossless filters give back the input", () => {
  it("delta (integers), astype to a wider type and packbits round-trip exactly", () => {
    for (const p of prepared) {
      // float deltas are not exact (inf - inf, rounding, -0), in numcodecs neither
      const integer = p.c.type.kind === "i" || p.c.type.kind === "u";
      const lossless =
        (p.c.id === "delta" && p.c.config.astype === undefined && integer) ||
        p.c.id === "packbits" ||
        (p.c.id === "astype" && p.c.label.includes("u2→i8"));
      if (!lossless) continue;
      expect(sameValues(p.oursDecoded, p.values), `${p.c.label}: ${firstDifference(p.oursDecoded, p.values)}`).toBe(true);
    }
  });

  it("encodes a strided view (a transposed chunk) like its C-contiguous copy", async () => {
    const dt = await dataType("int32");
    const data = new Int32Array(Array.from({ length: 12 }, (_, i) => i * i - 7));
    const codec = await arrayCodec(delta, { dtype: "<i4" }, dt, [4, 3]);
    const spec = { shape: [4, 3], dataType: dt, fillValue: 0 };
    // the transpose of a C-contiguous 3×4 array, as the transpose codec hands it over
    const view = { data, shape: [4, 3], stride: [1, 4] };
    const copy = new Int32Array(12);
    for (let r = 0; r < 4; r++) for (let c = 0; c < 3; c++) copy[r * 3 + c] = data[c * 4 + r];
    const a = await codec.encode(view, spec, ctx);
    const b = await codec.encode(nd(copy, [4, 3]), spec, ctx);
    expect(Array.from(a.data as Int32Array)).toEqual(Array.from(b.data as Int32Array));
    const back = await codec.decode(a, spec, ctx);
    expect(Array.from(back.data as Int32Array)).toEqual(Array.from(copy));
  });
});
