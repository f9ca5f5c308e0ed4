import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type ByteRange,
  type ByteSource,
  memorySource,
  pinnedSource,
  resolveByteRange,
  storeChanged,
  type VersionedBytes,
  windowSource,
  ZarrError,
} from "../src/index.js";

const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => i);
const list = (b: Uint8Array | undefined) => (b === undefined ? undefined : Array.from(b));

/** Any range, including ones past the end, zero-length and suffix ranges. */
const anyRange: fc.Arbitrary<ByteRange> = fc.oneof(
  fc.record({ offset: fc.nat(40) }),
  fc.record({ offset: fc.nat(40), length: fc.nat(40) }),
  fc.record({ suffixLength: fc.nat(40) }),
);

/** A value whose version can change, read as a source with versioned reads; counts reads and keeps the last signal. */
function versionedSource(initial: Uint8Array) {
  const state = { value: initial, version: "v1", signals: [] as (AbortSignal | undefined)[] };
  const getVersioned = async (range: ByteRange | undefined, ifVersion: string | undefined, signal?: AbortSignal): Promise<VersionedBytes> => {
    state.signals.push(signal);
    if (ifVersion !== undefined && ifVersion !== state.version) throw storeChanged("shard", ifVersion, state.version);
    const [from, to] = range === undefined ? [0, state.value.length] : resolveByteRange(range, state.value.length);
    return { bytes: state.value.subarray(from, to), version: state.version };
  };
  const source: ByteSource = {
    rangesAreCheap: true,
    get: async (range, signal) => (await getVersioned(range, undefined, signal)).bytes,
    getVersioned,
  };
  return { state, source };
}

describe("memorySource", () => {
  it("reads the whole value, ranges as views clamped like a store's, and suffix ranges", async () => {
    const b = bytes(8);
    const source = memorySource(b);
    expect(source.rangesAreCheap).toBe(true);
    expect(await source.get()).toBe(b);
    const part = await source.get({ offset: 2, length: 3 });
    expect(list(part)).toEqual([2, 3, 4]);
    expect(part?.buffer).toBe(b.buffer); // a view, not a copy
    expect(list(await source.get({ offset: 6 }))).toEqual([6, 7]);
    expect(list(await source.get({ offset: 6, length: 10 }))).toEqual([6, 7]);
    expect(list(await source.get({ offset: 8 }))).toEqual([]);
    expect(list(await source.get({ offset: 20, length: 4 }))).toEqual([]);
    expect(list(await source.get({ offset: 3, length: 0 }))).toEqual([]);
    expect(list(await source.get({ suffixLength: 3 }))).toEqual([5, 6, 7]);
    expect(list(await source.get({ suffixLength: 0 }))).toEqual([]);
    expect(list(await source.get({ suffixLength: 100 }))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("over nothing is a missing value: every read resolves undefined", async () => {
    const missing = memorySource(undefined);
    expect(await missing.get()).toBeUndefined();
    expect(await missing.get({ offset: 0, length: 4 })).toBeUndefined();
    expect(await missing.get({ suffixLength: 4 })).toBeUndefined();
  });

  it("over zero bytes is an empty value, not a missing one", async () => {
    const empty = memorySource(new Uint8Array(0));
    expect(list(await empty.get())).toEqual([]);
    expect(list(await empty.get({ suffixLength: 4 }))).toEqual([]);
  });

  it("reports rangesAreCheap false when asked to present a whole-value snapshot", async () => {
    const source = memorySource(bytes(4), { rangesAreCheap: false });
    expect(source.rangesAreCheap).toBe(false);
    expect(list(await source.get({ offset: 1, length: 2 }))).toEqual([1, 2]);
  });

  it("rejects negative and non-integer ranges with INVALID_ARGUMENT", async () => {
    const source = memorySource(bytes(4));
    for (const range of [{ offset: -1 }, { offset: 1.5 }, { offset: 0, length: -2 }, { suffixLength: -1 }]) {
      const error = await source.get(range).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ZarrError);
      expect((error as ZarrError).code).toBe("INVALID_ARGUMENT");
    }
  });

  it("reads what resolveByteRange selects, for any range", async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(32), anyRange, async (n, range) => {
        const b = bytes(n);
        const [from, to] = resolveByteRange(range, n);
        expect(list(await memorySource(b).get(range))).toEqual(list(b.subarray(from, to)));
      }),
    );
  });
});

