import { execFileSync } from "node:child_process";
import { requirePythonZarr } from "../../../scripts/test-env.mjs";

/** Runs `code` with Debian's Python (numpy + numcodecs 0.11); `input` goes to stdin as JSON. */
export function python<T>(code: string, input: unknown): T {
  requirePythonZarr();
  const out = execFileSync("/usr/bin/python3", ["-c", code], {
    input: JSON.stringify(input),
    maxBuffer: 1 << 30,
  });
  return JSON.parse(out.toString("utf8")) as T;
}

export const b64 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("base64");
export const unb64 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "base64"));

/** Fast byte comparison (vitest's deep equality is slow on large typed arrays). */
export function sameBytes(actual: Uint8Array, expected: Uint8Array): string {
  if (actual.length !== expected.length) return `length ${actual.length} != ${expected.length}`;
  if (Buffer.from(actual.buffer, actual.byteOffset, actual.length).equals(expected)) return "equal";
  let i = 0;
  while (actual[i] === expected[i]) i++;
  return `first difference at byte ${i}: ${actual[i]} != ${expected[i]}`;
}
