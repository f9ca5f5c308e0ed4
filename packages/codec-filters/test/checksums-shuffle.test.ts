/**
 * The bytes→bytes codecs: numcodecs.shuffle and the checksum codecs, against numcodecs 0.11
 * (shuffle, crc32, adler32), zlib, the published test vectors (fletcher32, lookup3) and
 * straightforward Python transcriptions of the HDF5 algorithms for every tail length.
 */
import { ZarrError } from "@zarr/spec";
import { beforeAll, describe, expect, it } from "vitest";
import {
  adler32Codec,
  crc32Codec,
  fletcher32,
  fletcher32Codec,
  jenkinsLookup3Codec,
  lookup3,
  shuffle,
} from "../src/index.js";
import { b2bCodec, b64, buildContext, ctx, dataType, python, randomBytes, unb64, NO_PYTHON } from "./helpers.js";

const payloads = [0, 1, 2, 3, 4, 7, 12, 13, 24, 25, 100, 719, 720, 721, 1441, 10_000].map((n, i) => randomBytes(n, 50 + i));

interface Reference {
  crc32: string[];
  adler32: string[];
  zlibCrc: number[];
  zlibAdler: number[];
  fletcher: number[];
  lookup3: number[];
  shuffled: Record<string, string[]>;
}
let ref: Reference;
const SHUFFLE_SIZES = [2, 3, 4, 8, 16];

beforeAll(() => {
  if (NO_PYTHON) return;
  ref = python<Reference>(
    `
from numcodecs import CRC32, Adler32, Shuffle
ps = [unb64(p) for p in data["payloads"]]

def fletcher(b):
    # HDF5 H5_checksum_fletcher32, transcribed
    s1 = s2 = 0
    words = len(b) // 2
    i = 0
    while words:
        t = min(words, 360)
        words -= t
        for _ in range(t):
            s1 += (b[i] << 8) | b[i + 1]
            i += 2
            s2 += s1
        s1 = (s1 & 0xffff) + (s1 >> 16)
        s2 = (s2 & 0xffff) + (s2 >> 16)
    if len(b) % 2:
        s1 += b[i] << 8
        s2 += s1
        s1 = (s1 & 0xffff) + (s1 >> 16)
        s2 = (s2 & 0xffff) + (s2 >> 16)
    s1 = (s1 & 0xffff) + (s1 >> 16)
    s2 = (s2 & 0xffff) + (s2 >> 16)
    return (s2 << 16) | s1

M = 0xffffffff
rot = lambda x, k: ((x << k) | (x >> (32 - k))) & M
def lookup3(k, initval=0):
    # Bob Jenkins' hashlittle, byte at a time
    n = len(k)
    a = b = c = (0xdeadbeef + n + initval) & M
    if n == 0:
        return c
    i = 0
    while n > 12:
        a = (a + int.from_bytes(k[i:i+4], "little")) & M
        b = (b + int.from_bytes(k[i+4:i+8], "little")) & M
        c = (c + int.from_bytes(k[i+8:i+12], "little")) & M
        a = (a - c) & M; a ^= rot(c, 4); c = (c + b) & M
        b = (b - a) & M; b ^= rot(a, 6); a = (a + c) & M
        c = (c - b) & M; c ^= rot(b, 8); b = (b + a) & M
        a = (a - c) & M; a ^= rot(c, 16); c = (c + b) & M
        b = (b - a) & M; b ^= rot(a, 19); a = (a + c) & M
        c = (c - b) & M; c ^= rot(b, 4); b = (b + a) & M
        n -= 12
        i += 12
    tail = k[i:i+n] + bytes(12 - n)
    a = (a + int.from_bytes(tail[0:4], "little")) & M
    b = (b + int.from_bytes(tail[4:8], "little")) & M
    c = (c + int.from_bytes(tail[8:12], "little")) & M
    c ^= b; c = (c - rot(b, 14)) & M
    a ^= c; a = (a - rot(c, 11)) & M
    b ^= a; b = (b - rot(a, 25)) & M
    c ^= b; c = (c - rot(b, 16)) & M
    a ^= c; a = (a - rot(c, 4)) & M
    b ^= a; b = (b - rot(a, 14)) & M
    c ^= b; c = (c - rot(b, 24)) & M
    return c

out = {
    "crc32": [b64(CRC32().encode(p)) for p in ps],
    "adler32": [b64(Adler32().encode(p)) for p in ps],
    "zlibCrc": [zlib.crc32(p) for p in ps],
    "zlibAdler": [zlib.adler32(p) for p in ps],
    "fletcher": [fletcher(p) for p in ps],
    "lookup3": [lookup3(p, 7) for p in ps],
    "shuffled": {str(e): [b64(Shuffle(e).encode(p[: len(p) - len(p) % e])) for p in ps] for e in data["sizes"]},
}
print(json.dumps(out))
`,
    { payloads: payloads.map(b64), sizes: SHUFFLE_SIZES },
  );
});

