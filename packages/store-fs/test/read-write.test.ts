import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FileSystemStore } from "../src/index.js";
import { collect, filesOnDisk, freshRoot, pattern, rejectsWith, tempDir, text, utf8 } from "./helpers.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("get / set", () => {
  it("round-trips values, creating parent directories", async () => {
    const { root } = freshRoot();
    const store = new FileSystemStore(root);
    await store.set("zarr.json", utf8('{"zarr_format":3}'));
    await store.set("t2m/c/0/1/2", pattern(1000));
    await store.set("empty", new Uint8Array(0));
    expect(text(await store.get("zarr.json"))).toBe('{"zarr_format":3}');
    expect(await store.get("t2m/c/0/1/2")).toEqual(pattern(1000));
    expect(await store.get("empty")).toEqual(new Uint8Array(0));
    expect(fs.readFileSync(path.join(root, "t2m", "c", "0", "1", "2"))).toEqual(Buffer.from(pattern(1000)));
  });

  it("stores exactly the bytes of a view, not its whole buffer", async () => {
    const store = new FileSystemStore(tempDir());
    const big = pattern(100);
    await store.set("view", big.subarray(10, 20));
    expect(await store.get("view")).toEqual(pattern(100).subarray(10, 20));
  });

  it("overwrites with a shorter value completely", async () => {
    const store = new FileSystemStore(tempDir());
    await store.set("a/k", pattern(5000, 1));
    await store.set("a/k", pattern(7, 2));
    expect(await store.get("a/k")).toEqual(pattern(7, 2));
  });

  it("returns a plain Uint8Array owning its ArrayBuffer (byteOffset 0, exact length)", async () => {
    const store = new FileSystemStore(tempDir());
    const values = new Float64Array([1.5, -2, Math.PI, 1e300]);
    await store.set("f64", new Uint8Array(values.buffer));
    for (const key of ["f64"]) {
      const bytes = (await store.get(key))!;
      expect(Object.getPrototypeOf(bytes)).toBe(Uint8Array.prototype);
      expect(bytes.byteOffset).toBe(0);
      expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
      expect(new Float64Array(bytes.buffer)).toEqual(values);
    }
    // Small values too: these must not come from Node's shared 8 KiB Buffer pool.
    await store.set("small", utf8("hi"));
    const small = (await store.get("small"))!;
    expect(small.byteOffset).toBe(0);
    expect(small.buffer.byteLength).toBe(2);
  });

  it("reads a 1 MiB chunk intact", async () => {
    const store = new FileSystemStore(tempDir());
    const chunk = pattern(1 << 20, 9);
    await store.set("c/0", chunk);
    const read = (await store.get("c/0"))!;
    expect(Buffer.compare(read, chunk)).toBe(0);
  });

  it("resolves undefined for missing keys, directories and paths through files", async () => {
    const store = new FileSystemStore(tempDir());
    await store.set("a/b/zarr.json", utf8("{}"));
    await store.set("file", utf8("x"));
    expect(await store.get("missing")).toBeUndefined();
    expect(await store.get("a/missing/deeper")).toBeUndefined();
    expect(await store.get("a/b")).toBeUndefined(); // a directory
    expect(await store.get("file/child")).toBeUndefined(); // ENOTDIR
  });

  it("reports other read failures as STORE_FAILED naming the key", async () => {
    const root = tempDir();
    fs.symlinkSync("loop", path.join(root, "loop")); // ELOOP
    const store = new FileSystemStore(root);
    const error = await rejectsWith(store.get("loop"), "STORE_FAILED");
    expect(error.key).toBe("loop");
    expect(error.message).toContain('"loop"');
    await rejectsWith(store.getRange("loop", { offset: 0, length: 1 }), "STORE_FAILED");
    await rejectsWith(store.getSize("loop"), "STORE_FAILED");
  });

  it("refuses to write below a file (STORE_FAILED) and leaves no temporary file", async () => {
    const root = tempDir();
    const store = new FileSystemStore(root);
    await store.set("a", utf8("file"));
    const error = await rejectsWith(store.set("a/b/c", utf8("x")), "STORE_FAILED");
    expect(error.key).toBe("a/b/c");
    expect(filesOnDisk(root)).toEqual(["a"]);
  });

  it("refuses to write over a directory and removes its temporary file", async () => {
    const root = tempDir();
    const store = new FileSystemStore(root);
    await store.set("d/x", utf8("x"));
    await rejectsWith(store.set("d", utf8("y")), "STORE_FAILED");
    expect(filesOnDisk(root)).toEqual(["d/x"]);
  });

  it("rejects non-Uint8Array values", async () => {
    const store = new FileSystemStore(tempDir());
    await rejectsWith(store.set("k", "text" as unknown as Uint8Array), "INVALID_ARGUMENT");
  });

  it("round-trips random keys and values like a Map (property)", async () => {
    const dirs = ["x", "y z", "é"];
    const leaves = ["k.json", "ü 1", "c0", ".zarray"];
    const keyArb = fc
      .tuple(fc.array(fc.constantFrom(...dirs), { maxLength: 2 }), fc.constantFrom(...leaves))
      .map(([parts, leaf]) => [...parts, leaf].join("/"));
    const op = fc.oneof(
      fc.record({ kind: fc.constant("set" as const), key: keyArb, value: fc.uint8Array({ maxLength: 64 }) }),
      fc.record({ kind: fc.constant("delete" as const), key: keyArb }),
      fc.record({ kind: fc.constant("deletePrefix" as const), dirs: fc.array(fc.constantFrom(...dirs), { maxLength: 2 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 25 }), async (ops) => {
        const store = new FileSystemStore(path.join(tempDir(), "s"));
        const model = new Map<string, Uint8Array>();
        for (const o of ops) {
          if (o.kind === "set") {
            await store.set(o.key, o.value);
            model.set(o.key, o.value);
          } else if (o.kind === "delete") {
            await store.delete(o.key);
            model.delete(o.key);
          } else {
            const prefix = o.dirs.map((d) => `${d}/`).join("");
            await store.deletePrefix(prefix);
            for (const k of [...model.keys()]) if (k.startsWith(prefix)) model.delete(k);
          }
        }
        expect(await collect(store.list())).toEqual([...model.keys()].sort());
        for (const [k, v] of model) expect(await store.get(k)).toEqual(v);
      }),
      { numRuns: 40 },
    );
  });
});

