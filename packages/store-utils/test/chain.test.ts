import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { FileSystemStore } from "@zarr/store-fs";
import { writeZip, ZipStore } from "@zarr/store-zip";
import { afterAll, beforeAll, expect, it } from "vitest";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import { CountingStore, copy } from "../src/index.js";
import { startS3, type TestS3 } from "./s3.js";

let s3: TestS3;
const dirs: string[] = [];
beforeAll(async () => {
  s3 = await startS3(["chain"]);
});
afterAll(async () => {
  await s3.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Every file below `dir`, relative path → bytes. */
function files(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const name of readdirSync(dir, { recursive: true }).map(String)) {
    const p = join(dir, name);
    if (statSync(p).isFile()) out.set(relative(dir, p).split("\\").join("/"), readFileSync(p));
  }
  return out;
}

it("fs → S3 → zip (held in S3) → fs yields identical bytes, and resuming copies nothing twice", async () => {
  const fixture = join(fixturesDir(), "zarr-python/v3/data.zarr");
  const original = files(fixture);
  expect(original.size).toBeGreaterThan(100);

  // fs → S3
  const onS3 = s3.store({ bucket: "chain", prefix: "copied/data.zarr" });
  const first = await copy(new FileSystemStore(fixture, { readOnly: true }), onS3, { concurrency: 16 });
  expect(first.copied).toBe(original.size);
  expect(first.bytes).toBe([...original.values()].reduce((s, b) => s + b.length, 0));

  // A resumed copy finds everything in place by size (HEAD requests) and reads no values.
  const counted = new CountingStore(new FileSystemStore(fixture, { readOnly: true }));
  const again = await copy(counted, onS3, { resume: true });
  expect(again).toMatchObject({ copied: 0, skipped: original.size, bytes: 0 });
  expect(counted.counts.get).toBe(0);

  // S3 → a zip archive stored in S3, then read back through a ZipStore over S3.
  const archives = s3.store({ bucket: "chain", prefix: "archives" });
  const summary = await writeZip(onS3, archives, "data.zarr.zip");
  expect(summary.entries).toBe(original.size);
  const zip = new ZipStore(archives, "data.zarr.zip");

  // zip → fs
  const out = mkdtempSync(join(tmpdir(), "zarr-chain-"));
  dirs.push(out);
  const last = await copy(zip, new FileSystemStore(out), { concurrency: 4 });
  expect(last.copied).toBe(original.size);

  const result = files(out);
  expect([...result.keys()].sort()).toEqual([...original.keys()].sort());
  for (const [name, bytes] of original) expect(result.get(name)?.equals(bytes), name).toBe(true);
});
