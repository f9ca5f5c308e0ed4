import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import {
  type ChunkSpec,
  type CodecBuildContext,
  type DataType,
  type DataTypeKind,
  MetadataError,
  type NdArray,
  type Scalar,
  ZarrError,
} from "@zarr/spec";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { fixturesDir, havePythonZarr, skipWithout } from "../../../scripts/test-env.mjs";

const NO_PYTHON = skipWithout(havePythonZarr(), "python3-zarr (numcodecs)");
import { VlenBytesCodec, VlenUtf8Codec, vlenBytes, vlenUtf8 } from "../src/index.js";

/**
 * A minimal stand-in for the core's `string` / `bytes` data types (codec packages
 * never import @zarr/core); enough for the pipeline-facing parts the codecs use.
 */
function standInDataType(kind: DataTypeKind, name: string, byteSize?: number): DataType {
  const zero: Scalar = kind === "bytes" ? new Uint8Array(0) : "";
  return {
    name,
    configuration: {},
    kind,
    byteSize,
    componentSize: 1,
    width: 1,
    allocate: (n) => new Array<Scalar>(n).fill(zero),
    fill: (t, v, s, e) => void (t as Scalar[]).fill(v, s, e),
    getItem: (a, i) => (a as Scalar[])[i],
    setItem: (a, i, v) => void ((a as Scalar[])[i] = v),
    allEqual: (a, v, s, e) => (a as Scalar[]).slice(s, e).every((x) => x === v),
    coerce: (v) => v as Scalar,
    parseFillValue: (j) => j as Scalar,
    fillValueToJson: (v) => v as string,
    toJSON: () => name,
  };
}

const stringType = standInDataType("string", "string");
const bytesType = standInDataType("bytes", "bytes");
const ctx = { key: "arr/c/0/1" };

function spec(dataType: DataType, shape: number[]): ChunkSpec {
  return { shape, dataType, fillValue: dataType.kind === "bytes" ? new Uint8Array(0) : "" };
}

function build(dataType: DataType, path: (string | number)[] = ["codecs", 0]): CodecBuildContext {
  return {
    spec: spec(dataType, [1]),
    path,
    buildPipeline: () => Promise.reject(new Error("not used")),
    resolveDataType: () => Promise.reject(new Error("not used")),
  };
}

function chunkOf<T extends Scalar>(items: T[], shape = [items.length]): NdArray {
  const stride: number[] = [];
  let s = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    stride[d] = s;
    s *= shape[d];
  }
  return { data: items, shape, stride };
}

function python(code: string, input: string): string {
  return execFileSync("/usr/bin/python3", ["-c", code], { input, encoding: "utf8" });
}
function hex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}
function fromHex(h: string): Uint8Array {
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(h.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function codecFailed(fn: () => unknown, key = ctx.key): ZarrError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ZarrError);
    expect((e as ZarrError).code).toBe("CODEC_FAILED");
    expect((e as ZarrError).message).toContain(key);
    return e as ZarrError;
  }
  return expect.fail("expected CODEC_FAILED");
}

const utf8 = new VlenUtf8Codec();
const SAMPLE_BYTES = [new Uint8Array(0), new Uint8Array([0]), new Uint8Array([1, 2, 3]), new Uint8Array(100).map((_, i) => i * 3)];
const bytesCodec = new VlenBytesCodec();

const SAMPLE_STRINGS = ["", "a", "héllo", "😀 astral 𝄞", "\u0000nul\u0000", "\uFEFFbom", "日本語テキスト", "x".repeat(300)];
const MANY_STRINGS = [...SAMPLE_STRINGS, ...fc.sample(fc.string({ unit: "binary", maxLength: 20 }), { numRuns: 200, seed: 7 })];

/**
 * One Python run (numcodecs takes a while to import) that encodes our samples with
 * numcodecs and decodes what we encoded with numcodecs.
 */
const INTEROP = `
import sys, json, numpy as np, numcodecs
req = json.load(sys.stdin)
u, b = numcodecs.VLenUTF8(), numcodecs.VLenBytes()
json.dump({
  "utf8Encoded": bytes(u.encode(np.array(req["strings"], dtype=object))).hex(),
  "utf8Decoded": u.decode(bytes.fromhex(req["ourUtf8"])).tolist(),
  "bytesEncoded": bytes(b.encode(np.array([bytes.fromhex(h) for h in req["bytes"]], dtype=object))).hex(),
  "bytesDecoded": [x.hex() for x in b.decode(bytes.fromhex(req["ourBytes"])).tolist()],
}, sys.stdout)
`;
let interop: { utf8Encoded: string; utf8Decoded: string[]; bytesEncoded: string; bytesDecoded: string[] };