async function expectError(promise: Promise<unknown> | (() => unknown), code: string): Promise<ZarrError> {
  let error: unknown;
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ZarrError);
  expect((error as ZarrError).code).toBe(code);
  return error as ZarrError;
}

describe.skipIf(NO_PYTHON)("numcodecs.crc32 and numcodecs.adler32", () => {
  it("write what numcodecs 0.11 writes (checksum first) and read it back", async () => {
    const crc = await b2bCodec(crc32Codec);
    const adler = await b2bCodec(adler32Codec);
    for (const [i, p] of payloads.entries()) {
      expect(b64(await crc.encode(p, ctx))).toBe(ref.crc32[i]);
      expect(b64(await adler.encode(p, ctx))).toBe(ref.adler32[i]);
      expect(Buffer.compare(await crc.decode(unb64(ref.crc32[i]), ctx), p)).toBe(0);
      expect(Buffer.compare(await adler.decode(unb64(ref.adler32[i]), ctx), p)).toBe(0);
    }
  });

  it("put the checksum last with location end (numcodecs ≥ 0.14)", async () => {
    const crc = await b2bCodec(crc32Codec, { location: "end" });
    const adler = await b2bCodec(adler32Codec, { location: "end" });
    for (const [i, p] of payloads.entries()) {
      const c = await crc.encode(p, ctx);
      const a = await adler.encode(p, ctx);
      expect(new DataView(c.buffer).getUint32(p.length, true)).toBe(ref.zlibCrc[i]);
      expect(new DataView(a.buffer).getUint32(p.length, true)).toBe(ref.zlibAdler[i]);
      expect(Buffer.compare(c.subarray(0, p.length), p)).toBe(0);
      expect(Buffer.compare(await crc.decode(c, ctx), p)).toBe(0);
    }
    expect(crc.toJSON()).toEqual({ name: "numcodecs.crc32", configuration: { location: "end" } });
    expect((await b2bCodec(crc32Codec, { id: "crc32" })).toJSON()).toEqual({
      name: "numcodecs.crc32",
      configuration: { location: "start" },
    });
  });

  it("report corruption as CHECKSUM_MISMATCH naming the chunk, short input as CODEC_FAILED", async () => {
    for (const entry of [crc32Codec, adler32Codec, fletcher32Codec, jenkinsLookup3Codec]) {
      const codec = await b2bCodec(entry);
      const encoded = await codec.encode(payloads[10], ctx);
      for (const at of [0, 3, 4, 50, encoded.length - 1]) {
        const bad = encoded.slice();
        bad[at] ^= 0x10;
        const e = await expectError(async () => codec.decode(bad, ctx), "CHECKSUM_MISMATCH");
        expect(e.message).toContain(ctx.key);
        expect(e.key).toBe(ctx.key);
      }
      await expectError(async () => codec.decode(new Uint8Array(3), ctx), "CODEC_FAILED");
      expect(codec.computeEncodedSize?.(100)).toBe(104);
    }
  });
});

describe.skipIf(NO_PYTHON)("numcodecs.fletcher32", () => {
  it("matches numcodecs' published HDF5 vector", async () => {
    const hex =
      "77070000000000008" +
      "5f6ffffffffffff69070000000000009" +
      "4f6ffffffffffff880900000000000069030000000000009" +
      "3fdffffffffffffc3fcffffffffffff270200000000000" +
      "0baf7fffffffffffffd258664";
    const data = new Uint8Array(Buffer.from(hex, "hex"));
    const codec = await b2bCodec(fletcher32Codec);
    const decoded = await codec.decode(data, ctx);
    const values = Array.from(new BigInt64Array(decoded.slice().buffer), Number);
    expect(values).toEqual([1911, -2427, 1897, -2412, 2440, 873, -621, -829, 551, -2118]);
  });

  it("agrees with the HDF5 algorithm for every length (odd tails, 360-word blocks)", async () => {
    const codec = await b2bCodec(fletcher32Codec);
    for (const [i, p] of payloads.entries()) {
      expect(fletcher32(p)).toBe(ref.fletcher[i]);
      const enc = await codec.encode(p, ctx);
      expect(new DataView(enc.buffer).getUint32(p.length, true)).toBe(ref.fletcher[i]);
    }
  });
});

