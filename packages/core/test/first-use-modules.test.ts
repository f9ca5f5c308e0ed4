/**
 * Code that loads on first use (bundle size: see scripts/bundle-sizes.mjs) keeps its
 * behaviour: the errors of malformed codec chains and `bytes` configurations, unknown
 * registry names, `get`'s `out` option, missing nodes, and the chain's write and
 * array→array paths.
 */
import { describe, expect, it } from "vitest";
import {
  type CodecEntry,
  createArray,
  createRegistry,
  get,
  jsonToBytes,
  MemoryStore,
  open,
  openArray,
  set,
  slice,
  ZarrError,
} from "../src/index.js";

const doc = (over: Record<string, unknown>) => ({
  zarr_format: 3,
  node_type: "array",
  shape: [4, 4],
  data_type: "int16",
  chunk_grid: { name: "regular", configuration: { chunk_shape: [2, 2] } },
  chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
  fill_value: 0,
  codecs: [{ name: "bytes", configuration: { endian: "little" } }],
  attributes: {},
  ...over,
});

async function openError(document: unknown, registry = createRegistry()): Promise<ZarrError> {
  const store = new MemoryStore();
  await store.set("a/zarr.json", jsonToBytes(document as never));
  const e = await open(store, "a", { registry }).then(
    async (node) => {
      // An extension the registry lacks: the array opens, and its data fails with the problem.
      if (node.kind !== "array" || node.problem === undefined) return undefined;
      const read = await get(node).then(
        () => undefined,
        (x: unknown) => x,
      );
      if (read !== node.problem) throw new Error(`get failed otherwise than with the array's problem: ${String(read)}`);
      return node.problem;
    },
    (x: unknown) => x,
  );
  if (!(e instanceof ZarrError)) throw new Error(`expected a ZarrError, got ${String(e)}`);
  return e;
}

/** A bytes→bytes codec that changes nothing, registered under `name` (as `kind`). */
function identityEntry(name: string, kind: CodecEntry["codecKind"] = "bytes_to_bytes"): CodecEntry {
  return {
    type: "codec",
    name,
    codecKind: kind,
    fromConfig: () => ({
      kind: "bytes_to_bytes",
      name,
      encode: (b: Uint8Array) => b,
      decode: (b: Uint8Array) => b,
      computeEncodedSize: (n: number) => n,
      toJSON: () => ({ name, configuration: {} }),
    }),
  };
}

describe("malformed codec chains (pipeline-chain-errors.ts)", () => {
  it("a bytes→bytes codec before the array→bytes codec names both and the path", async () => {
    const e = await openError(doc({ codecs: [{ name: "ident" }, { name: "bytes", configuration: { endian: "little" } }] }), createRegistry([identityEntry("ident")]));
    expect(e.code).toBe("METADATA_INVALID");
    expect(e.message).toMatch(/\$\.codecs\[0\]: bytes→bytes codec "ident" must come after an array→bytes codec/);
    expect(e.message).toContain('"a/zarr.json"');
  });
  it("an entry that builds another kind of codec than it is registered as", async () => {
    const e = await openError(
      doc({ codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "odd" }] }),
      createRegistry([identityEntry("odd", "array_to_array")]),
    );
    expect(e.code).toBe("METADATA_INVALID");
    // Registered array→array, placed after the array→bytes codec: the order error comes first.
    expect(e.message).toMatch(/array→array codec "odd" must come before/);
    const wrongKind = await openError(
      doc({ codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "odd" }] }),
      createRegistry([{ ...identityEntry("odd"), codecKind: "bytes_to_bytes", fromConfig: () => ({ kind: "array_to_array" }) } as unknown as CodecEntry]),
    );
    expect(wrongKind.message).toBe('Codec "odd" is registered as bytes→bytes but built a array→array codec');
  });
  it("a chain of only bytes→bytes codecs has no array→bytes codec", async () => {
    const e = await openError(doc({ codecs: [] }));
    expect(e.message).toMatch(/at least one codec/);
    const none = await openError(doc({ codecs: [{ name: "transpose", configuration: { order: [1, 0] } }] }));
    expect(none.message).toMatch(/\$\.codecs: the codec chain has no array→bytes codec/);
  });
});

describe("bytes codec configurations (codecs/bytes-configuration.ts)", () => {
  it("an unknown field is named with its path", async () => {
    const e = await openError(doc({ codecs: [{ name: "bytes", configuration: { endian: "little", order: "C" } }] }));
    expect(e.message).toMatch(/\$\.codecs\[0\]\.configuration\.order: unknown configuration field "order"/);
    expect(e.message).toContain('"a/zarr.json"');
  });
  it("a variable-size data type gets the vlen hint", async () => {
    const e = await openError(doc({ data_type: "string", fill_value: "", codecs: [{ name: "bytes" }] }));
    expect(e.message).toMatch(/needs a fixed-size data type, but "string" has variable-size elements \(use vlen-utf8\)/);
  });
  it("a bad endian and a missing one for a multi-byte type; none needed for one byte", async () => {
    expect((await openError(doc({ codecs: [{ name: "bytes", configuration: { endian: 1 } }] }))).message).toMatch(
      /configuration\.endian: expected "little" or "big", got the number 1/,
    );
    expect((await openError(doc({ codecs: [{ name: "bytes" }] }))).message).toMatch(/endian: required for the multi-byte data type "int16"/);
    const store = new MemoryStore();
    await store.set("a/zarr.json", jsonToBytes(doc({ data_type: "uint8", codecs: [{ name: "bytes" }] }) as never));
    expect((await openArray(store, "a")).dataType.name).toBe("uint8");
  });
});

