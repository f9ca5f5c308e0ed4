/** Shared test helpers: libbzip2 through Debian's Python, and test data generators. */
import { requirePythonZarr } from "../../../scripts/test-env.mjs";
import { execFileSync } from "node:child_process";
import type { CodecBuildContext, JsonPath } from "@zarr/spec";

const PYTHON = "/usr/bin/python3";

/** One request to libbzip2 / numcodecs in {@link pythonBatch}. */
export interface PythonRequest {
  /** `bz2.compress`, `bz2.decompress`, `numcodecs.BZ2(level).encode`, `numcodecs.BZ2().decode`. */
  op: "compress" | "decompress" | "numcodecs-encode" | "numcodecs-decode";
  /** Block size level for the compressing operations. */
  level?: number;
  data: Uint8Array;
}

const OPS = ["compress", "decompress", "numcodecs-encode", "numcodecs-decode"] as const;

/**
 * Runs many requests through one Python process (starting Python and importing
 * numcodecs dominates the cost otherwise). Frames in both directions: an op byte, a
 * level byte and a 4-byte little-endian length, then the bytes.
 */
export function pythonBatch(requests: readonly PythonRequest[]): Uint8Array[] {
  requirePythonZarr();
  const script = `
import sys, struct, bz2, numcodecs
raw = sys.stdin.buffer.read()
pos = 0
out = []
while pos < len(raw):
    op, level, n = struct.unpack_from("<BBI", raw, pos)
    pos += 6
    data = raw[pos:pos + n]
    pos += n
    if op == 0:
        result = bz2.compress(data, level)
    elif op == 1:
        result = bz2.decompress(data)
    elif op == 2:
        result = numcodecs.BZ2(level=level).encode(data)
    else:
        result = numcodecs.BZ2().decode(data)
    result = bytes(result)
    out.append(struct.pack("<I", len(result)))
    out.append(result)
sys.stdout.buffer.write(b"".join(out))
`;
  let total = 0;
  for (const r of requests) total += 6 + r.data.length;
  const input = new Uint8Array(total);
  const view = new DataView(input.buffer);
  let pos = 0;
  for (const r of requests) {
    input[pos] = OPS.indexOf(r.op);
    input[pos + 1] = r.level ?? 9;
    view.setUint32(pos + 2, r.data.length, true);
    input.set(r.data, pos + 6);
    pos += 6 + r.data.length;
  }
  const output = execFileSync(PYTHON, ["-c", script], { input, maxBuffer: 1 << 30 });
  const bytes = new Uint8Array(output.buffer, output.byteOffset, output.byteLength);
  const outView = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const results: Uint8Array[] = [];
  for (let p = 0; p < bytes.length; ) {
    const n = outView.getUint32(p, true);
    results.push(bytes.subarray(p + 4, p + 4 + n));
    p += 4 + n;
  }
  if (results.length !== requests.length) throw new Error(`Python answered ${results.length} of ${requests.length} requests`);
  return results;
}

/** Deterministic pseudo-random bytes (xorshift32), so failures reproduce. */
export function randomBytes(length: number, seed = 1): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x >>> 24;
  }
  return out;
}

/** English-like text from a small vocabulary, with punctuation and line breaks. */
export function textBytes(length: number, seed = 7): Uint8Array {
  const words =
    "the of and to in is that for it as was with be by on not he this are or his from at which but have an they you were her she there been one all we their has would when if so no will more can out other".split(
      " ",
    );
  const rnd = randomBytes(length, seed);
  let text = "";
  for (let i = 0; text.length < length; i++) {
    const r = rnd[i % rnd.length] ^ (i >>> 3);
    text += words[(r * 131 + i) % words.length];
    text += r % 13 === 0 ? ".\n" : r % 7 === 0 ? ", " : " ";
  }
  return new TextEncoder().encode(text.slice(0, length));
}

/** Bytes of a smooth float32 field with a little noise (typical array chunk content). */
export function floatFieldBytes(count: number, seed = 3): Uint8Array {
  const values = new Float32Array(count);
  const noise = randomBytes(count, seed);
  for (let i = 0; i < count; i++) {
    const x = i % 256;
    const y = Math.floor(i / 256);
    values[i] = 280 + 15 * Math.sin(x / 40) * Math.cos(y / 30) + noise[i] / 2560;
  }
  return new Uint8Array(values.buffer);
}

/** Bytes of an int16 array with long constant stretches (masks, categories). */
export function int16StepBytes(count: number): Uint8Array {
  const values = new Int16Array(count);
  for (let i = 0; i < count; i++) values[i] = Math.floor(i / 1000) % 7 === 0 ? 0 : (i >>> 9) & 0xff;
  return new Uint8Array(values.buffer);
}

/** Concatenates byte arrays. */
export function concat(...parts: Uint8Array[]): Uint8Array {
  let total = 0;
  for (const p of parts) total += p.length;
  const out = new Uint8Array(total);
  let pos = 0;
  for (const p of parts) {
    out.set(p, pos);
    pos += p.length;
  }
  return out;
}

/** Byte-wise equality that reports the first difference (faster than deep equality). */
export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/** A build context for `fromConfig` outside a registry (nested pipelines unused). */
export function makeBuildContext(path: JsonPath = ["codecs", 0]): CodecBuildContext {
  return {
    spec: { shape: [1000], dataType: { name: "uint8" } as never, fillValue: 0 },
    path,
    buildPipeline: () => Promise.reject(new Error("not used by bz2")),
    resolveDataType: () => Promise.reject(new Error("not used by bz2")),
  };
}
