/**
 * Interop with the reference implementation (numcodecs 0.11 through Debian's Python) and
 * with chunks written by zarr-python.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as nodeZlib from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { fixturesDir, havePythonZarr, skipWithout } from "../../../scripts/test-env.mjs";
import { gzip, zlib } from "../src/index.js";
import {
  backends,
  compressibleBytes,
  concatBytes,
  ctx,
  fromBase64,
  gzipCodec,
  makeCodec,
  nodeBackend,
  python,
  randomBytes,
  sameBytes,
  toBase64,
  zlibCodec,
} from "./helpers.js";

const LEVELS = [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
const FIXTURES = join(fixturesDir(), "zarr-python");
const NO_PYTHON = skipWithout(havePythonZarr(), "python3-zarr (numcodecs)");
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

const payloads = [randomBytes(5000, 11), compressibleBytes(60_000), new Uint8Array(0), new TextEncoder().encode("a")];
const paddedMembers = concatBytes(nodeZlib.gzipSync(payloads[0]), new Uint8Array(3), nodeZlib.gzipSync(payloads[1]), new Uint8Array(7));

interface OurEncoding {
  format: "gzip" | "zlib";
  level: number;
  b64: string;
  expected: string;
  label: string;
}
interface PythonResults {
  decoded: string[];
  encoded: { gzip: string; zlib: string }[];
  concat: string;
  padded: string;
}

const ours: OurEncoding[] = [];
let results: PythonResults;

beforeAll(async () => {
  if (NO_PYTHON) return;
  for (const backend of backends) {
    for (const level of LEVELS) {
      const gz = await gzipCodec(backend, level);
      const zl = await zlibCodec(backend, level);
      for (const [i, payload] of payloads.entries()) {
        const expected = sha256(payload);
        const label = `${backend.name} level ${level} payload ${i}`;
        ours.push({ format: "gzip", level, b64: toBase64(await gz.encode(payload, ctx)), expected, label });
        ours.push({ format: "zlib", level, b64: toBase64(await zl.encode(payload, ctx)), expected, label });
      }
    }
  }
  results = python<PythonResults>(
    `
import hashlib
from numcodecs import GZip, Zlib
out = {}
codec = lambda e: GZip(e["level"]) if e["format"] == "gzip" else Zlib(e["level"])
out["decoded"] = [hashlib.sha256(bytes(codec(e).decode(unb64(e["b64"])))).hexdigest() for e in data["ours"]]
out["encoded"] = [
    {"gzip": b64(GZip(level).encode(unb64(p))), "zlib": b64(Zlib(level).encode(unb64(p)))}
    for p in data["payloads"] for level in data["levels"]
]
a, b = unb64(data["payloads"][0]), unb64(data["payloads"][1])
named = io.BytesIO()
with gzip.GzipFile(filename="chunk.bin", mode="wb", fileobj=named, mtime=123) as f:
    f.write(a)
out["concat"] = b64(GZip(1).encode(a) + GZip(9).encode(b) + named.getvalue())
out["padded"] = hashlib.sha256(bytes(GZip().decode(unb64(data["padded"])))).hexdigest()
print(json.dumps(out))
`,
    { ours: ours.map(({ format, level, b64 }) => ({ format, level, b64 })), payloads: payloads.map(toBase64), levels: LEVELS, padded: toBase64(paddedMembers) },
  );
});

describe.skipIf(NO_PYTHON)("numcodecs reads what we write", () => {
  it("GZip(level).decode and Zlib(level).decode return the original bytes", () => {
    expect(results.decoded).toHaveLength(ours.length);
    for (const [i, entry] of ours.entries()) {
      expect(results.decoded[i], `${entry.format} ${entry.label}`).toBe(entry.expected);
    }
  });
});

describe.skipIf(NO_PYTHON).each(backends.map((b) => [b.name, b] as const))("we read what numcodecs writes, with %s", (_name, backend) => {
  it("GZip(level).encode and Zlib(level).encode output at every level", async () => {
    const gz = await gzipCodec(backend);
    const zl = await zlibCodec(backend);
    let k = 0;
    for (const payload of payloads) {
      for (const level of LEVELS) {
        const { gzip: g, zlib: z } = results.encoded[k++];
        expect(sameBytes(await gz.decode(fromBase64(g), ctx), payload), `gzip level ${level}`).toBe(true);
        expect(sameBytes(await zl.decode(fromBase64(z), ctx), payload), `zlib level ${level}`).toBe(true);
      }
    }
  });

  it("concatenated members, one with a file name and mtime", async () => {
    const decoded = await (await gzipCodec(backend)).decode(fromBase64(results.concat), ctx);
    expect(sameBytes(decoded, concatBytes(payloads[0], payloads[1], payloads[0]))).toBe(true);
  });
});

it.skipIf(NO_PYTHON)("node:zlib reads zero-padded members like Python's gzip", async () => {
  expect(sha256(await (await gzipCodec(nodeBackend)).decode(paddedMembers, ctx))).toBe(results.padded);
});

describe("chunks written by zarr-python", () => {
  const int16 = (b: Uint8Array) => [...new Int16Array(b.slice().buffer)];

  it("v3 gzip chunk (1d.contiguous.gzip.i2)", async () => {
    const meta = JSON.parse(readFileSync(`${FIXTURES}/v3/data.zarr/1d.contiguous.gzip.i2/zarr.json`, "utf8"));
    const codec = await makeCodec(gzip, meta.codecs[1].configuration);
    const chunk = new Uint8Array(readFileSync(`${FIXTURES}/v3/data.zarr/1d.contiguous.gzip.i2/c/0`));
    expect(int16(await codec.decode(chunk, ctx))).toEqual([1, 2, 3, 4]);
  });

  it("v2 zlib chunk (1d.contiguous.zlib.i2)", async () => {
    const meta = JSON.parse(readFileSync(`${FIXTURES}/v2/data.zarr/1d.contiguous.zlib.i2/.zarray`, "utf8"));
    const codec = await makeCodec(zlib, meta.compressor);
    const chunk = new Uint8Array(readFileSync(`${FIXTURES}/v2/data.zarr/1d.contiguous.zlib.i2/0`));
    expect(int16(await codec.decode(chunk, ctx))).toEqual([1, 2, 3, 4]);
  });

  it("v3 gzip inner chunk of a shard (1d.contiguous.compressed.sharded.i2)", async () => {
    const shard = new Uint8Array(readFileSync(`${FIXTURES}/v3/data.zarr/1d.contiguous.compressed.sharded.i2/c/0`));
    // One inner chunk: index = (offset, nbytes) as uint64 LE, then a 4-byte crc32c, at the end.
    const index = new DataView(shard.buffer, shard.byteOffset + shard.length - 20, 16);
    const offset = Number(index.getBigUint64(0, true));
    const nbytes = Number(index.getBigUint64(8, true));
    for (const backend of backends) {
      const codec = await gzipCodec(backend);
      expect(int16(await codec.decode(shard.subarray(offset, offset + nbytes), ctx))).toEqual([1, 2, 3, 4]);
    }
  });
});
