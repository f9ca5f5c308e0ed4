/** Corrupt, hostile and unsupported archives fail with ZarrErrors quickly: no hangs, no huge allocations. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ZarrError } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import { crc32, ZipStore } from "../src/index.js";
import { BytesStore, collect, expectBytes, pattern, rejectsWith, rng, utf8, zipBytes } from "./helpers.js";

const VALUES: Record<string, Uint8Array> = {
  "zarr.json": utf8('{"zarr_format":3,"node_type":"group"}'),
  "a/zarr.json": utf8('{"zarr_format":3,"node_type":"array"}'),
  "a/c/0": pattern(300, 1),
  "a/c/1": pattern(40, 2),
};
const FAILURE_CODES = ["CODEC_FAILED", "STORE_FAILED", "CHECKSUM_MISMATCH", "UNSUPPORTED"];

function storeOf(bytes: Uint8Array): ZipStore {
  return new ZipStore(new BytesStore({ "bad.zip": bytes }), "bad.zip", { autoPrefix: false });
}

/** Offsets of the records of an archive we wrote (no comment, no ZIP64). */
function layout(archive: Uint8Array): { eocd: number; cdOffset: number; cdSize: number } {
  const eocd = archive.length - 22;
  const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
  return { eocd, cdSize: view.getUint32(eocd + 12, true), cdOffset: view.getUint32(eocd + 16, true) };
}

/**
 * Runs every operation on a (possibly damaged) archive: each one must either succeed
 * (whole values must then be the original bytes; names may have changed) or reject with
 * a ZarrError of an expected code. Anything else (TypeError, RangeError, hang) fails.
 */
async function exercise(bytes: Uint8Array): Promise<number> {
  let failures = 0;
  const guard = async <T>(op: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await op();
    } catch (error) {
      if (!(error instanceof ZarrError) || !FAILURE_CODES.includes(error.code)) throw error;
      failures++;
      return undefined;
    }
  };
  const store = storeOf(bytes);
  const keys = (await guard(() => collect(store.list()))) ?? [];
  for (const key of keys) {
    const value = await guard(() => store.get(key));
    if (value !== undefined && key in VALUES) expectBytes(value, VALUES[key], key);
    await guard(() => store.getRange(key, { offset: 5, length: 20 }));
    await guard(() => store.getRange(key, { suffixLength: 10 }));
    await guard(() => store.listDir(""));
  }
  return failures;
}

