/**
 * Start-up: `zarr info` and `zarr tree` load only what they use. The commands run under a
 * module-hook recorder (test/load-recorder.mjs) that lists every module the process loads;
 * files of the bundles map to the packages they hold through their chunks.json
 * (dist/bundle/ and dist/bundle/commands/). No codec, store adapter other than @zarr/store-fs, or @zarr/all
 * may be among them; `zarr get` on the same array, which decodes chunks, shows the
 * recorder does see codec packages.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { createArray, createGroup, type ExtensionLike, set } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliRegistry } from "../src/registry.js";
import { CLI, removeTempDirs, TEST_DIR, tempDir } from "./helpers.js";

afterAll(removeTempDirs);

const run = promisify(execFile);
const RECORDER = pathToFileURL(path.join(TEST_DIR, "load-recorder.mjs")).href;
const BUNDLE_DIR = path.resolve(TEST_DIR, "../dist/bundle");
const DIST_MAIN = pathToFileURL(path.resolve(TEST_DIR, "../dist/main.js")).href;

/** Packages that reading metadata never needs. */
const NOT_FOR_METADATA = /^@zarr\/(all|codec-.*|store-(http|zip|s3|utils)|v2-compat|geozarr)$|^@aws-sdk\/|^fflate$/;

let store: string;

beforeAll(async () => {
  store = path.join(tempDir(), "s.zarr");
  const fs = new FileSystemStore(store);
  const registry = cliRegistry();
  await createGroup(fs, "", { registry });
  const zstd = await createArray(fs, "t2m", { shape: [8], chunkShape: [4], dataType: "float32", registry });
  await set(zstd, null, { data: Float32Array.from({ length: 8 }, (_, i) => i / 2), shape: [8] });
  const codecs: ExtensionLike[] = [
    { name: "bytes", configuration: { endian: "little" } },
    { name: "gzip", configuration: { level: 1 } },
    { name: "crc32c" },
  ];
  await createArray(fs, "g/gz", { shape: [8], chunkShape: [4], dataType: "int16", codecs, registry });
  expect(JSON.parse(readFileSync(path.join(store, "t2m", "zarr.json"), "utf8")).codecs.map((c: { name: string }) => c.name)).toContain("zstd");
});

/** The packages whose modules `node [nodeArgs] …` loaded (bundle files mapped through chunks.json). */
async function packagesLoaded(nodeArgs: string[]): Promise<{ packages: Set<string>; stdout: string }> {
  const log = path.join(tempDir("zarr-cli-loads-"), "loads.txt");
  const { stdout } = await run(process.execPath, ["--import", RECORDER, ...nodeArgs], {
    env: { ...process.env, ZARR_LOAD_LOG: log, ZARR_DEBUG: "" },
  });
  // The metadata bundle and the commands' bundle, each with its chunks.json.
  const bundles = new Map(
    [BUNDLE_DIR, path.join(BUNDLE_DIR, "commands")].map((dir) => [dir, JSON.parse(readFileSync(path.join(dir, "chunks.json"), "utf8")) as Record<string, string[]>]),
  );
  const packages = new Set<string>();
  for (const url of readFileSync(log, "utf8").split("\n")) {
    if (!url.startsWith("file:")) continue;
    const file = fileURLToPath(url);
    const chunks = bundles.get(path.dirname(file));
    if (chunks !== undefined) {
      for (const p of chunks[path.basename(file)] ?? [`unknown bundle file ${path.basename(file)}`]) packages.add(p);
      continue;
    }
    const inPackages = file.match(/packages[\\/]([^\\/]+)[\\/]/);
    const inNodeModules = file.match(/node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/](?!.*node_modules)/);
    if (inNodeModules) packages.add(inNodeModules[1].replace("\\", "/"));
    else if (inPackages) packages.add(`@zarr/${inPackages[1]}`);
  }
  return { packages, stdout };
}

function unneeded(packages: Set<string>): string[] {
  return [...packages].filter((p) => NOT_FOR_METADATA.test(p)).sort();
}

describe("zarr info and tree load only what they use", () => {
  it("info on a zstd array and on a group, tree: no codec, other store, format or @zarr/all", async () => {
    for (const args of [["info", store, "t2m"], ["info", store, "g/gz", "--json"], ["info", store], ["tree", store]]) {
      const { packages, stdout } = await packagesLoaded([CLI, ...args]);
      expect(stdout.length, args.join(" ")).toBeGreaterThan(0);
      expect(packages.has("@zarr/core"), args.join(" ")).toBe(true);
      expect(unneeded(packages), args.join(" ")).toEqual([]);
    }
    const info = JSON.parse((await packagesLoaded([CLI, "info", store, "g/gz", "--json"])).stdout);
    expect(info.readable).toBe(true);
  });

  it("the same without the bundle (dist/main.js), while get loads the codec it decodes with", async () => {
    const viaMain = (args: string[]) => [
      "--input-type=module",
      "-e",
      `const { run } = await import(${JSON.stringify(DIST_MAIN)}); await run(${JSON.stringify(args)});`,
    ];
    const info = await packagesLoaded(viaMain(["info", store, "t2m"]));
    expect(info.packages.has("@zarr/core")).toBe(true);
    expect(unneeded(info.packages)).toEqual([]);
    const get = await packagesLoaded([CLI, "get", store, "t2m", "--workers", "0"]);
    expect(JSON.parse(get.stdout).values).toEqual([0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5]);
    expect(get.packages.has("@zarr/codec-zstd")).toBe(true);
    // ... and only that codec: not @zarr/all with every other one.
    expect([...get.packages].filter((p) => /^@zarr\/(all|codec-(?!zstd$).*)$/.test(p))).toEqual([]);
  });
});

describe("zarr get runs from the commands' bundle, and so do its worker threads", () => {
  it("the workers run the bundle's worker.js and load every module from the bundle", async () => {
    const fs = new FileSystemStore(store);
    // Two 64 KiB zstd chunks: large enough to be sent to the workers.
    const big = await createArray(fs, "big", { shape: [256, 128], chunkShape: [128, 128], dataType: "float32", registry: cliRegistry() });
    const values = Float32Array.from({ length: 256 * 128 }, (_, i) => Math.sin(i) * 100);
    await set(big, null, { data: values, shape: [256, 128] });
    const out = path.join(tempDir("zarr-cli-get-"), "big.npy");
    const log = path.join(tempDir("zarr-cli-loads-"), "loads.txt");
    await run(process.execPath, ["--import", RECORDER, CLI, "get", store, "big", "-o", out, "--workers", "2"], {
      env: { ...process.env, ZARR_LOAD_LOG: log, ZARR_DEBUG: "" },
    });
    const files = readFileSync(log, "utf8")
      .split("\n")
      .filter((u) => u.startsWith("file:"))
      .map((u) => fileURLToPath(u));
    const commands = path.join(BUNDLE_DIR, "commands");
    expect(files).toContain(path.join(commands, "worker.js"));
    expect(files).toContain(path.join(commands, "main.js"));
    // Nothing of ours loaded from the packages' dist/ (core's worker script, the codec by URL).
    expect(files.filter((f) => /packages[\\/][^\\/]+[\\/]dist[\\/](?!bundle)/.test(f))).toEqual([]);
    const npy = readFileSync(out);
    const headerLength = npy.readUInt16LE(8);
    const data = new Float32Array(npy.buffer.slice(npy.byteOffset + 10 + headerLength, npy.byteOffset + npy.length));
    expect(Buffer.compare(Buffer.from(data.buffer), Buffer.from(values.buffer))).toBe(0);
  });
});