describe("registry misses (registry-errors.ts)", () => {
  it("an unknown codec is CODEC_UNKNOWN naming the codec, the JSON path and the document", async () => {
    const e = await openError(doc({ codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "nope" }] }));
    expect(e.code).toBe("CODEC_UNKNOWN");
    expect(e.key).toBe("a/zarr.json");
    expect(e.message).toMatch(/^Codec "nope" \(at \$\.codecs\[1\] in "a\/zarr\.json"\) is not registered\./);
  });
  it("an unknown data type is UNSUPPORTED", async () => {
    const e = await openError(doc({ data_type: "int3" }));
    expect(e.code).toBe("UNSUPPORTED");
    expect(e.message).toMatch(/^Data type "int3" \(at \$\.data_type in "a\/zarr\.json"\) is not registered\./);
  });
});

describe("get's out option (read-out.ts)", () => {
  it("reads into a caller's array, and refuses one of the wrong class or length", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "x", { shape: [4, 4], chunkShape: [2, 2], dataType: "int16" });
    await set(arr, null, Int16Array.from({ length: 16 }, (_, i) => i));
    const out = new Int16Array(4);
    const r = await get(arr, [slice(1, 3), slice(1, 3)], { out });
    expect(r.data).toBe(out);
    expect([...out]).toEqual([5, 6, 9, 10]);
    await expect(get(arr, null, { out: new Float32Array(16) })).rejects.toThrow(/options.out must be a Int16Array for data type int16, got Float32Array/);
    await expect(get(arr, null, { out: new Int16Array(15) })).rejects.toThrow(/options.out has 15 elements; the selection needs 16/);
  });

  it("allocateShared makes an out buffer on shared memory, and refuses types that are not plain memory", async () => {
    const { allocateShared } = await import("../src/workers/index.js");
    const store = new MemoryStore();
    const arr = await createArray(store, "c", { shape: [3], chunkShape: [3], dataType: "complex64" });
    await set(arr, null, [[1, 2], [3, 4], [5, 6]]);
    const out = allocateShared(arr.dataType, 3) as Float32Array;
    expect([out.constructor, out.length, out.buffer instanceof SharedArrayBuffer]).toEqual([Float32Array, 6, true]);
    expect([...((await get(arr, null, { out })).data as Float32Array)]).toEqual([1, 2, 3, 4, 5, 6]);
    const text = (await createRegistry().dataType("string")).fromConfig("string", {}, ["data_type"]);
    expect(() => allocateShared(text, 2)).toThrow(
      expect.objectContaining({ code: "UNSUPPORTED", message: expect.stringContaining("Values of data type string are not plain memory") }),
    );
  });
});

describe("missing nodes (node-not-found.ts)", () => {
  it("NODE_NOT_FOUND names the path and the key; keys below a path make an implicit group", async () => {
    const store = new MemoryStore();
    const e = await open(store, "a/b").catch((x: ZarrError) => x);
    expect(e).toMatchObject({ code: "NODE_NOT_FOUND", key: "a/b/zarr.json" });
    expect((e as ZarrError).message).toBe('No Zarr node at "a/b": "a/b/zarr.json" does not exist');
    await store.set("g/c/0", new Uint8Array(1));
    const g = await open(store, "g");
    expect(g).toMatchObject({ kind: "group", implicit: true, path: "g" });
  });
});

describe("the chain's write and array→array paths (pipeline-encode.ts, pipeline-decode-array.ts)", () => {
  it("writes and reads back through transpose, with negative steps", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "t", {
      shape: [3, 5],
      chunkShape: [2, 3],
      dataType: "int32",
      codecs: [{ name: "transpose", configuration: { order: [1, 0] } }, { name: "bytes", configuration: { endian: "big" } }],
    });
    const values = Int32Array.from({ length: 15 }, (_, i) => i * 7 - 20);
    await set(arr, null, values);
    expect([...(await get(arr)).data]).toEqual([...values]);
    const back = await get(arr, [slice(null, null, -1), slice(4, 0, -2)]);
    expect(back.shape).toEqual([3, 2]);
    expect([...back.data]).toEqual([14, 12, 9, 7, 4, 2].map((i) => values[i]));
  });
  it("negative steps on a bytes-only chain read the same elements as ascending ones, reversed", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "r", { shape: [10], chunkShape: [4], dataType: "uint8" });
    await set(arr, null, Uint8Array.from({ length: 10 }, (_, i) => i * 3));
    expect([...(await get(arr, [slice(8, 1, -3)])).data]).toEqual([24, 15, 6]);
  });
});
