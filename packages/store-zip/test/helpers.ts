/** Test helpers: counting and minimal stores, temp dirs, Python, error assertions. */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  type ByteRange,
  type ReadableStore,
  type ReadIntoRange,
  resolveByteRange,
  type StoreRequestOptions,
  ZarrError,
  type ZarrErrorCode,
} from "@zarr/spec";
import { afterEach, expect } from "vitest";
import { mulberry32 as rng } from "../../../scripts/test-random.mjs";

const created: string[] = [];
afterEach(() => {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory under os.tmpdir(), removed after the test. */
export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zarr-store-zip-"));
  created.push(dir);
  return dir;
}

/** Wraps a store and counts (and records) every request that reaches it. */
export class CountingStore implements ReadableStore {
  readonly inner: ReadableStore;
  gets = 0;
  ranges: ByteRange[] = [];
  sizes = 0;
  scatters = 0;

  constructor(inner: ReadableStore) {
    this.inner = inner;
  }

  get requests(): number {
    return this.gets + this.ranges.length + this.sizes + this.scatters;
  }

  reset(): void {
    this.gets = 0;
    this.ranges = [];
    this.sizes = 0;
    this.scatters = 0;
  }

  get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    this.gets++;
    return this.inner.get(key, options);
  }

  getRange(key: string, range: ByteRange, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    this.ranges.push(range);
    return (this.inner.getRange as NonNullable<ReadableStore["getRange"]>).call(this.inner, key, range, options);
  }

  getSize(key: string, options?: StoreRequestOptions): Promise<number | undefined> {
    this.sizes++;
    return (this.inner.getSize as NonNullable<ReadableStore["getSize"]>).call(this.inner, key, options);
  }
}

/** A store holding values in memory with `get` and `getRange` (and optionally only `get`). */
export class BytesStore implements ReadableStore {
  readonly values: Map<string, Uint8Array>;
  constructor(values: Record<string, Uint8Array> | Map<string, Uint8Array>) {
    this.values = values instanceof Map ? values : new Map(Object.entries(values));
  }
  async get(key: string): Promise<Uint8Array | undefined> {
    const v = this.values.get(key);
    return v?.slice();
  }
  async getRange(key: string, range: ByteRange): Promise<Uint8Array | undefined> {
    const v = this.values.get(key);
    if (v === undefined) return undefined;
    const [s, e] = resolveByteRange(range, v.length);
    return v.slice(s, e);
  }
}

/** A store with only `get` (no ranges): the archive must be read whole. */
export class GetOnlyStore implements ReadableStore {
  readonly inner: ReadableStore;
  gets = 0;
  constructor(inner: ReadableStore) {
    this.inner = inner;
  }
  get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    this.gets++;
    return this.inner.get(key, options);
  }
}

/** A store with `getRange` and `readInto` that counts scatter reads. */
export class ScatterStore extends BytesStore {
  scatters = 0;
  async readInto(key: string, ranges: readonly ReadIntoRange[]): Promise<number | undefined> {
    this.scatters++;
    const v = this.values.get(key);
    if (v === undefined) return undefined;
    for (const r of ranges) r.target.set(v.subarray(r.offset, r.offset + r.target.length));
    return v.length;
  }
}

/** Asserts that `promise` rejects with a ZarrError whose code is one of `codes`; returns it. */
export async function rejectsWith(promise: Promise<unknown>, ...codes: ZarrErrorCode[]): Promise<ZarrError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught, "expected a rejection").toBeInstanceOf(ZarrError);
  expect(codes).toContain((caught as ZarrError).code);
  return caught as ZarrError;
}

/** Runs Python code (stdin `input`), returning stdout. Call requirePythonZarr() first. */
export function python(code: string, input?: Uint8Array | string): string {
  return execFileSync("/usr/bin/python3", ["-c", code], {
    input,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    timeout: 60_000,
  });
}


/** Bytes with a position-dependent pattern, so ranges are checkable. */
export function pattern(n: number, seed = 0): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 31 + seed * 17 + (i >> 8)) & 0xff;
  return out;
}

export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Collects an async iterable. */
export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** Zips `values` in memory with the given options; returns the archive bytes. */
export async function zipBytes(
  values: Record<string, Uint8Array>,
  options: import("../src/index.js").WriteZipOptions = {},
): Promise<Uint8Array> {
  const { MemoryStore } = await import("@zarr/core");
  const { writeZip } = await import("../src/index.js");
  const source = new MemoryStore();
  for (const [k, v] of Object.entries(values)) await source.set(k, v);
  const target = new MemoryStore();
  await writeZip(source, target, "a.zip", options);
  return (await target.get("a.zip")) as Uint8Array;
}

/**
 * Asserts two byte arrays are equal: a fast byte comparison, falling back to vitest's
 * diff only on a mismatch (its element-wise deep equality is slow on large arrays).
 */
export function expectBytes(actual: Uint8Array | undefined, expected: Uint8Array | undefined, label?: string): void {
  if (
    actual instanceof Uint8Array &&
    expected instanceof Uint8Array &&
    actual.length === expected.length &&
    Buffer.compare(actual, expected) === 0
  ) {
    return;
  }
  expect(actual, label).toEqual(expected);
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32, shared by the tests). */
export { rng };
