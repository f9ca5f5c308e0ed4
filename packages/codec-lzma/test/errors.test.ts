/** Corrupt, truncated and mismatching input must fail fast with a ZarrError naming the chunk. */
import fc from "fast-check";
import { ZarrError } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { FILTER_LZMA2, FORMAT_ALONE, FORMAT_RAW, lzma, lzmaCompress, lzmaDecompress } from "../src/index.js";
import type { BytesToBytesCodec, CodecBuildContext } from "@zarr/spec";
import { float32Field, textBytes } from "./data.js";
import { okBytes, runPython } from "./python.js";

const KEY = "data/c/1/2";

function buildContext(): CodecBuildContext {
  return {
    spec: { shape: [10], dataType: {} as CodecBuildContext["spec"]["dataType"], fillValue: 0 },
    path: ["codecs", 1],
    buildPipeline: () => Promise.reject(new Error("not used")),
    resolveDataType: () => Promise.reject(new Error("not used")),
  };
}

function codec(configuration: Record<string, unknown>): BytesToBytesCodec {
  return lzma.fromConfig(configuration as never, buildContext()) as BytesToBytesCodec;
}

/** Runs `fn` and returns the ZarrError it throws (failing the test for anything else). */
function zarrError(fn: () => unknown): ZarrError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ZarrError) return error;
    throw new Error(`expected a ZarrError, got ${String(error)}`);
  }
  throw new Error("expected an error, got none");
}

const input = new Uint8Array(12_000);
input.set(textBytes(8000));
input.set(float32Field(1000), 8000);

