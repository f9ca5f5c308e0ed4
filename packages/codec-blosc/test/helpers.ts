import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { ZarrError } from "@zarr/spec";
import { expect } from "vitest";
import { requirePythonZarr } from "../../../scripts/test-env.mjs";

/** Runs `code` with Debian's Python (numpy + numcodecs 0.11 / c-blosc 1.21); `input` goes to stdin as JSON. */
export function python<T>(code: string, input: unknown): T {
  requirePythonZarr();
  const out = execFileSync("/usr/bin/python3", ["-c", code], { input: JSON.stringify(input), maxBuffer: 1 << 30 });
  return JSON.parse(out.toString("utf8")) as T;
}

export const b64 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("base64");
export const unb64 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "base64"));
export const sha = (b: Uint8Array): string =>
  createHash("sha256").update(Buffer.from(b.buffer, b.byteOffset, b.byteLength)).digest("hex");

/** Fast byte comparison (vitest's deep equality is slow on large typed arrays). */
export function sameBytes(actual: Uint8Array, expected: Uint8Array): string {
  if (actual.length !== expected.length) return `length ${actual.length} != ${expected.length}`;
  if (Buffer.from(actual.buffer, actual.byteOffset, actual.length).equals(expected)) return "equal";
  let i = 0;
  while (actual[i] === expected[i]) i++;
  return `first difference at byte ${i}: ${actual[i]} != ${expected[i]}`;
}

/**
 * Test data that compresses somewhat, like real arrays: a slowly changing ramp with a
 * random byte every 7 bytes.
 */
export function makeData(nbytes: number, seed: number): Uint8Array {
  const out = new Uint8Array(nbytes);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < nbytes; i++) {
    if (i % 7 === 0) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      out[i] = s >>> 24;
    } else {
      out[i] = ((i >> 6) * 31 + seed) & 0xff;
    }
  }
  return out;
}

/** A similar generator in Python (numpy, vectorized; its bytes differ from makeData's). */
export const PY_MAKE_DATA = `
import numpy as np
def make_data(nbytes, seed):
    i = np.arange(nbytes, dtype=np.int64)
    out = (((i >> 6) * 31 + seed) & 0xff).astype(np.uint8)
    out[::7] = np.random.default_rng(seed).integers(0, 256, size=(nbytes + 6) // 7, dtype=np.uint8)
    return out.tobytes()
`;

export function expectCodecFailed(f: () => unknown, key?: string): ZarrError {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(ZarrError);
    expect((error as ZarrError).code).toBe("CODEC_FAILED");
    if (key !== undefined) {
      expect((error as ZarrError).message).toContain(key);
      expect((error as ZarrError).key).toBe(key);
    }
    return error as ZarrError;
  }
  throw new Error("expected CODEC_FAILED");
}
