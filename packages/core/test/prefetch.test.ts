import { describe, expect, it } from "vitest";
import { type CodecEntry, createArray, createRegistry, type DataTypeEntry, get, type LazyEntry, MemoryStore, open, openArray, set } from "../src/index.js";

/** A bytes→bytes codec that passes bytes through, recording its `prefetch` calls. */
function passCodec(name: string, calls: string[]): CodecEntry {
  return {
    type: "codec",
    name,
    codecKind: "bytes_to_bytes",
    prefetch: () => calls.push(`prefetch ${name}`),
    fromConfig: () => ({ kind: "bytes_to_bytes", name, encode: (b) => b, decode: (b) => b, toJSON: () => ({ name, configuration: {} }) }),
  };
}

/** A store whose reads are logged (key by key), so a test can see what open read. */
class LoggingStore extends MemoryStore {
  readonly reads: string[] = [];
  override async get(key: string, options?: Parameters<MemoryStore["get"]>[1]) {
    this.reads.push(key);
    return super.get(key, options);
  }
}

/** Writes a float32 array using codec `name` (and the built-in float32), returning the store. */
async function arrayWith(name: string): Promise<LoggingStore> {
  const store = new LoggingStore();
  const registry = createRegistry([passCodec(name, [])]);
  const arr = await createArray(store, "a", { shape: [4], chunkShape: [2], dataType: "float32", codecs: [{ name: "bytes" }, { name }], registry });
  await set(arr, null, Float32Array.of(1, 2, 3, 4));
  return store;
}

describe("open starts loading the code the metadata names", () => {
  it("calls a codec's prefetch when the array opens, before any chunk is read", async () => {
    const store = await arrayWith("example.pass");
    const calls: string[] = [];
    const registry = createRegistry([passCodec("example.pass", calls)]);
    store.reads.length = 0;
    const arr = await openArray(store, "a", { registry });
    expect(calls).toEqual(["prefetch example.pass"]);
    expect(store.reads).toEqual(["a/zarr.json"]);
    expect(Array.from((await get(arr)).data as Float32Array)).toEqual([1, 2, 3, 4]);
  });

  it("loads lazy codec entries together with the data type, not after it", async () => {
    const store = await arrayWith("example.pass");
    const calls: string[] = [];
    // The data type's code arrives only when the test lets it.
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    const float32 = (await createRegistry().dataType("float32")) as DataTypeEntry;
    const lazyType: LazyEntry<DataTypeEntry> = {
      type: "data_type",
      name: "float32",
      lazy: true,
      load: async () => {
        calls.push("load float32");
        await released;
        return float32;
      },
    };
    const lazyCodec: LazyEntry<CodecEntry> = {
      type: "codec",
      name: "example.pass",
      lazy: true,
      load: async () => {
        calls.push("load example.pass");
        return passCodec("example.pass", calls);
      },
    };
    const opening = open(store, "a", { registry: createRegistry([lazyType, lazyCodec]) });
    await new Promise((r) => setTimeout(r, 10));
    // The codec's code is loading (and its decoder prefetched) while the data type's still waits.
    expect(calls).toEqual(["load float32", "load example.pass", "prefetch example.pass"]);
    release();
    const arr = await opening;
    expect(arr.kind).toBe("array");
    // Each lazy entry loaded once: the look-ups of open share the loads prefetch began.
    expect(calls.filter((c) => c.startsWith("load"))).toEqual(["load float32", "load example.pass"]);
  });

  it("leaves unknown codecs and failed loads to the look-up, which reports them as before", async () => {
    const store = await arrayWith("example.pass");
    // open defers an array it cannot read: the problem it carries is the look-up's error.
    expect((await openArray(store, "a", { registry: createRegistry() })).problem?.code).toBe("CODEC_UNKNOWN");
    let loads = 0;
    const failing: LazyEntry<CodecEntry> = {
      type: "codec",
      name: "example.pass",
      lazy: true,
      load: () => {
        loads++;
        return Promise.reject(new Error("offline"));
      },
    };
    const error = await openArray(store, "a", { registry: createRegistry([failing]) }).then(
      (arr) => arr.problem,
      (e: unknown) => e,
    );
    expect(String((error as Error).message)).toContain("offline");
    expect(loads).toBeGreaterThanOrEqual(1);
  });
});