describe("corrupt and truncated input", () => {
  const xz = codec({ check: 4 });
  const xzNone = codec({ check: 0 });
  const alone = codec({ format: FORMAT_ALONE });
  const raw = codec({ format: FORMAT_RAW, filters: [{ id: FILTER_LZMA2, preset: 6 }] });
  const encoded = {
    xz: xz.encode(input, { key: KEY }) as Uint8Array,
    xzNone: xzNone.encode(input, { key: KEY }) as Uint8Array,
    alone: alone.encode(input, { key: KEY }) as Uint8Array,
    raw: raw.encode(input, { key: KEY }) as Uint8Array,
  };

  it("rejects every truncation with CODEC_FAILED naming the key", () => {
    for (const [name, c] of [
      ["xz", xz],
      ["alone", alone],
      ["raw", raw],
    ] as const) {
      const full = encoded[name];
      for (let len = 0; len < full.length; len += len < 64 ? 1 : 97) {
        const e = zarrError(() => c.decode(full.subarray(0, len), { key: KEY }));
        expect(e.code).toBe("CODEC_FAILED");
        expect(e.message).toContain(KEY);
        expect(e.key).toBe(KEY);
      }
    }
  });

  it("never hangs or throws a non-ZarrError on random corruption", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("xz", "xzNone", "alone", "raw" as const),
        fc.array(fc.record({ at: fc.nat(), xor: fc.integer({ min: 1, max: 255 }) }), { minLength: 1, maxLength: 4 }),
        (name, flips) => {
          const bad = encoded[name].slice();
          for (const f of flips) bad[f.at % bad.length] ^= f.xor;
          const c = { xz, xzNone, alone, raw }[name];
          let out: Uint8Array | undefined;
          try {
            out = c.decode(bad, { key: KEY }) as Uint8Array;
          } catch (error) {
            expect(error).toBeInstanceOf(ZarrError);
            expect(["CODEC_FAILED", "CHECKSUM_MISMATCH", "UNSUPPORTED"]).toContain((error as ZarrError).code);
            return;
          }
          // Only formats without a check can decode corruption silently; .xz with CRC64 never does.
          expect(name).not.toBe("xz");
          expect(out).toBeInstanceOf(Uint8Array);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("reports a wrong block check as CHECKSUM_MISMATCH for CRC32, CRC64 and SHA-256", () => {
    for (const check of [1, 4, 10]) {
      const c = codec({ check });
      const good = c.encode(input, { key: KEY }) as Uint8Array;
      // The check field sits just before the index (which is 12 bytes here) and the 12-byte footer.
      const size = check === 1 ? 4 : check === 4 ? 8 : 32;
      const bad = good.slice();
      bad[bad.length - 24 - size] ^= 1;
      const e = zarrError(() => c.decode(bad, { key: KEY }));
      expect(e.code).toBe("CHECKSUM_MISMATCH");
      expect(e.message).toContain(KEY);
    }
  });

  it("rejects header, index and footer damage and garbage after the stream", () => {
    const good = encoded.xz;
    const damage = (at: number) => {
      const bad = good.slice();
      bad[at] ^= 0x10;
      return bad;
    };
    for (const at of [0, 7, 9, 12, 13, good.length - 20, good.length - 8, good.length - 1]) {
      expect(zarrError(() => xz.decode(damage(at), { key: KEY })).code).toBe("CODEC_FAILED");
    }
    const tail = (extra: number[]) => Buffer.concat([good, Buffer.from(extra)]);
    expect(zarrError(() => xz.decode(tail([0, 0]), { key: KEY })).code).toBe("CODEC_FAILED");
    expect(zarrError(() => xz.decode(tail([1, 2, 3, 4]), { key: KEY })).code).toBe("CODEC_FAILED");
    expect(zarrError(() => xz.decode(new Uint8Array([1, 2, 3]), { key: KEY })).message).toContain(KEY);
    expect(xz.decode(tail([0, 0, 0, 0]), { key: KEY })).toEqual(input);
  });

  it("guards sizes declared in headers before allocating", () => {
    // A .lzma header declaring 2^40 bytes, and one declaring 1 GiB with a 6-byte body.
    const header = (size: bigint) => {
      const h = new Uint8Array(19);
      h[0] = 0x5d;
      h[2] = 0x80;
      new DataView(h.buffer).setBigUint64(5, size, true);
      return h;
    };
    expect(zarrError(() => alone.decode(header(1n << 40n), { key: KEY })).code).toBe("CODEC_FAILED");
    const buffersBefore = process.memoryUsage().arrayBuffers;
    expect(zarrError(() => alone.decode(header(1n << 30n), { key: KEY })).code).toBe("CODEC_FAILED");
    expect(process.memoryUsage().arrayBuffers - buffersBefore).toBeLessThan(64 * 1024 * 1024);
    // LZMA2 chunks that each claim 2 MiB from almost no data.
    const chunk = [0xe0, 0x1f, 0xff, 0x00, 0x05, 0x5d, 0, 0, 0, 0, 0, 0];
    const bogus = new Uint8Array(Array.from({ length: 50 }, () => chunk).flat().concat([0]));
    expect(zarrError(() => raw.decode(bogus, { key: KEY })).code).toBe("CODEC_FAILED");
  });

  it("fails on a BCJ filter it does not implement with UNSUPPORTED", () => {
    const [arm] = runPython([{ op: "compress", data: input, kwargs: { filters: [{ id: 7 }, { id: FILTER_LZMA2 }] } }]);
    const e = zarrError(() => xz.decode(okBytes(arm), { key: KEY }));
    expect(e.code).toBe("UNSUPPORTED");
    expect(e.message).toContain("ARM");
  });

  it("rejects .lzma data given to the .xz decoder", () => {
    expect(zarrError(() => xz.decode(encoded.alone, { key: KEY })).code).toBe("CODEC_FAILED");
    // The .lzma decoder is lenient the other way, like liblzma's auto mode.
    expect(alone.decode(encoded.xz, { key: KEY })).toEqual(input);
  });
});

describe("configuration errors", () => {
  it("reports invalid configurations as METADATA_INVALID with the JSON path", () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ format: 4 }, "$.codecs[1].configuration.format"],
      [{ check: 2 }, "$.codecs[1].configuration.check"],
      [{ preset: 10 }, "$.codecs[1].configuration.preset"],
      [{ preset: "6" }, "$.codecs[1].configuration.preset"],
      [{ level: 1 }, "$.codecs[1].configuration.level"],
      [{ format: 3 }, "$.codecs[1].configuration.filters"],
      [{ filters: [] }, "$.codecs[1].configuration.filters"],
      [{ filters: [{ id: 99 }] }, "$.codecs[1].configuration.filters[0].id"],
      [{ filters: [{ id: 33, lc: 4, lp: 1 }] }, "$.codecs[1].configuration.filters[0].lc"],
      [{ filters: [{ id: 33, dict_size: 100 }] }, "$.codecs[1].configuration.filters[0].dict_size"],
      [{ filters: [{ id: 3, dist: 0 }, { id: 33 }] }, "$.codecs[1].configuration.filters[0].dist"],
      [{ filters: [{ id: 33, bogus: 1 }] }, "$.codecs[1].configuration.filters[0].bogus"],
      [{ format: 3, filters: [{ id: 33 }, { id: 3 }] }, "$.codecs[1].configuration.filters[1]"],
    ];
    for (const [config, path] of bad) {
      const e = zarrError(() => codec(config));
      expect(e.code).toBe("METADATA_INVALID");
      expect(e.jsonPath).toBe(path);
    }
  });

  it("reports encode-only conflicts when encoding, as numcodecs/liblzma do", () => {
    const both = codec({ preset: 1, filters: [{ id: FILTER_LZMA2 }] });
    expect(zarrError(() => both.encode(input, { key: KEY })).code).toBe("METADATA_INVALID");
    const aloneCheck = codec({ format: FORMAT_ALONE, check: 4 });
    expect(zarrError(() => aloneCheck.encode(input, { key: KEY })).jsonPath).toBe("$.codecs[1].configuration.check");
    // Decoding with those configurations still works.
    const xzData = codec({}).encode(input, { key: KEY }) as Uint8Array;
    expect(both.decode(xzData, { key: KEY })).toEqual(input);
    const aloneData = codec({ format: FORMAT_ALONE }).encode(input, { key: KEY }) as Uint8Array;
    expect(aloneCheck.decode(aloneData, { key: KEY })).toEqual(input);
  });

  it("rejects bad options of the plain functions with INVALID_ARGUMENT", () => {
    expect(zarrError(() => lzmaCompress(input, { preset: 11 })).code).toBe("INVALID_ARGUMENT");
    expect(zarrError(() => lzmaDecompress(input, { format: FORMAT_RAW })).code).toBe("INVALID_ARGUMENT");
  });
});