describe("windowSource", () => {
  it("reads its window whole, and ranges and suffix ranges relative to it", async () => {
    const window = windowSource(memorySource(bytes(16)), 4, 6); // bytes 4..10
    expect(window.rangesAreCheap).toBe(true);
    expect(list(await window.get())).toEqual([4, 5, 6, 7, 8, 9]);
    expect(list(await window.get({ offset: 1, length: 2 }))).toEqual([5, 6]);
    expect(list(await window.get({ suffixLength: 2 }))).toEqual([8, 9]);
    expect(list(await window.get({ offset: 3 }))).toEqual([7, 8, 9]);
  });

  it("never reads past its end: ranges and suffixes longer than the window are clamped to it", async () => {
    const window = windowSource(memorySource(bytes(16)), 4, 6);
    expect(list(await window.get({ offset: 4, length: 100 }))).toEqual([8, 9]);
    expect(list(await window.get({ offset: 6 }))).toEqual([]);
    expect(list(await window.get({ offset: 50, length: 2 }))).toEqual([]);
    expect(list(await window.get({ suffixLength: 100 }))).toEqual([4, 5, 6, 7, 8, 9]);
  });

  it("of zero length reads nothing, whatever is asked", async () => {
    const window = windowSource(memorySource(bytes(16)), 5, 0);
    expect(list(await window.get())).toEqual([]);
    expect(list(await window.get({ suffixLength: 3 }))).toEqual([]);
    expect(list(await window.get({ offset: 0, length: 3 }))).toEqual([]);
  });

  it("reaching past the end of its source gives what the source has (as the source clamps)", async () => {
    const window = windowSource(memorySource(bytes(8)), 6, 4); // bytes 6..10 of an 8-byte value
    expect(list(await window.get())).toEqual([6, 7]);
    expect(list(await window.get({ offset: 1, length: 1 }))).toEqual([7]);
    // Suffix ranges count from the window's declared end (byte 10), not the source's.
    expect(list(await window.get({ suffixLength: 3 }))).toEqual([7]);
    expect(list(await windowSource(memorySource(bytes(8)), 12, 4).get())).toEqual([]);
  });

  it("of a missing value is missing", async () => {
    expect(await windowSource(memorySource(undefined), 2, 4).get({ suffixLength: 1 })).toBeUndefined();
  });

  it("reads what a memory source over the window's bytes reads, for any window inside its source and any range", async () => {
    // (A window reaching past its source's end keeps its declared length: suffix ranges
    // count from that end, so it is not a memory source over the shorter bytes; see above.)
    await fc.assert(
      fc.asyncProperty(fc.nat(32), fc.nat(40), fc.nat(40), anyRange, async (n, a, b, range) => {
        const bytesOf = bytes(n);
        const offset = Math.min(a, n);
        const length = Math.min(b, n - offset);
        const expected = await memorySource(bytesOf.subarray(offset, offset + length)).get(range);
        expect(list(await windowSource(memorySource(bytesOf), offset, length).get(range))).toEqual(list(expected));
      }),
    );
  });

  it("passes versioned reads through, relative to the window, and signals to the source", async () => {
    const { state, source } = versionedSource(bytes(16));
    const window = windowSource(source, 8, 4);
    const signal = new AbortController().signal;
    const read = await window.getVersioned?.({ suffixLength: 2 }, "v1", signal);
    expect(list(read?.bytes)).toEqual([10, 11]);
    expect(read?.version).toBe("v1");
    expect(state.signals.at(-1)).toBe(signal);
    state.version = "v2";
    await expect(window.getVersioned?.(undefined, "v1")).rejects.toMatchObject({ code: "STORE_CHANGED" });
  });

  it("has no versioned reads when its source has none", () => {
    expect(windowSource(memorySource(bytes(4)), 0, 2).getVersioned).toBeUndefined();
  });
});

describe("pinnedSource", () => {
  it("reads only the version it is pinned to: a rewrite makes every read STORE_CHANGED", async () => {
    const { state, source } = versionedSource(bytes(8));
    const pinned = pinnedSource(source, "v1");
    expect(pinned.rangesAreCheap).toBe(true);
    expect(list(await pinned.get({ offset: 2, length: 2 }))).toEqual([2, 3]);
    expect((await pinned.getVersioned?.({ suffixLength: 1 }, undefined))?.version).toBe("v1");
    state.version = "v2";
    await expect(pinned.get()).rejects.toMatchObject({ code: "STORE_CHANGED" });
    await expect(pinned.getVersioned?.(undefined, undefined)).rejects.toMatchObject({ code: "STORE_CHANGED" });
  });

  it("lets a versioned read name another version explicitly", async () => {
    const { state, source } = versionedSource(bytes(4));
    const pinned = pinnedSource(source, "v1");
    state.version = "v2";
    expect((await pinned.getVersioned?.(undefined, "v2"))?.version).toBe("v2");
  });

  it("passes the caller's signal on", async () => {
    const { state, source } = versionedSource(bytes(4));
    const signal = new AbortController().signal;
    await pinnedSource(source, "v1").get(undefined, signal);
    expect(state.signals.at(-1)).toBe(signal);
  });

  it("refuses a source without versioned reads with INVALID_ARGUMENT", () => {
    expect(() => pinnedSource(memorySource(bytes(4)), "v1")).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
  });
});
