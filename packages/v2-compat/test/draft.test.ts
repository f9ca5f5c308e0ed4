/** The early v3 draft layout as zarr-python 2.13's experimental v3 API writes it. */
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { get, open, openArray, openGroup, setAttributes, toCanonicalJson, walk } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { ZarrError } from "@zarr/spec";
import { afterAll, describe, expect, it } from "vitest";
import { requirePythonZarr } from "../../../scripts/test-env.mjs";
import { convert, DraftKeyEncoding } from "../src/index.js";
import { fullRegistry, pythonScript } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "zarr-draft-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Written {
  arrays: Record<string, { shape: number[]; values: unknown[] }>;
  attributes: Record<string, Record<string, unknown>>;
}
const dir = join(tmp, "draft.zr3");
let written: Written | undefined;
function draftStore(): Written {
  written ??= JSON.parse(pythonScript("write_v3_draft.py", [dir])) as Written;
  return written;
}

describe("zarr-python 2.13 experimental v3 (early draft layout)", () => {
  it("reads every array exactly", async () => {
    requirePythonZarr();
    const w = draftStore();
    const store = new FileSystemStore(dir, { readOnly: true });
    const registry = fullRegistry();
    const failures: string[] = [];
    for (const [path, expected] of Object.entries(w.arrays)) {
      try {
        const arr = await openArray(store, path, { registry });
        expect(arr.format?.name).toBe("zarr-v3-draft");
        const got = toCanonicalJson(await get(arr));
        expect({ shape: got.shape, values: got.values }, path).toEqual(expected);
        expect(arr.attributes, path).toEqual(w.attributes[path]);
      } catch (error) {
        failures.push(`${path}: ${(error as Error).message.slice(0, 300)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("walks the hierarchy (implicit groups included) and is read-only", async () => {
    requirePythonZarr();
    const w = draftStore();
    const store = new FileSystemStore(dir);
    const registry = fullRegistry();
    const root = await openGroup(store, "", { registry });
    expect(root.format?.name).toBe("zarr-v3-draft");
    const seen = new Map<string, string>();
    for await (const n of walk(root)) seen.set(n.path, n.kind);
    for (const path of Object.keys(w.arrays)) expect(seen.get(path), path).toBe("array");
    expect(seen.get("groups/a")).toBe("group");
    expect(seen.get("groups/a/b")).toBe("group"); // implicit: only its child has a document
    const a = await openGroup(store, "groups/a", { registry });
    expect(a.attributes).toEqual(w.attributes["groups/a"]);
    await expect(setAttributes(a, { x: 1 })).rejects.toMatchObject({ code: "UNSUPPORTED" });
    const arr = await open(a, "b/arr", { registry });
    expect(arr.kind).toBe("array");
  });
});

describe("early draft → Zarr v3", () => {
  it("converts into another store and in place; the chunks move to v3 keys, values stay the same", async () => {
    requirePythonZarr();
    const w = draftStore();
    const registry = fullRegistry();
    const copy = join(tmp, "inplace.zr3");
    cpSync(dir, copy, { recursive: true });
    const targets = [
      { store: new FileSystemStore(join(tmp, "converted.zarr")), inPlace: false },
      { store: new FileSystemStore(copy), inPlace: true },
    ];
    for (const { store, inPlace } of targets) {
      const source = inPlace ? store : new FileSystemStore(dir, { readOnly: true });
      const root = await openGroup(source, "", { registry });
      const { arrays } = await convert(root, inPlace ? { inPlace, registry } : { target: store, registry });
      expect(arrays.every((a) => a.chunks === (inPlace ? "moved" : "copied"))).toBe(true);
      for (const [path, expected] of Object.entries(w.arrays)) {
        const arr = await openArray(store, path, { registry });
        expect(arr.format, path).toBeUndefined();
        expect(arr.metadata.chunk_key_encoding.name).toBe("default");
        const got = toCanonicalJson(await get(arr));
        expect({ shape: got.shape, values: got.values }, path).toEqual(expected);
      }
      const g = await openGroup(store, "groups/a", { registry });
      expect(g.attributes).toEqual(w.attributes["groups/a"]);
    }
    // in place, the draft's documents and chunk keys are gone and zarr.json is a v3 group
    expect(existsSync(join(copy, "meta", "root", "groups", "a.group.json"))).toBe(false);
    expect(existsSync(join(copy, "data", "root", "filters", "delta", "c0"))).toBe(false);
    expect(existsSync(join(copy, "filters", "delta", "c", "0"))).toBe(true);
    const root = await openGroup(new FileSystemStore(copy), "", { registry });
    expect(root.zarrFormat).toBe(3);
    expect(root.format).toBeUndefined();
  });
});

describe("DraftKeyEncoding", () => {
  it("writes c + indices joined by the separator, and reads them back", () => {
    const slash = new DraftKeyEncoding("/");
    expect(slash.encode([1, 20, 3])).toBe("c1/20/3");
    expect(slash.decode("c1/20/3", 3)).toEqual([1, 20, 3]);
    expect(slash.decode("c1/20", 3)).toBeUndefined();
    expect(slash.decode("c/1/2", 2)).toBeUndefined();
    expect(new DraftKeyEncoding(".").encode([0, 4])).toBe("c0.4");
    expect(slash.encode([])).toBe("c0");
    expect(slash.decode("c0", 0)).toEqual([]);
    expect(slash.decode("c01/2", 2)).toBeUndefined();
  });

  it("ignores a zarr.json that is Zarr v3 or not JSON", async () => {
    const registry = fullRegistry();
    const bad = { get: async (k: string) => (k === "zarr.json" ? new TextEncoder().encode("{nope") : undefined) };
    await expect(open(bad, "", { registry })).rejects.toBeInstanceOf(ZarrError);
    await expect(open(bad, "", { registry })).rejects.toMatchObject({ code: "METADATA_INVALID" });
  });
});