beforeAll(() => {
  const ourUtf8 = utf8.encode(chunkOf(MANY_STRINGS), spec(stringType, [MANY_STRINGS.length]), ctx);
  const ourBytes = bytesCodec.encode(chunkOf(SAMPLE_BYTES), spec(bytesType, [SAMPLE_BYTES.length]), ctx);
  const input = JSON.stringify({
    strings: SAMPLE_STRINGS,
    ourUtf8: hex(ourUtf8),
    bytes: SAMPLE_BYTES.map(hex),
    ourBytes: hex(ourBytes),
  });
  if (!NO_PYTHON) interop = JSON.parse(python(INTEROP, input));
});

describe("vlen-utf8", () => {
  it("encodes the numcodecs layout", () => {
    const out = utf8.encode(chunkOf(["a", "", "😀"]), spec(stringType, [3]), ctx);
    expect(hex(out)).toBe("0300000001000000610000000004000000f09f9880");
  });

  it("round trips random unicode strings, including astral characters and empty strings", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ unit: "binary" }), fc.constantFrom("", "😀", "\uFEFF")), { maxLength: 40 }), (items) => {
        const s = spec(stringType, [items.length]);
        const encoded = utf8.encode(chunkOf(items), s, ctx);
        const decoded = utf8.decode(encoded, s, ctx);
        expect(decoded.data).toEqual(items);
        expect(decoded.shape).toEqual([items.length]);
        expect(decoded.stride).toEqual([1]);
      }),
      { numRuns: 150 },
    );
  });

  it("keeps the chunk shape and C strides", () => {
    const s = spec(stringType, [2, 3]);
    const items = ["a", "b", "c", "d", "e", "f"];
    const decoded = utf8.decode(utf8.encode(chunkOf(items, [2, 3]), s, ctx), s, ctx);
    expect(decoded).toEqual({ data: items, shape: [2, 3], stride: [3, 1] });
  });

  it("encodes a strided (non-C-contiguous) view in C order", () => {
    // a 2×3 array stored in F order
    const fOrder: NdArray = { data: ["a", "d", "b", "e", "c", "f"], shape: [2, 3], stride: [1, 2] };
    const s = spec(stringType, [2, 3]);
    expect(utf8.decode(utf8.encode(fOrder, s, ctx), s, ctx).data).toEqual(["a", "b", "c", "d", "e", "f"]);
  });

  it.skipIf(NO_PYTHON)("decodes what numcodecs VLenUTF8 encodes", () => {
    const decoded = utf8.decode(fromHex(interop.utf8Encoded), spec(stringType, [SAMPLE_STRINGS.length]), ctx);
    expect(decoded.data).toEqual(SAMPLE_STRINGS);
    // and encodes the same bytes
    expect(hex(utf8.encode(chunkOf(SAMPLE_STRINGS), spec(stringType, [SAMPLE_STRINGS.length]), ctx))).toBe(interop.utf8Encoded);
  });

  it.skipIf(NO_PYTHON)("produces what numcodecs VLenUTF8 decodes", () => {
    expect(interop.utf8Decoded).toEqual(MANY_STRINGS);
  });

  it("rejects truncated, overlong, miscounted and invalid UTF-8 input with CODEC_FAILED naming the chunk", () => {
    const s3 = spec(stringType, [3]);
    const good = utf8.encode(chunkOf(["ab", "", "€"]), s3, ctx);
    codecFailed(() => utf8.decode(new Uint8Array(0), s3, ctx));
    codecFailed(() => utf8.decode(new Uint8Array([3, 0, 0]), s3, ctx));
    codecFailed(() => utf8.decode(good, spec(stringType, [2]), ctx)); // count differs from the chunk
    codecFailed(() => utf8.decode(good, spec(stringType, [4]), ctx));
    for (let cut = 1; cut < good.length; cut++) codecFailed(() => utf8.decode(good.subarray(0, cut), s3, ctx));
    codecFailed(() => utf8.decode(new Uint8Array([...good, 0]), s3, ctx)); // overlong
    // a header promising 2^32-1 items, or an item of 2^32-1 bytes: refused without allocating
    codecFailed(() => utf8.decode(new Uint8Array([0xff, 0xff, 0xff, 0xff]), spec(stringType, [0xffffffff]), ctx));
    codecFailed(() => utf8.decode(new Uint8Array([1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x61]), spec(stringType, [1]), ctx));
    // invalid UTF-8
    const frame = (...items: number[][]) => {
      const out: number[] = [items.length, 0, 0, 0];
      for (const it of items) out.push(it.length, 0, 0, 0, ...it);
      return new Uint8Array(out);
    };
    codecFailed(() => utf8.decode(frame([0xff]), spec(stringType, [1]), ctx));
    codecFailed(() => utf8.decode(frame([0xc0, 0x80]), spec(stringType, [1]), ctx)); // overlong NUL
    codecFailed(() => utf8.decode(frame([0xed, 0xa0, 0x80]), spec(stringType, [1]), ctx)); // surrogate
    // "€" split across two items: valid when joined, invalid per item
    codecFailed(() => utf8.decode(frame([0x61, 0xe2, 0x82], [0xac]), spec(stringType, [2]), ctx));
    codecFailed(() => utf8.decode(frame([0xe2, 0x82], [], [0xac]), spec(stringType, [3]), ctx));
    expect(utf8.decode(frame([0xe2, 0x82, 0xac], []), spec(stringType, [2]), ctx).data).toEqual(["€", ""]);
  });

  it("never fails with anything but CODEC_FAILED on garbage", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.integer({ min: 0, max: 8 }), (bytes, n) => {
        try {
          const out = utf8.decode(bytes, spec(stringType, [n]), ctx);
          expect(out.data).toHaveLength(n);
        } catch (e) {
          expect(e).toBeInstanceOf(ZarrError);
          expect((e as ZarrError).code).toBe("CODEC_FAILED");
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses to encode non-strings with INVALID_ARGUMENT", () => {
    try {
      utf8.encode(chunkOf(["a", 3 as unknown as string]), spec(stringType, [2]), ctx);
      expect.fail("expected INVALID_ARGUMENT");
    } catch (e) {
      expect((e as ZarrError).code).toBe("INVALID_ARGUMENT");
      expect((e as ZarrError).message).toContain(ctx.key);
    }
  });
});

