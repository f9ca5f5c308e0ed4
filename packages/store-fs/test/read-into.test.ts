import { describe, expect, it } from "vitest";
import { FileSystemStore } from "../src/index.js";
import { freshRoot, pattern, rejectsWith } from "./helpers.js";

describe.each([false, true])("readInto (scatter reads), blockingReads: %s", (blockingReads) => {
  it("copies each range of the file into its target, in any grouping", async () => {
    const { root } = freshRoot();
    const store = new FileSystemStore(root, { blockingReads });
    const value = pattern(10_000, 3);
    await store.set("a/c/0", value);
    const out = new Uint8Array(20_000);
    const ranges = [
      { offset: 0, target: out.subarray(0, 100) },
      { offset: 100, target: out.subarray(5000, 5900) }, // consecutive in the file: one readv
      { offset: 4000, target: out.subarray(100, 1100) }, // a gap: a new positioned readv
      { offset: 9000, target: out.subarray(19_000, 20_000) },
    ];
    expect(await store.readInto("a/c/0", ranges)).toBe(10_000);
    for (const r of ranges) expect(Array.from(r.target)).toEqual(Array.from(value.subarray(r.offset, r.offset + r.target.length)));
    expect(out[1500]).toBe(0); // untouched outside the targets
  });

  it("handles more ranges than one readv takes", async () => {
    const { root } = freshRoot();
    const store = new FileSystemStore(root, { blockingReads });
    const value = pattern(3000 * 8, 5);
    await store.set("k", value);
    const out = new Uint8Array(value.length);
    // reverse the 8-byte pieces so every target is elsewhere in `out`
    const ranges = Array.from({ length: 3000 }, (_, i) => ({ offset: i * 8, target: out.subarray((2999 - i) * 8, (3000 - i) * 8) }));
    expect(await store.readInto("k", ranges)).toBe(value.length);
    for (let i = 0; i < 3000; i++) expect(out[(2999 - i) * 8 + 3]).toBe(value[i * 8 + 3]);
  });

  it("reports a missing key and a value too short for the ranges without reading", async () => {
    const { root } = freshRoot();
    const store = new FileSystemStore(root, { blockingReads });
    expect(await store.readInto("nope", [{ offset: 0, target: new Uint8Array(4) }])).toBeUndefined();
    await store.set("short", pattern(10));
    const target = new Uint8Array(8);
    expect(await store.readInto("short", [{ offset: 4, target }])).toBe(10);
    expect(Array.from(target)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    await rejectsWith(store.readInto("../x", []), "KEY_INVALID");
    await rejectsWith(store.readInto("short", [{ offset: -1, target }]), "INVALID_ARGUMENT");
  });
});
