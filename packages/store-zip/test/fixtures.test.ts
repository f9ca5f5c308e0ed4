/** The zarr-python zipped fixtures: every key, byte and listing equals the directory version. */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { get, MemoryStore, openArray, toCanonicalJson } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { describe, expect, it } from "vitest";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import { ZipStore } from "../src/index.js";
import { BytesStore, collect, expectBytes, rng } from "./helpers.js";

const FIXTURES = join(fixturesDir(), "zarr-python");
const BUILTIN = new Set(["bytes", "transpose"]);

const CASES = [
  { version: "v3", zip: "data.zipped_from_within.zarr.zip", prefix: "" },
  { version: "v3", zip: "data.zipped_from_parent.zarr.zip", prefix: "data.zarr/" },
  { version: "v3", zip: "data.uncompressed.zarr.zip", prefix: "" },
  { version: "v2", zip: "data.zipped_from_within.zarr.zip", prefix: "" },
  { version: "v2", zip: "data.zipped_from_parent.zarr.zip", prefix: "data.zarr/" },
] as const;

function codecNames(codecs: { name: string; configuration?: { codecs?: unknown[]; index_codecs?: unknown[] } }[]): string[] {
  return codecs.flatMap((c) => [
    c.name,
    ...codecNames((c.configuration?.codecs ?? []) as never[]),
    ...codecNames((c.configuration?.index_codecs ?? []) as never[]),
  ]);
}

/** The directory version of a fixture, loaded into memory once (fast comparisons). */
function loadDirectory(root: string): MemoryStore {
  const store = new MemoryStore();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    store.map.set(relative(root, file).split("\\").join("/"), new Uint8Array(readFileSync(file)));
  }
  return store;
}

/** Every folder prefix ("" and "a/", "a/b/"...) that the keys imply. */
function allPrefixes(keys: string[]): string[] {
  const out = new Set<string>([""]);
  for (const k of keys) {
    const parts = k.split("/");
    for (let i = 1; i < parts.length; i++) out.add(`${parts.slice(0, i).join("/")}/`);
  }
  return [...out].sort();
}

for (const { version, zip, prefix } of CASES) {
  describe(`${version}/${zip}`, () => {
    const dirStore = loadDirectory(join(FIXTURES, version, "data.zarr"));
    const open = () => new ZipStore(new FileSystemStore(join(FIXTURES, version), { readOnly: true }), zip);
    // The same archive as a value of an in-memory store (the byte-by-byte loops run faster).
    const inMemory = () => new ZipStore(new BytesStore({ [zip]: new Uint8Array(readFileSync(join(FIXTURES, version, zip))) }), zip);

    it("lists exactly the directory's keys (prefix detected)", async () => {
      const store = open();
      const info = await store.open();
      expect(info.prefix).toBe(prefix);
      expect(info.skipped).toEqual([]);
      const zipKeys = await collect(store.list());
      const dirKeys = (await collect(dirStore.list())).sort();
      expect(zipKeys.length).toBeGreaterThan(100);
      expect(zipKeys).toEqual(dirKeys);
      expect(info.keys).toBe(dirKeys.length);
    });

    it("get returns the same bytes for every key, getSize the same size", async () => {
      const store = inMemory();
      for await (const key of dirStore.list()) {
        const expected = await dirStore.get(key);
        expectBytes(await store.get(key), expected, key);
        expect(await store.getSize(key)).toBe(expected?.length);
      }
      expect(await store.get("no/such/key")).toBeUndefined();
      expect(await store.getRange("no/such/key", { offset: 0 })).toBeUndefined();
    });

    it("getRange returns slices of the file for random ranges", async () => {
      const store = inMemory();
      const random = rng(version.length * 1000 + zip.length);
      for await (const key of dirStore.list()) {
        const whole = (await dirStore.get(key)) as Uint8Array;
        for (let i = 0; i < 3; i++) {
          const offset = Math.floor(random() * (whole.length + 4));
          const length = Math.floor(random() * (whole.length + 4));
          expectBytes(await store.getRange(key, { offset, length }), whole.slice(offset, offset + length), key);
        }
        const n = Math.floor(random() * (whole.length + 2));
        expectBytes(await store.getRange(key, { suffixLength: n }), whole.slice(Math.max(0, whole.length - n)), key);
        expectBytes(await store.getRange(key, { offset: 1 }), whole.slice(1), key);
      }
    });

    it("listDir and listPrefix match the directory's structure", async () => {
      const store = open();
      const keys = await collect(store.list());
      for (const p of allPrefixes(keys)) {
        const [a, b] = [await store.listDir(p), await dirStore.listDir(p)];
        expect(a.keys.slice().sort(), p).toEqual(b.keys.slice().sort());
        expect(a.prefixes.slice().sort(), p).toEqual(b.prefixes.slice().sort());
        expect((await collect(store.listPrefix(p))).sort()).toEqual((await collect(dirStore.listPrefix(p))).sort());
      }
      expect(await store.listDir("nowhere/")).toEqual({ keys: [], prefixes: [] });
      expect(await collect(store.listPrefix("1d.contiguous.raw"))).toEqual(
        keys.filter((k) => k.startsWith("1d.contiguous.raw")),
      );
    });

    if (prefix !== "") {
      it("prefix: explicit, or autoPrefix off shows the folder", async () => {
        const source = new FileSystemStore(join(FIXTURES, version), { readOnly: true });
        const raw = new ZipStore(source, zip, { autoPrefix: false });
        const rawKeys = await collect(raw.list());
        expect(rawKeys.every((k) => k.startsWith(prefix))).toBe(true);
        expect((await raw.open()).prefix).toBe("");
        const explicit = new ZipStore(source, zip, { prefix: "data.zarr" });
        expect(await collect(explicit.list())).toEqual(rawKeys.map((k) => k.slice(prefix.length)));
        const meta = version === "v3" ? "zarr.json" : ".zgroup";
        expect(await explicit.get(meta)).toEqual(await raw.get(`${prefix}${meta}`));
      });
    }

    if (version === "v3") {
      it("arrays with built-in codecs read through @zarr/core give the expected values", async () => {
        const store = open();
        const arrays = (await collect(store.list()))
          .filter((k) => k.endsWith("zarr.json"))
          .map((k) => k.slice(0, -"/zarr.json".length))
          .filter((k) => k !== "");
        let read = 0;
        for (const path of arrays) {
          const meta = JSON.parse(new TextDecoder().decode(await store.get(`${path}/zarr.json`)));
          if (meta.node_type !== "array" || codecNames(meta.codecs).some((n) => !BUILTIN.has(n))) continue;
          const expected = JSON.parse(
            readFileSync(join(FIXTURES, "expected/v3", `${path.replaceAll("/", "__")}.json`), "utf8"),
          );
          const json = toCanonicalJson(await get(await openArray(store, path)));
          expect(json.shape, path).toEqual(expected.shape);
          expect(json.values, path).toEqual(expected.values);
          read++;
        }
        // 1d.contiguous.raw.i2 and the three consolidated/ arrays.
        expect(read).toBe(4);
        expect(readdirSync(join(FIXTURES, "expected/v3")).length).toBeGreaterThan(40);
      });
    }
  });
}
