/**
 * `zarr put --resume` and the states an interrupted put leaves: what each command does
 * with them. The interrupted state is made by hand here (the kill -9 suite makes it for
 * real): a finished put's metadata moved into the marker, some chunks removed.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { FileSystemStore } from "@zarr/store-fs";
import { describe, expect, it } from "vitest";
import { havePythonZarr } from "../../../scripts/test-env.mjs";
import { writePutRecord } from "../src/interrupted-put.js";
import { formatNpyHeader } from "../src/npy-header.js";
import { python, tempDir, zarr, zarrOk } from "./helpers.js";

function npy(file: string, values: number[]): Buffer {
  const bytes = Buffer.concat([formatNpyHeader("<i4", [values.length]), Buffer.from(new Int32Array(values).buffer)]);
  fs.writeFileSync(file, bytes);
  return bytes;
}

/** A put of `input` at s.zarr/x, then turned into an interrupted one: metadata not written, chunks 0 and 2 missing. */
async function interrupted(extra: string[] = []) {
  const dir = tempDir();
  const input = path.join(dir, "in.npy");
  const bytes = npy(input, [1, 2, 3, 4, 5, 6, 7, 8]);
  const store = path.join(dir, "s.zarr");
  const args = ["put", store, "x", "--from", input, "--chunks", "2", ...extra];
  await zarrOk(args);
  const metadataFile = path.join(store, "x", "zarr.json");
  const metadata = { "x/zarr.json": fs.readFileSync(metadataFile, "utf8") };
  fs.rmSync(metadataFile);
  for (const c of ["0", "2"]) fs.rmSync(path.join(store, "x", "c", c));
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  await writePutRecord(new FileSystemStore(store), "x", { sha256, metadata });
  return { dir, input, store, args };
}

describe("an interrupted put", () => {
  it("reads as a coded error, is refused by a plain put, and --resume finishes it", async () => {
    const { store, args } = await interrupted();
    const info = await zarr(["info", store, "x"]);
    expect(info.code).toBe(1);
    expect(info.stderr).toMatch(/\[NODE_NOT_FOUND\] .*interrupted/);
    expect((await zarrOk(["tree", store])).stdout.toString()).toBe("/\n");
    const plain = await zarr(args);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/\[NODE_EXISTS\] "x" holds an interrupted put: finish it with --resume/);
    const resumed = await zarrOk([...args, "--resume"]);
    expect(resumed.stdout.toString()).toMatch(/\(resumed: 2 chunks were already in place, 2 written\)/);
    expect(JSON.parse((await zarrOk(["get", store, "x"])).stdout.toString()).values).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
    expect(fs.existsSync(path.join(store, "x", "zarr.incomplete.json"))).toBe(false);
    const again = await zarrOk([...args, "--resume"]);
    expect(again.stdout.toString()).toMatch(/^Nothing to resume: "x" is complete/);
  });

  it("a chunk whose bytes differ from what the put computes is rewritten", async () => {
    const { store, args } = await interrupted(["--codecs", '[{"name":"bytes","configuration":{"endian":"little"}}]']);
    fs.writeFileSync(path.join(store, "x", "c", "1"), Buffer.from(new Int32Array([99, 99]).buffer));
    const resumed = await zarrOk([...args, "--codecs", '[{"name":"bytes","configuration":{"endian":"little"}}]', "--resume"]);
    expect(resumed.stdout.toString()).toMatch(/1 chunks were already in place, 3 written/);
    expect(JSON.parse((await zarrOk(["get", store, "x"])).stdout.toString()).values).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
  });

  it("--resume refuses another input or other options, and --overwrite replaces it", async () => {
    const { dir, store, args } = await interrupted();
    const other = path.join(dir, "other.npy");
    npy(other, [8, 7, 6, 5, 4, 3, 2, 1]);
    const wrongInput = await zarr(["put", store, "x", "--from", other, "--chunks", "2", "--resume"]);
    expect(wrongInput.stderr).toMatch(/\[INVALID_ARGUMENT\] .*is not the input of the interrupted put/);
    const wrongOptions = await zarr([...args.slice(0, -2), "--chunks", "4", "--resume"]);
    expect(wrongOptions.stderr).toMatch(/\[INVALID_ARGUMENT\] .*the options differ/);
    expect(fs.existsSync(path.join(store, "x", "zarr.json"))).toBe(false); // nothing finished by a refused resume
    const both = await zarr([...args, "--resume", "--overwrite"]);
    expect(both.code).toBe(2);
    await zarrOk(["put", store, "x", "--from", other, "--chunks", "4", "--overwrite"]);
    expect(JSON.parse((await zarrOk(["get", store, "x"])).stdout.toString()).values).toEqual(["8", "7", "6", "5", "4", "3", "2", "1"]);
    expect(fs.readdirSync(path.join(store, "x", "c")).sort()).toEqual(["0", "1"]);
  });

  it("--resume where nothing was written yet is a put; zarr-python reads a finished one", async () => {
    const dir = tempDir();
    const input = path.join(dir, "in.npy");
    npy(input, [5, 6, 7]);
    const store = path.join(dir, "s.zarr");
    await zarrOk(["put", store, "v2", "--from", input, "--zarr-format", "2", "--resume"]);
    expect(JSON.parse((await zarrOk(["get", store, "v2"])).stdout.toString()).values).toEqual(["5", "6", "7"]);
    expect(fs.readdirSync(path.join(store, "v2")).sort()).toEqual([".zarray", "0"]);
    if (havePythonZarr() || process.env.CI === "true") {
      expect(python("import sys, zarr; print(list(zarr.open_array(sys.argv[1], mode='r')[:]))", [path.join(store, "v2")]).trim()).toBe("[5, 6, 7]");
    }
  });
});
