/**
 * The CLI's lazy registry: its catalog of codecs and stores matches @zarr/all's entries
 * (so it cannot drift), lazy entries resolve to @zarr/all's own, and `zarr info` counts
 * registered trailing compressors as readable without loading them while every other
 * problem in the chain is reported as core reports it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { registry as allRegistry, codecEntries, storeEntries } from "@zarr/all";
import type { CodecEntry, LazyEntry, StoreEntry } from "@zarr/spec";
import { afterAll, describe, expect, it } from "vitest";
import { CODEC_CATALOG, STORE_CATALOG } from "../src/codec-catalog.js";
import { cliRegistry } from "../src/registry.js";
import { removeTempDirs, runInProcess, tempDir } from "./helpers.js";

afterAll(removeTempDirs);

describe("the codec catalog", () => {
  it("lists every codec of @zarr/all with its aliases, package and kind, in order", async () => {
    const actual = [];
    for (const e of codecEntries) {
      const loaded = ("lazy" in e ? await (e as LazyEntry<CodecEntry>).load() : e) as CodecEntry;
      actual.push({ name: e.name, aliases: [...(e.aliases ?? [])], package: loaded.package ?? e.package, kind: loaded.codecKind });
    }
    expect(CODEC_CATALOG).toEqual(actual);
  });

  it("lists every store of @zarr/all with its schemes", () => {
    const actual = storeEntries.map((e) => ({
      name: e.name,
      schemes: "lazy" in e ? [...(e.aliases ?? [])] : (e as StoreEntry).schemes.filter((s) => s !== e.name),
      package: e.package ?? (e.name === "s3" ? "@zarr/store-s3" : undefined),
    }));
    expect(STORE_CATALOG).toEqual(actual);
  });

  it("resolves to @zarr/all's entries, and names no package for a codec none of ours has", async () => {
    const registry = cliRegistry();
    for (const name of ["zstd", "numcodecs.zstd", "gzip", "lz4", "sharding_indexed", "numcodecs.delta"]) {
      expect(await registry.codec(name), name).toBe(await allRegistry.codec(name));
    }
    expect(await registry.store("https")).toBe(await allRegistry.store("https"));
    await expect(registry.codec("nope")).rejects.toThrow(/Codec "nope" is not registered\. No installed package provides it/);
  });
});

describe("zarr info and the codec chain", () => {
  const dir = tempDir();
  /** Writes an array document with `codecs` at `name` and returns the store. */
  const arrayWith = (name: string, codecs: unknown[]): string => {
    const doc = {
      zarr_format: 3,
      node_type: "array",
      shape: [4],
      data_type: "float32",
      chunk_grid: { name: "regular", configuration: { chunk_shape: [4] } },
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
      fill_value: 0,
      codecs,
      attributes: {},
    };
    mkdirSync(path.join(dir, name), { recursive: true });
    writeFileSync(path.join(dir, name, "zarr.json"), JSON.stringify(doc));
    return dir;
  };
  const bytes = { name: "bytes", configuration: { endian: "little" } };
  const zstd = { name: "zstd", configuration: { level: 0, checksum: false } };

  it("counts registered trailing compressors as readable", async () => {
    const store = arrayWith("ok", [bytes, zstd, { name: "crc32c" }]);
    const r = await runInProcess("info", store, "ok", "--json");
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ readable: true });
  });

  it("reports an unknown codec after a compressor, and a misplaced compressor, as get does", async () => {
    const store = arrayWith("unknown", [bytes, zstd, { name: "no-such-codec" }]);
    const r = JSON.parse((await runInProcess("info", store, "unknown", "--json")).out);
    expect(r.readable).toBe(false);
    expect(r.problem).toMatch(/^\[CODEC_UNKNOWN\] Codec "no-such-codec" \(at \$\.codecs\[2\]/);
    arrayWith("misplaced", [zstd, bytes]);
    const info = await runInProcess("info", store, "misplaced");
    const get = await runInProcess("get", store, "misplaced");
    expect(info.code).toBe(1);
    expect(info.err).toMatch(/^zarr: \[METADATA_INVALID\] .*\$\.codecs\[0\]/);
    expect(info.err).toBe(get.err);
  });

  it("leaves a compressor's configuration to get, which reads with it", async () => {
    const store = arrayWith("badlevel", [bytes, { name: "zstd", configuration: { level: "high" } }]);
    expect(JSON.parse((await runInProcess("info", store, "badlevel", "--json")).out).readable).toBe(true);
    const get = await runInProcess("get", store, "badlevel");
    expect(get.code).toBe(1);
    expect(get.err).toMatch(/^zarr: \[METADATA_INVALID\] .*\$\.codecs\[1\]\.configuration\.level/);
  });
});
