/** Temporary directories for tests, removed after each test. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ZarrError, type ZarrErrorCode } from "@zarr/spec";
import { afterEach, expect } from "vitest";

const created: string[] = [];

afterEach(() => {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh empty directory under os.tmpdir(), removed after the test. */
export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zarr-store-fs-"));
  created.push(dir);
  return dir;
}

/** A store root path inside a fresh temporary directory (not yet created). */
export function freshRoot(): { sandbox: string; root: string } {
  const sandbox = tempDir();
  return { sandbox, root: path.join(sandbox, "store.zarr") };
}

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
export const text = (bytes: Uint8Array | undefined): string | undefined =>
  bytes === undefined ? undefined : new TextDecoder().decode(bytes);

/** Bytes 0..n-1 with a non-repeating-ish pattern, so ranges are checkable. */
export function pattern(n: number, seed = 0): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 31 + seed * 17 + (i >> 8)) & 0xff;
  return out;
}

/** Asserts that `promise` rejects with a ZarrError of `code`; returns the error. */
export async function rejectsWith(promise: Promise<unknown>, code: ZarrErrorCode): Promise<ZarrError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected a ${code} rejection`).toBeInstanceOf(ZarrError);
  expect((caught as ZarrError).code).toBe(code);
  return caught as ZarrError;
}

/** Collects an async iterable into a sorted array. */
export async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const item of iterable) out.push(item);
  return out.sort();
}

/** Every file path below `dir`, relative, with `/` separators (raw view of the disk). */
export function filesOnDisk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name)).split(path.sep).join("/"))
    .sort();
}
