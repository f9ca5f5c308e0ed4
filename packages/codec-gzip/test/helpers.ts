/** Shared test helpers: codec construction over either backend, data generators, Python. */
import { execFileSync } from "node:child_process";
import type { BytesToBytesCodec, CodecBuildContext, CodecEntry, JsonObject } from "@zarr/spec";
import { backend as browserBackend } from "../src/backend.browser.js";
import type { DeflateBackend } from "../src/backend.js";
import { backend as nodeBackend } from "../src/backend.node.js";
import { createGzipEntry, createZlibEntry } from "../src/codec.js";
import { fflateBackend } from "../src/fflate-backend.js";

/** node:zlib's blocking decoders (what worker threads use) as a backend of their own. */
const nodeSyncBackend: DeflateBackend = {
  ...nodeBackend,
  name: "node:zlib (blocking decode)",
  preferBlocking: true,
  decompressGzip: nodeBackend.decompressGzipSync as NonNullable<DeflateBackend["decompressGzipSync"]>,
  decompressZlib: nodeBackend.decompressZlibSync as NonNullable<DeflateBackend["decompressZlibSync"]>,
};

/**
 * The browser backend decodes with the runtime's DecompressionStream (Node's here), falling
 * back to fflate for data the stream refuses; `fflateBackend` is that exact path alone, as
 * runtimes without a DecompressionStream take it.
 */
export const backends: readonly DeflateBackend[] = [nodeBackend, nodeSyncBackend, browserBackend, fflateBackend];
export { browserBackend, fflateBackend, nodeBackend, nodeSyncBackend };

/** A build context as the pipeline passes it, for a codec at `codecs[1]`. */
export const buildContext = { path: ["codecs", 1] } as unknown as CodecBuildContext;

export async function makeCodec(entry: CodecEntry, configuration: JsonObject = {}): Promise<BytesToBytesCodec> {
  return (await entry.fromConfig(configuration, buildContext)) as BytesToBytesCodec;
}

export function gzipCodec(backend: DeflateBackend, level = 5): Promise<BytesToBytesCodec> {
  return makeCodec(createGzipEntry(backend), { level });
}

export function zlibCodec(backend: DeflateBackend, level = 1): Promise<BytesToBytesCodec> {
  return makeCodec(createZlibEntry(backend), { level });
}

export const ctx = { key: "data/c/0/1" };

/** Deterministic pseudo-random bytes (xorshift32). */
export function randomBytes(n: number, seed = 1): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** Smooth int16 samples, the kind of data chunks usually hold: compresses well. */
export function compressibleBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (Math.round(Math.sin(i / 200) * 40) + (i % 3)) & 0xff;
  return out;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let pos = 0;
  for (const p of parts) {
    out.set(p, pos);
    pos += p.length;
  }
  return out;
}

export const toBase64 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("base64");
export const fromBase64 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "base64"));

/**
 * Runs a Python script with numcodecs available. The script reads JSON from stdin as
 * `data` and must print one JSON document.
 */
export function python<T>(script: string, input: unknown): T {
  const prelude = "import base64, gzip, io, json, sys, zlib\nimport numcodecs\ndata = json.load(sys.stdin)\nb64 = lambda b: base64.b64encode(bytes(b)).decode()\nunb64 = base64.b64decode\n";
  const out = execFileSync("/usr/bin/python3", ["-c", prelude + script], {
    input: JSON.stringify(input),
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(out.toString()) as T;
}

/** Byte equality without vitest's slow element-by-element deep equality. */
export function sameBytes(actual: Uint8Array, expected: Uint8Array): boolean {
  return actual.length === expected.length && Buffer.compare(actual, expected) === 0;
}