describe.skipIf(NO_PYTHON)("numcodecs.jenkins_lookup3", () => {
  it("matches Bob Jenkins' test vectors and numcodecs' codec vector", async () => {
    const text = (s: string) => new TextEncoder().encode(s);
    expect(lookup3(text(""), 0)).toBe(0xdeadbeef);
    expect(lookup3(text(""), 0xdeadbeef)).toBe(0xbd5b7dde);
    expect(lookup3(text("Four score and seven years ago"), 0)).toBe(0x17770551);
    expect(lookup3(text("Four score and seven years ago"), 1)).toBe(0xcd628161);
    expect(lookup3(text("jenkins"), 0)).toBe(202276345);
    const codec = await b2bCodec(jenkinsLookup3Codec, { initval: 0 });
    const enc = await codec.encode(text("Four score and seven years ago"), ctx);
    expect(Array.from(enc.subarray(-4))).toEqual([0x51, 0x05, 0x77, 0x17]);
  });

  it("agrees with a transcription of hashlittle for every tail length", () => {
    for (const [i, p] of payloads.entries()) expect(lookup3(p, 7), `length ${p.length}`).toBe(ref.lookup3[i]);
  });

  it("hashes a prefix before the data", async () => {
    const prefix = new Uint8Array([1, 2, 3]);
    const data = new Uint8Array([9, 8, 7, 6]);
    const codec = await b2bCodec(jenkinsLookup3Codec, { initval: 5, prefix: [1, 2, 3] });
    const enc = await codec.encode(data, ctx);
    const joined = new Uint8Array([...prefix, ...data]);
    expect(new DataView(enc.buffer).getUint32(4, true)).toBe(lookup3(joined, 5));
    const fromBase64 = await b2bCodec(jenkinsLookup3Codec, { initval: 5, prefix: b64(prefix) });
    expect(Array.from(await fromBase64.encode(data, ctx))).toEqual(Array.from(enc));
    expect(codec.toJSON()).toEqual({ name: "numcodecs.jenkins_lookup3", configuration: { initval: 5, prefix: [1, 2, 3] } });
  });
});

describe.skipIf(NO_PYTHON)("numcodecs.shuffle", () => {
  it("shuffles like numcodecs 0.11 and unshuffles numcodecs' output", async () => {
    for (const size of SHUFFLE_SIZES) {
      const codec = await b2bCodec(shuffle, { elementsize: size });
      for (const [i, p] of payloads.entries()) {
        const whole = p.subarray(0, p.length - (p.length % size));
        expect(b64(await codec.encode(whole, ctx)), `elementsize ${size}, ${whole.length} bytes`).toBe(ref.shuffled[size][i]);
        expect(Buffer.compare(await codec.decode(unb64(ref.shuffled[size][i]), ctx), whole)).toBe(0);
      }
    }
  });

  it("uses the data type's item size when elementsize is missing, as zarr-python 3 does", async () => {
    const codec = await shuffle.fromConfig({}, buildContext(await dataType("float64"), [4]));
    expect(codec.toJSON()).toEqual({ name: "numcodecs.shuffle", configuration: { elementsize: 8 } });
  });

  it("rejects input that is not a whole number of elements", async () => {
    const codec = await b2bCodec(shuffle, { elementsize: 4 });
    await expectError(async () => codec.decode(new Uint8Array(10), ctx), "CODEC_FAILED");
    await expectError(async () => codec.encode(new Uint8Array(10), ctx), "INVALID_ARGUMENT");
    const one = await b2bCodec(shuffle, { elementsize: 1 });
    expect(Array.from(await one.encode(new Uint8Array([1, 2, 3]), ctx))).toEqual([1, 2, 3]);
  });
});