describe("corrupt archives", () => {
  it("truncated at every point: the open fails with CODEC_FAILED naming the archive", async () => {
    const archive = await zipBytes(VALUES);
    const started = Date.now();
    for (let n = 0; n < archive.length; n++) {
      const error = await rejectsWith(storeOf(archive.subarray(0, n)).open(), "CODEC_FAILED");
      expect(error.message).toContain('"bad.zip"');
    }
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("truncated fixture (read with ranges) fails at open or on read, never returns wrong bytes", async () => {
    const fixture = new Uint8Array(readFileSync(join(fixturesDir(), "zarr-python/v3/data.uncompressed.zarr.zip")));
    for (const cut of [1, 21, 22, 23, 100, 5000, 40_000, 70_000, fixture.length - 70_000]) {
      await rejectsWith(storeOf(fixture.subarray(0, fixture.length - cut)).open(), "CODEC_FAILED");
    }
    // A hole in the middle (the tail intact): the directory opens, reads of damaged entries fail.
    const holed = fixture.slice();
    holed.fill(0, 1000, 30_000);
    const store = storeOf(holed);
    let failed = 0;
    for (const key of await collect(store.list())) {
      try {
        await store.get(key);
      } catch (error) {
        expect(error).toBeInstanceOf(ZarrError);
        expect(["CODEC_FAILED", "CHECKSUM_MISMATCH"]).toContain((error as ZarrError).code);
        expect((error as ZarrError).message).toContain(`"${key}"`);
        failed++;
      }
    }
    expect(failed).toBeGreaterThan(10);
  });

  it("every single flipped byte anywhere: ZarrErrors or the right bytes", async () => {
    const archive = await zipBytes(VALUES);
    const started = Date.now();
    let failures = 0;
    for (let i = 0; i < archive.length; i++) {
      const damaged = archive.slice();
      damaged[i] ^= 0xff;
      failures += await exercise(damaged);
    }
    expect(failures).toBeGreaterThan(archive.length / 4);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("random multi-byte damage to the central directory: ZarrErrors or the right bytes", async () => {
    const archive = await zipBytes(VALUES, { compression: "deflate" });
    const { cdOffset } = layout(archive);
    const random = rng(42);
    for (let round = 0; round < 300; round++) {
      const damaged = archive.slice();
      for (let k = 0; k < 3; k++) {
        const at = cdOffset + Math.floor(random() * (archive.length - cdOffset));
        damaged[at] = Math.floor(random() * 256);
      }
      await exercise(damaged);
    }
  });

  it("a CRC mismatch: CHECKSUM_MISMATCH naming the key and the archive", async () => {
    for (const compression of ["stored", "deflate"] as const) {
      const archive = await zipBytes(VALUES, { compression });
      const damaged = archive.slice();
      // Change the stored CRC of "a/c/0" in the central directory.
      const { cdOffset } = layout(archive);
      const name = utf8("a/c/0");
      let at = cdOffset;
      while (Buffer.compare(damaged.subarray(at + 46, at + 46 + name.length), name) !== 0) {
        at += 46 + damaged[at + 28] + (damaged[at + 29] << 8) + damaged[at + 30] + (damaged[at + 31] << 8);
      }
      damaged[at + 16] ^= 1;
      const store = storeOf(damaged);
      const error = await rejectsWith(store.get("a/c/0"), "CHECKSUM_MISMATCH");
      expect(error.message).toContain('"a/c/0"');
      expect(error.message).toContain('"bad.zip"');
      expect(error.key).toBe("a/c/0");
      // Other entries are fine.
      expectBytes(await store.get("a/c/1"), VALUES["a/c/1"]);
    }
  });

  it("not a zip, empty, or missing", async () => {
    await rejectsWith(storeOf(new Uint8Array(0)).open(), "CODEC_FAILED");
    await rejectsWith(storeOf(pattern(100_000, 3)).open(), "CODEC_FAILED");
    const missing = new ZipStore(new BytesStore({}), "nothing.zip");
    const error = await rejectsWith(missing.get("zarr.json"), "STORE_FAILED");
    expect(error.message).toContain('"nothing.zip"');
  });

  /** A minimal archive: EOCD only (empty), with fields to tamper with. */
  function eocd(fields: { count?: number; cdSize?: number; cdOffset?: number; disk?: number }): Uint8Array {
    const b = new Uint8Array(22);
    const v = new DataView(b.buffer);
    v.setUint32(0, 0x06054b50, true);
    v.setUint16(4, fields.disk ?? 0, true);
    v.setUint16(8, fields.count ?? 0, true);
    v.setUint16(10, fields.count ?? 0, true);
    v.setUint32(12, fields.cdSize ?? 0, true);
    v.setUint32(16, fields.cdOffset ?? 0, true);
    return b;
  }

  it("absurd counts, sizes and offsets are rejected before anything is allocated", async () => {
    const empty = storeOf(eocd({}));
    expect(await collect(empty.list())).toEqual([]);
    await rejectsWith(storeOf(eocd({ count: 60_000 })).open(), "CODEC_FAILED");
    await rejectsWith(storeOf(eocd({ count: 60_000, cdSize: 0xfffffff0 })).open(), "CODEC_FAILED");
    await rejectsWith(storeOf(eocd({ cdOffset: 0xfffffff0, cdSize: 100 })).open(), "CODEC_FAILED");
    const multi = await rejectsWith(storeOf(eocd({ disk: 2 })).open(), "UNSUPPORTED");
    expect(multi.message).toContain("multi-disk");
  });

  /** Patches the central header of `name` in an archive we wrote. */
  function patchCentral(archive: Uint8Array, name: string, patch: (view: DataView, at: number) => void): Uint8Array {
    const damaged = archive.slice();
    const view = new DataView(damaged.buffer);
    const { cdOffset } = layout(archive);
    const raw = utf8(name);
    let at = cdOffset;
    while (Buffer.compare(damaged.subarray(at + 46, at + 46 + raw.length), raw) !== 0) {
      at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    }
    patch(view, at);
    return damaged;
  }

  it("entry sizes past the end, and inflated sizes no deflate stream can reach", async () => {
    const archive = await zipBytes(VALUES, { compression: "deflate" });
    const pastEnd = patchCentral(archive, "a/c/0", (v, at) => v.setUint32(at + 20, 1_000_000, true));
    const e1 = await rejectsWith(storeOf(pastEnd).open(), "CODEC_FAILED");
    expect(e1.message).toContain("a/c/0");
    // A claimed uncompressed size of 4 GB for a few dozen compressed bytes.
    const huge = patchCentral(archive, "a/c/0", (v, at) => v.setUint32(at + 24, 0xfffffff0, true));
    const started = Date.now();
    const e2 = await rejectsWith(storeOf(huge).get("a/c/0"), "CODEC_FAILED");
    expect(e2.message).toContain("cannot inflate");
    await rejectsWith(storeOf(huge).getRange("a/c/0", { offset: 0, length: 4 }), "CODEC_FAILED");
    expect(Date.now() - started).toBeLessThan(1000);
    // A wrong (smaller) uncompressed size: the inflated length or CRC disagrees.
    const small = patchCentral(archive, "a/c/0", (v, at) => v.setUint32(at + 24, 100, true));
    await rejectsWith(storeOf(small).get("a/c/0"), "CODEC_FAILED", "CHECKSUM_MISMATCH");
  });

  it("a stored entry whose sizes disagree: ranges refuse to read past it into the next entry", async () => {
    const archive = await zipBytes(VALUES);
    const bad = storeOf(patchCentral(archive, "a/c/1", (v, at) => v.setUint32(at + 24, 200, true)));
    const error = await rejectsWith(bad.getRange("a/c/1", { offset: 0, length: 200 }), "CODEC_FAILED");
    expect(error.message).toContain('"a/c/1"');
    await rejectsWith(bad.get("a/c/1"), "CODEC_FAILED");
    await rejectsWith(bad.readInto("a/c/1", [{ offset: 0, target: new Uint8Array(200) }]), "CODEC_FAILED");
  });

  it("unsupported methods and encryption: UNSUPPORTED naming the method", async () => {
    const archive = await zipBytes(VALUES);
    const bzip2 = storeOf(patchCentral(archive, "a/c/0", (v, at) => v.setUint16(at + 10, 12, true)));
    const e1 = await rejectsWith(bzip2.get("a/c/0"), "UNSUPPORTED");
    expect(e1.message).toContain("method 12 (bzip2)");
    await rejectsWith(bzip2.getRange("a/c/0", { offset: 0, length: 1 }), "UNSUPPORTED");
    expect(await bzip2.getSize("a/c/0")).toBe(300); // still listed
    const zstd = storeOf(patchCentral(archive, "a/c/0", (v, at) => v.setUint16(at + 10, 93, true)));
    expect((await rejectsWith(zstd.get("a/c/0"), "UNSUPPORTED")).message).toContain("zstd");
    const encrypted = storeOf(patchCentral(archive, "a/c/0", (v, at) => v.setUint16(at + 8, 1, true)));
    expect((await rejectsWith(encrypted.get("a/c/0"), "UNSUPPORTED")).message).toContain("encrypted");
  });

  it("a comment containing the end-of-directory signature does not confuse the reader", async () => {
    const archive = await zipBytes(VALUES, { comment: "junk PK\x05\x06 junk" });
    const store = storeOf(archive);
    expect((await store.open()).comment).toBe("junk PK\x05\x06 junk");
    expectBytes(await store.get("a/c/0"), VALUES["a/c/0"]);
  });

  it("CRC-32 matches the standard check value and a bit-by-bit reference", async () => {
    /** The textbook bitwise CRC-32 (no tables), independent of the slicing-by-8 code. */
    const reference = (data: Uint8Array): number => {
      let c = 0xffffffff;
      for (const byte of data) {
        c ^= byte;
        for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
      }
      return (c ^ 0xffffffff) >>> 0;
    };
    expect(crc32(utf8("123456789"))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
    const random = rng(5);
    for (const n of [1, 7, 8, 9, 63, 64, 1000, 4097]) {
      const data = Uint8Array.from({ length: n }, () => Math.floor(random() * 256));
      expect(crc32(data)).toBe(reference(data));
      // Incremental: the CRC of a part, continued over the rest, equals the whole's.
      expect(crc32(data.subarray(3), crc32(data.subarray(0, 3)))).toBe(crc32(data));
    }
  });
});