describe("getRange", () => {
  const data = pattern(1000, 3);
  const setup = async () => {
    const store = new FileSystemStore(tempDir());
    await store.set("k", data);
    return store;
  };

  it.each([
    ["offset+length", { offset: 10, length: 20 }, [10, 30]],
    ["offset+length clamped at the end", { offset: 990, length: 50 }, [990, 1000]],
    ["offset+length beyond the end", { offset: 2000, length: 5 }, [1000, 1000]],
    ["zero length", { offset: 5, length: 0 }, [5, 5]],
    ["offset only", { offset: 10 }, [10, 1000]],
    ["offset only at the end", { offset: 1000 }, [1000, 1000]],
    ["offset only beyond the end", { offset: 5000 }, [1000, 1000]],
    ["suffix", { suffixLength: 16 }, [984, 1000]],
    ["suffix longer than the value", { suffixLength: 5000 }, [0, 1000]],
    ["empty suffix", { suffixLength: 0 }, [1000, 1000]],
    ["huge length (clamped via fstat, no huge allocation)", { offset: 1, length: 1e12 }, [1, 1000]],
  ] as const)("%s", async (_name, range, [start, end]) => {
    const store = await setup();
    const got = (await store.getRange("k", range))!;
    expect(got).toEqual(data.subarray(start, end));
    expect(got.byteOffset).toBe(0);
    expect(got.buffer.byteLength).toBe(end - start);
  });

  it("reads only the requested bytes, never the whole file", async () => {
    const store = new FileSystemStore(tempDir());
    const big = pattern(4 << 20, 5);
    await store.set("big", big);
    const readSpy = vi.spyOn(fs, "read");
    // fs.read(fd, buffer, offset, length, position, callback): sum the lengths asked for.
    const requested = () => readSpy.mock.calls.reduce((sum, call) => sum + ((call as unknown[])[3] as number), 0);
    expect(await store.getRange("big", { offset: 1 << 20, length: 100 })).toEqual(big.subarray(1 << 20, (1 << 20) + 100));
    expect(requested()).toBe(100);
    readSpy.mockClear();
    expect(await store.getRange("big", { suffixLength: 64 })).toEqual(big.subarray(big.length - 64));
    expect(requested()).toBe(64);
  });

  it("resolves undefined for a missing key or a directory", async () => {
    const store = await setup();
    await store.set("dir/x", utf8("x"));
    expect(await store.getRange("missing", { offset: 0, length: 4 })).toBeUndefined();
    expect(await store.getRange("dir", { offset: 0, length: 4 })).toBeUndefined();
    expect(await store.getRange("dir", { suffixLength: 4 })).toBeUndefined();
    expect(await store.getRange("dir", { offset: 0 })).toBeUndefined();
  });

  it("rejects invalid ranges with INVALID_ARGUMENT", async () => {
    const store = await setup();
    await rejectsWith(store.getRange("k", { offset: -1, length: 2 }), "INVALID_ARGUMENT");
    await rejectsWith(store.getRange("k", { offset: 0, length: 1.5 }), "INVALID_ARGUMENT");
    await rejectsWith(store.getRange("k", { suffixLength: -3 }), "INVALID_ARGUMENT");
  });

  it("agrees with slicing the whole value for random ranges (property)", async () => {
    const store = await setup();
    const range = fc.oneof(
      fc.record({ offset: fc.nat(1200), length: fc.nat(1200) }),
      fc.record({ offset: fc.nat(1200) }),
      fc.record({ suffixLength: fc.nat(1200) }),
    );
    await fc.assert(
      fc.asyncProperty(range, async (r) => {
        let expected: Uint8Array;
        if ("suffixLength" in r) expected = data.slice(Math.max(0, data.length - r.suffixLength));
        else expected = data.slice(r.offset, "length" in r ? r.offset + r.length : undefined);
        expect(await store.getRange("k", r)).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });
});

describe("getSize", () => {
  it("gives sizes of values and undefined for missing keys and directories", async () => {
    const store = new FileSystemStore(tempDir());
    await store.set("a/b", pattern(1234));
    await store.set("e", new Uint8Array(0));
    expect(await store.getSize("a/b")).toBe(1234);
    expect(await store.getSize("e")).toBe(0);
    expect(await store.getSize("a")).toBeUndefined();
    expect(await store.getSize("nope")).toBeUndefined();
    expect(await store.getSize("a/b/c")).toBeUndefined();
  });
});

describe("delete / deletePrefix", () => {
  const keys = ["zarr.json", "a/zarr.json", "a/b/zarr.json", "a/b/c/0/0", "a/b/c/0/1", "a/bc", "a/x/0"];
  const setup = async () => {
    const root = tempDir();
    const store = new FileSystemStore(root);
    for (const key of keys) await store.set(key, utf8(key));
    return { root, store };
  };

  it("deletes one key; missing keys and directories are no-ops", async () => {
    const { store } = await setup();
    await store.delete("a/bc");
    await store.delete("a/bc");
    await store.delete("never/existed");
    await store.delete("a/b"); // a directory, not a key
    expect(await store.get("a/bc")).toBeUndefined();
    expect(await collect(store.list())).toEqual(keys.filter((k) => k !== "a/bc").sort());
  });

  it("deletePrefix removes everything under a directory prefix and nothing else", async () => {
    const { root, store } = await setup();
    await store.deletePrefix("a/b/");
    expect(await collect(store.list())).toEqual(["a/bc", "a/x/0", "a/zarr.json", "zarr.json"]);
    expect(fs.existsSync(path.join(root, "a", "b"))).toBe(false);
    await store.deletePrefix("a/b/"); // again: nothing there
    await store.deletePrefix("no/such/");
  });

  it("deletePrefix keeps a file whose name is the prefix without the slash", async () => {
    const { store } = await setup();
    await store.deletePrefix("a/bc/");
    expect(await store.get("a/bc")).toEqual(utf8("a/bc"));
  });

  it('deletePrefix("") empties the store but keeps the root directory', async () => {
    const { root, store } = await setup();
    await store.deletePrefix("");
    expect(await collect(store.list())).toEqual([]);
    expect(fs.statSync(root).isDirectory()).toBe(true);
    expect(fs.readdirSync(root)).toEqual([]);
  });

  it("rejects prefixes without a trailing slash", async () => {
    const { store } = await setup();
    await rejectsWith(store.deletePrefix("a/b"), "KEY_INVALID");
    expect(await collect(store.list())).toEqual([...keys].sort());
  });
});