describe("zarr-python 3 fixtures", () => {
  const root = join(fixturesDir(), "zarr-python/v3/data.zarr");
  const expectedDir = join(fixturesDir(), "zarr-python/expected/v3");
  const arrays = readdirSync(root).filter((d) => {
    try {
      const meta = JSON.parse(readFileSync(join(root, d, "zarr.json"), "utf8"));
      return meta.node_type === "array" && meta.codecs[0].name === "vlen-utf8";
    } catch {
      return false;
    }
  });

  it.skipIf(NO_PYTHON)("decodes every vlen-utf8 chunk zarr-python 3 wrote (after zstd, undone by numcodecs)", () => {
    expect(arrays.length).toBeGreaterThanOrEqual(5);
    const chunks: { array: string; key: string; shape: number[]; index: number[] }[] = [];
    const files: string[] = [];
    for (const a of arrays) {
      const meta = JSON.parse(readFileSync(join(root, a, "zarr.json"), "utf8"));
      const chunkShape: number[] = meta.chunk_grid.configuration.chunk_shape;
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
          e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
        );
      for (const file of walk(join(root, a, "c"))) {
        const index = relative(join(root, a, "c"), file).split("/").map(Number);
        chunks.push({ array: a, key: relative(root, file), shape: chunkShape, index });
        files.push(file);
      }
    }
    const raw: string[] = JSON.parse(
      python(
        `import sys, json, numcodecs
z = numcodecs.Zstd()
print(json.dumps([bytes(z.decode(open(f, "rb").read())).hex() for f in json.load(sys.stdin)]))`,
        JSON.stringify(files),
      ),
    );
    const decodedPerArray = new Map<string, Map<string, string>>();
    chunks.forEach((c, i) => {
      const out = utf8.decode(fromHex(raw[i]), spec(stringType, c.shape), { key: c.key });
      // place the chunk's elements at their array coordinates (C order within the chunk)
      const cells = decodedPerArray.get(c.array) ?? new Map<string, string>();
      (out.data as string[]).forEach((v, j) => {
        const local: number[] = [];
        let rest = j;
        for (let d = c.shape.length - 1; d >= 0; d--) {
          local[d] = rest % c.shape[d];
          rest = Math.floor(rest / c.shape[d]);
        }
        cells.set(local.map((x, d) => x + c.index[d] * c.shape[d]).join(","), v);
      });
      decodedPerArray.set(c.array, cells);
    });
    for (const a of arrays) {
      const expected = JSON.parse(readFileSync(join(expectedDir, `${a}.json`), "utf8")) as { shape: number[]; values: string[] };
      const cells = decodedPerArray.get(a)!;
      expected.values.forEach((v, j) => {
        const idx: number[] = [];
        let rest = j;
        for (let d = expected.shape.length - 1; d >= 0; d--) {
          idx[d] = rest % expected.shape[d];
          rest = Math.floor(rest / expected.shape[d]);
        }
        expect(cells.get(idx.join(",")), `${a} element ${idx}`).toBe(v);
      });
    }
  });
});

