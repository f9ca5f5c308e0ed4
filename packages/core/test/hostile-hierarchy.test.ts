/** Hostile or interrupted hierarchies: invalid consolidated keys, and interrupted metadata-last writes. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { INCOMPLETE_MARKER, incompleteMarkerKey, isDescendantPath } from "../src/extensions.js";
import {
  createArray,
  createGroup,
  listChildren,
  MemoryStore,
  open,
  openGroup,
  walkEntries,
  type ZarrError,
} from "../src/index.js";

const utf8 = (text: string) => new TextEncoder().encode(text);
const codeOf = (p: Promise<unknown>) => p.then(() => "ok", (e: ZarrError) => e.code);

afterEach(() => {
  vi.restoreAllMocks();
});

describe("invalid consolidated metadata keys", () => {
  const array = { zarr_format: 3, node_type: "array", shape: [2], data_type: "uint8", chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } }, chunk_key_encoding: { name: "default" }, fill_value: 0, codecs: [{ name: "bytes" }], attributes: {} };
  const group = { zarr_format: 3, node_type: "group", attributes: {} };

  async function hostileStore(keys: string[]) {
    const store = new MemoryStore();
    const metadata: Record<string, unknown> = { ok: array, sub: group, "sub/inner": array };
    for (const k of keys) metadata[k] = array;
    await store.set("zarr.json", utf8(JSON.stringify({ ...group, consolidated_metadata: { kind: "inline", must_understand: false, metadata } })));
    return store;
  }

  it("are skipped with one warning each; the valid entries still list", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const bad = ["../evil", "", "/abs", "a/../b", "a//b", ".", "x/.."];
    const root = await openGroup(await hostileStore(bad));
    expect(warn).toHaveBeenCalledTimes(bad.length);
    expect(String(warn.mock.calls[0][0])).toContain('"../evil"');
    const names = (await listChildren(root)).map((e) => e.name);
    expect(names).toEqual(["ok", "sub"]);
    const walked: string[] = [];
    for await (const e of walkEntries(root)) walked.push(e.path);
    expect(walked).toEqual(["ok", "sub", "sub/inner"]);
    expect((await open(root, "ok")).kind).toBe("array");
  });

  it("isDescendantPath accepts relative node paths only", () => {
    for (const good of ["a", "a/b", "ünï/x y", "..a", "a.."]) expect(isDescendantPath(good)).toBe(true);
    for (const bad of ["", "..", ".", "/a", "a/", "a//b", "a/./b", "a/../b", "a\\b", "a\0"]) expect(isDescendantPath(bad)).toBe(false);
  });

  it("a store listing that yields '' or '..' adds no child", async () => {
    const store = new MemoryStore();
    await createGroup(store, "");
    await createArray(store, "a", { shape: [1], dataType: "uint8" });
    const odd = Object.assign(Object.create(store), {
      listDir: async (prefix: string) => {
        const real = await store.listDir(prefix);
        return { keys: real.keys, prefixes: [...real.prefixes, "", "..", "."] };
      },
    });
    const root = await openGroup(odd);
    expect((await listChildren(root)).map((e) => e.name)).toEqual(["a"]);
  });
});

describe("interrupted metadata-last writes", () => {
  it("a path holding the marker and chunks but no metadata opens as a coded error, and is no child", async () => {
    const store = new MemoryStore();
    await createGroup(store, "");
    await createArray(store, "done", { shape: [1], dataType: "uint8" });
    await store.set("half/c/0", new Uint8Array([1, 2]));
    await store.set(incompleteMarkerKey("half"), utf8("{}"));
    expect(incompleteMarkerKey("half")).toBe(`half/${INCOMPLETE_MARKER}`);
    const error = await open(store, "half").catch((e: ZarrError) => e);
    expect((error as ZarrError).code).toBe("NODE_NOT_FOUND");
    expect((error as ZarrError).message).toMatch(/interrupted.*--resume/);
    expect((await listChildren(await openGroup(store))).map((e) => e.name)).toEqual(["done"]);
    // Without the marker the same keys were an implicit group.
    await store.delete(incompleteMarkerKey("half"));
    expect(await codeOf(open(store, "half"))).toBe("ok");
  });

  it("an array whose metadata was written is complete even if the marker is still there", async () => {
    const store = new MemoryStore();
    await createArray(store, "x", { shape: [1], dataType: "uint8" });
    await store.set(incompleteMarkerKey("x"), utf8("{}"));
    expect((await open(store, "x")).kind).toBe("array");
  });
});
