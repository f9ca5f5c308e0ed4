/**
 * The chunk `ByteSource` over a store (`engine/store-source.ts`): every read method a
 * store has is passed on with its options, and every failure, thrown or rejected, is
 * `STORE_FAILED` naming the key, while a ZarrError (e.g. `STORE_CHANGED`) passes through.
 */
import { storeChanged, type VersionedReadOptions, ZarrError } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { storeSource } from "../src/engine/store-source.js";
import { MemoryStore } from "../src/index.js";

const KEY = "a/c/0";

/** A store whose every read method fails with `failure` (thrown at once when `sync`). */
function failingStore(failure: Error, sync: boolean): MemoryStore {
  const store = new MemoryStore();
  const fail = sync
    ? () => {
        throw failure;
      }
    : async () => {
        throw failure;
      };
  Object.assign(store, { get: fail, getRange: fail, readInto: fail, getInto: fail, getVersioned: fail });
  return store;
}

const reads = {
  get: (s: ReturnType<typeof storeSource>) => s.get(undefined),
  getRange: (s: ReturnType<typeof storeSource>) => s.get({ offset: 1, length: 2 }),
  readInto: (s: ReturnType<typeof storeSource>) => s.readInto?.([{ offset: 0, target: new Uint8Array(1) }]),
  getInto: (s: ReturnType<typeof storeSource>) => s.getInto?.(new Uint8Array(1)),
  getVersioned: (s: ReturnType<typeof storeSource>) => s.getVersioned?.(undefined, undefined),
};

describe("storeSource", () => {
  for (const [name, read] of Object.entries(reads)) {
    for (const sync of [false, true]) {
      it(`${name}: a ${sync ? "thrown" : "rejected"} failure is STORE_FAILED naming the key`, async () => {
        const source = storeSource(failingStore(new TypeError("disk on fire"), sync), KEY, undefined);
        const error = await Promise.resolve(read(source)).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(ZarrError);
        expect((error as ZarrError).code).toBe("STORE_FAILED");
        expect((error as ZarrError).message).toContain(KEY);
      });
    }
  }

  it("getVersioned passes STORE_CHANGED through, and its version, signal and spare on", async () => {
    const changed = storeChanged(KEY, "v1", "v2");
    await expect(reads.getVersioned(storeSource(failingStore(changed, false), KEY, undefined))).rejects.toBe(changed);
    const store = new MemoryStore();
    let seen: VersionedReadOptions | undefined;
    Object.assign(store, {
      getVersioned: async (_key: string, _range: unknown, options: VersionedReadOptions) => {
        seen = options;
        return { bytes: new Uint8Array(0), version: "v1" };
      },
    });
    const signal = new AbortController().signal;
    const spare = new Uint8Array(8);
    await storeSource(store, KEY, signal).getVersioned?.({ offset: 0, length: 4 }, "v1", undefined, spare);
    expect(seen).toEqual({ signal, ifVersion: "v1", spare });
  });
});