describe("vlen-bytes", () => {
  it("round trips random byte strings", () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 30 }), (items) => {
        const s = spec(bytesType, [items.length]);
        const encoded = bytesCodec.encode(chunkOf(items), s, ctx);
        const decoded = bytesCodec.decode(encoded, s, ctx);
        expect(decoded.data).toEqual(items);
        // decoded items never alias the input
        if (items.some((x) => x.length > 0)) {
          expect((decoded.data as Uint8Array[]).every((x) => x.buffer !== encoded.buffer)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it.skipIf(NO_PYTHON)("decodes what numcodecs VLenBytes encodes, and produces what it decodes", () => {
    const s = spec(bytesType, [SAMPLE_BYTES.length]);
    expect(bytesCodec.decode(fromHex(interop.bytesEncoded), s, ctx).data).toEqual(SAMPLE_BYTES);
    expect(hex(bytesCodec.encode(chunkOf(SAMPLE_BYTES), s, ctx))).toBe(interop.bytesEncoded);
    expect(interop.bytesDecoded).toEqual(SAMPLE_BYTES.map(hex));
  });

  it("rejects corrupt input with CODEC_FAILED", () => {
    const s = spec(bytesType, [2]);
    const good = bytesCodec.encode(chunkOf([new Uint8Array([1, 2]), new Uint8Array([3])]), s, ctx);
    for (let cut = 0; cut < good.length; cut++) codecFailed(() => bytesCodec.decode(good.subarray(0, cut), s, ctx));
    codecFailed(() => bytesCodec.decode(new Uint8Array([...good, 9]), s, ctx));
    codecFailed(() => bytesCodec.decode(good, spec(bytesType, [3]), ctx));
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.integer({ min: 0, max: 8 }), (bytes, n) => {
        try {
          bytesCodec.decode(bytes, spec(bytesType, [n]), ctx);
        } catch (e) {
          expect((e as ZarrError).code).toBe("CODEC_FAILED");
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("refuses to encode non-Uint8Array elements", () => {
    try {
      bytesCodec.encode(chunkOf(["x"]), spec(bytesType, [1]), ctx);
      expect.fail("expected INVALID_ARGUMENT");
    } catch (e) {
      expect((e as ZarrError).code).toBe("INVALID_ARGUMENT");
    }
  });
});

describe("registry entries", () => {
  it("names, aliases and kind", () => {
    expect(vlenUtf8).toMatchObject({ type: "codec", name: "vlen-utf8", codecKind: "array_to_bytes", package: "@zarr/codec-vlen" });
    expect(vlenUtf8.aliases).toEqual(["numcodecs.vlen-utf8"]);
    expect(vlenBytes).toMatchObject({ type: "codec", name: "vlen-bytes", codecKind: "array_to_bytes" });
    expect(vlenBytes.aliases).toEqual(["numcodecs.vlen-bytes"]);
  });

  it("fromConfig checks the data type and builds the codec", async () => {
    const c = await vlenUtf8.fromConfig({}, build(stringType));
    expect(c.kind).toBe("array_to_bytes");
    expect(c.toJSON()).toEqual({ name: "vlen-utf8", configuration: {} });
    const b = await vlenBytes.fromConfig({}, build(standInDataType("bytes", "variable_length_bytes")));
    expect(b.toJSON()).toEqual({ name: "vlen-bytes", configuration: {} });
    for (const [entry, dataType] of [
      [vlenUtf8, bytesType],
      [vlenUtf8, standInDataType("int", "int32", 4)],
      [vlenUtf8, standInDataType("string", "fixed_length_utf32", 8)],
      [vlenBytes, stringType],
      [vlenBytes, standInDataType("raw", "r8", 1)],
    ] as const) {
      try {
        await entry.fromConfig({}, build(dataType, ["codecs", 2]));
        expect.fail("expected a MetadataError");
      } catch (e) {
        expect(e).toBeInstanceOf(MetadataError);
        expect((e as MetadataError).path).toEqual(["codecs", 2]);
        expect((e as MetadataError).message).toContain(dataType.name);
      }
    }
  });
});
