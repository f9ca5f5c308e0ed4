/**
 * The reference implementation for interop tests: libzstd through numcodecs 0.11 in
 * Debian's Python. Payloads travel in one batch per call (length-prefixed on stdin and
 * stdout) so Python starts once per test, not once per payload.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { requirePythonZarr } from "../../../scripts/test-env.mjs";

const PYTHON = "/usr/bin/python3";

const SCRIPT = `
import sys, struct, numcodecs
data = sys.stdin.buffer.read()
op = data[0:1].decode()
(count,) = struct.unpack_from("<I", data, 1)
pos = 5
out = bytearray()
for _ in range(count):
    (level, size) = struct.unpack_from("<iI", data, pos)
    pos += 8
    item = bytes(data[pos:pos + size])
    pos += size
    try:
        if op == "d":
            result = bytes(numcodecs.Zstd().decode(item))
        else:
            result = bytes(numcodecs.Zstd(level=level).encode(item))
        out += b"\\x01" + struct.pack("<I", len(result)) + result
    except Exception as e:
        msg = repr(e).encode()
        out += b"\\x00" + struct.pack("<I", len(msg)) + msg
sys.stdout.buffer.write(bytes(out))
`;

/** One result: the bytes, or the Python error message. */
export type ReferenceResult = { ok: true; bytes: Uint8Array } | { ok: false; error: string };

function run(op: "d" | "e", items: ReadonlyArray<{ data: Uint8Array; level?: number }>): ReferenceResult[] {
  requirePythonZarr();
  let size = 5;
  for (const it of items) size += 8 + it.data.length;
  const input = new Uint8Array(size);
  const view = new DataView(input.buffer);
  input[0] = op.charCodeAt(0);
  view.setUint32(1, items.length, true);
  let pos = 5;
  for (const it of items) {
    view.setInt32(pos, it.level ?? 0, true);
    view.setUint32(pos + 4, it.data.length, true);
    input.set(it.data, pos + 8);
    pos += 8 + it.data.length;
  }
  const output = execFileSync(PYTHON, ["-c", SCRIPT], { input, maxBuffer: 1 << 30 });
  const out = new Uint8Array(output.buffer, output.byteOffset, output.byteLength);
  const results: ReferenceResult[] = [];
  const outView = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let p = 0;
  for (let i = 0; i < items.length; i++) {
    const ok = out[p] === 1;
    const len = outView.getUint32(p + 1, true);
    const bytes = out.slice(p + 5, p + 5 + len);
    p += 5 + len;
    results.push(ok ? { ok: true, bytes } : { ok: false, error: new TextDecoder().decode(bytes) });
  }
  return results;
}

/** Decodes each frame with libzstd (numcodecs.Zstd().decode). */
export function libzstdDecode(frames: readonly Uint8Array[]): ReferenceResult[] {
  return run(
    "d",
    frames.map((data) => ({ data })),
  );
}

/** Encodes each input with libzstd at its level (numcodecs.Zstd(level).encode). */
export function libzstdEncode(items: ReadonlyArray<{ data: Uint8Array; level: number }>): Uint8Array[] {
  return run("e", items).map((r, i) => {
    if (!r.ok) throw new Error(`numcodecs failed to encode item ${i}: ${r.error}`);
    return r.bytes;
  });
}

/** The zstd command-line tool (libzstd too), when installed. */
export const ZSTD_CLI = ["/usr/bin/zstd", "/usr/local/bin/zstd"].find((p) => existsSync(p));

/** Runs the zstd CLI with `args`, feeding `input` on stdin. */
export function zstdCli(args: string[], input: Uint8Array): Uint8Array {
  if (ZSTD_CLI === undefined) throw new Error("the zstd CLI is not installed");
  const out = execFileSync(ZSTD_CLI, args, { input, maxBuffer: 1 << 30 });
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/** Deterministic pseudo-random generator (tests must be reproducible). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Typical array payloads: smooth float32 fields, int16 counts, sparse data, text. */
export function sampleArrays(length: number, seed = 1): Record<string, Uint8Array> {
  const r = rng(seed);
  const n4 = length >> 2;
  const temps = new Float32Array(n4);
  for (let i = 0; i < n4; i++) {
    temps[i] = Math.round((280 + 10 * Math.sin(i / 500) + 4 * Math.cos(i / 37) + r()) * 100) / 100;
  }
  const smooth = new Float32Array(n4);
  for (let i = 0; i < n4; i++) smooth[i] = Math.sin(i / 100) * 100;
  const n2 = length >> 1;
  const counts = new Int16Array(n2);
  for (let i = 0; i < n2; i++) counts[i] = Math.floor(200 + 100 * Math.sin(i / 300) + 20 * r());
  const sparse = new Float32Array(n4);
  for (let i = 0; i < n4; i++) sparse[i] = r() < 0.05 ? r() * 1000 : 0;
  const words = ["zarr", "chunk", "array", "codec", "shard", "float32", "metadata", "group"];
  let text = "";
  while (text.length < length) text += `${words[Math.floor(r() * words.length)]} `;
  return {
    float32Temperatures: new Uint8Array(temps.buffer),
    float32Smooth: new Uint8Array(smooth.buffer),
    int16Counts: new Uint8Array(counts.buffer),
    float32Sparse: new Uint8Array(sparse.buffer),
    text: new TextEncoder().encode(text.slice(0, length)),
  };
}

/** True when both arrays hold the same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A payload and a zstd frame of it. */
export interface Fixture {
  name: string;
  data: Uint8Array;
  frame: Uint8Array;
}

/**
 * libzstd frames (numcodecs) of each payload at the levels `levels(name)` lists, named
 * `${prefix}${name} level ${level}`, in one Python call.
 */
export function libzstdFixtures(payloads: Record<string, Uint8Array>, levels: (name: string) => readonly number[], prefix = ""): Fixture[] {
  const items = Object.entries(payloads).flatMap(([name, data]) => levels(name).map((level) => ({ name: `${prefix}${name} level ${level}`, data, level })));
  const frames = libzstdEncode(items);
  return items.map((item, i) => ({ name: item.name, data: item.data, frame: frames[i] }));
}
