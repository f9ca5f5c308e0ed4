/** A small fixture tree in a temporary directory, served by the test server. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ZarrError, type ZarrErrorCode } from "@zarr/spec";
import { expect } from "vitest";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import { startServer, type TestServer } from "./server.js";

/** Deterministic pseudo-random bytes (so a wrong offset shows up as wrong content). */
export function pattern(length: number, seed = 1): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** The files of the tree (key → contents); the zarr-python fixture is copied under `data.zarr/`. */
export const FILES: Record<string, Uint8Array> = {
  "a.bin": pattern(1000, 7),
  "empty.bin": new Uint8Array(0),
  "one.bin": pattern(1, 3),
  "dir/nested.bin": pattern(300, 11),
  "with space/file #1?.bin": pattern(64, 5),
  "ünïcødé/€ 100%.bin": pattern(33, 9),
  "percent%2F/x": pattern(10, 13),
};

/** A served fixture tree: the server and the directory it serves. */
export interface Served {
  server: TestServer;
  dir: string;
  close(): Promise<void>;
}

/** Writes the fixture tree to a fresh temp dir (with a copy of zarr-python's v3 `data.zarr` when asked) and serves it. */
export async function serveFixtures({ zarr = false } = {}): Promise<Served> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zarr-store-http-"));
  for (const [key, bytes] of Object.entries(FILES)) {
    const file = path.join(dir, ...key.split("/"));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, bytes);
  }
  if (zarr) fs.cpSync(path.join(fixturesDir(), "zarr-python/v3/data.zarr"), path.join(dir, "data.zarr"), { recursive: true });
  const server = await startServer(dir);
  return {
    server,
    dir,
    async close() {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Awaits a rejection with a ZarrError of `code`; returns it for further checks. */
export async function rejectsWith(promise: Promise<unknown>, code: ZarrErrorCode): Promise<ZarrError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ZarrError);
    expect((error as ZarrError).code).toBe(code);
    return error as ZarrError;
  }
  throw new Error(`expected a ZarrError ${code}, but the promise resolved`);
}

/** Milliseconds `fn` took, with its result. */
export async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await fn();
  return [value, performance.now() - t0];
}
