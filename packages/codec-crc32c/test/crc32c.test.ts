import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { type BytesToBytesCodec, type CodecBuildContext, type JsonObject, MetadataError, ZarrError } from "@zarr/spec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import { crc32c, crc32cCodec } from "../src/index.js";

const V3_DATA = join(fixturesDir(), "zarr-python/v3/data.zarr");
const context = { path: ["codecs", 2] } as unknown as CodecBuildContext;
const ctx = { key: "arr/c/1/2" };
const text = (s: string) => new TextEncoder().encode(s);

async function codec(configuration: JsonObject = {}): Promise<BytesToBytesCodec> {
  return (await crc32cCodec.fromConfig(configuration, context)) as BytesToBytesCodec;
}

function caught(f: () => unknown): ZarrError {
  try {
    f();
  } catch (error) {
    return error as ZarrError;
  }
  throw new Error("expected an error");
}

/** The obviously correct definition: one bit at a time, reflected polynomial 0x82F63B78. */
function bitwiseCrc32c(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

describe("crc32c()", () => {
  it("gives the published check values", () => {
    const ascending = Uint8Array.from({ length: 32 }, (_, i) => i);
    // RFC 3720 (iSCSI) B.4 test vectors, and the CRC catalogue's check value.
    expect(crc32c(text("123456789"))).toBe(0xe3069283);
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa);
    expect(crc32c(new Uint8Array(32).fill(0xff))).toBe(0x62a8ab43);
    expect(crc32c(ascending)).toBe(0x46dd794e);
    expect(crc32c(ascending.slice().reverse())).toBe(0x113fdb5c);
    const iscsiReadPdu = Uint8Array.from([
      0x01, 0xc0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x14, 0, 0, 0, 0, 0, 0x04, 0, 0, 0, 0, 0x14, 0, 0, 0, 0x18,
      0x28, 0, 0, 0, 0, 0, 0, 0, 0x02, 0, 0, 0, 0, 0, 0, 0,
    ]);
    expect(crc32c(iscsiReadPdu)).toBe(0xd9963a56);
    expect(crc32c(new Uint8Array(0))).toBe(0);
  });

  it("matches the bitwise definition on random data, lengths and alignments", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000, size: "max" }), fc.nat(7), (bytes, skip) => {
        const view = bytes.subarray(Math.min(skip, bytes.length));
        expect(crc32c(view)).toBe(bitwiseCrc32c(view));
      }),
      { numRuns: 300 },
    );
  });

  it("continues from a previous CRC", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 500, size: "max" }), fc.nat(), (bytes, at) => {
        const cut = bytes.length === 0 ? 0 : at % (bytes.length + 1);
        expect(crc32c(bytes.subarray(cut), crc32c(bytes.subarray(0, cut)))).toBe(crc32c(bytes));
      }),
    );
  });

  it("handles large inputs", () => {
    const big = new Uint8Array(1 << 20).map((_, i) => (i * 2654435761) >>> 24);
    expect(crc32c(big.subarray(3))).toBe(bitwiseCrc32c(big.subarray(3)));
  });
});

/** Every shard written by zarr-python 3 ends with an index protected by crc32c. */
function* shardsWithIndexes(): Generator<{ file: string; indexLength: number }> {
  for (const array of readdirSync(V3_DATA)) {
    let meta: { chunk_grid: { configuration: { chunk_shape: number[] } }; codecs: { name: string; configuration: JsonObject }[] };
    try {
      meta = JSON.parse(readFileSync(join(V3_DATA, array, "zarr.json"), "utf8"));
    } catch {
      continue;
    }
    const sharding = meta.codecs?.find((c) => c.name === "sharding_indexed");
    if (!sharding) continue;
    const inner = sharding.configuration.chunk_shape as number[];
    const count = meta.chunk_grid.configuration.chunk_shape.reduce((p, s, d) => p * Math.ceil(s / inner[d]), 1);
    const stack = [join(V3_DATA, array, "c")];
    while (stack.length > 0) {
      const path = stack.pop()!;
      if (statSync(path).isDirectory()) stack.push(...readdirSync(path).map((p) => join(path, p)));
      else yield { file: path, indexLength: 16 * count };
    }
  }
}

describe("shard indexes written by zarr-python 3", () => {
  const shards = [...shardsWithIndexes()];

  it("are found", () => {
    expect(shards.length).toBeGreaterThanOrEqual(15);
  });

  it("end with the crc32c of the index", async () => {
    const c = await codec();
    for (const { file, indexLength } of shards) {
      const shard = new Uint8Array(readFileSync(file));
      const withChecksum = shard.subarray(shard.length - indexLength - 4);
      const stored = new DataView(shard.buffer, shard.byteOffset + shard.length - 4, 4).getUint32(0, true);
      expect(crc32c(withChecksum.subarray(0, indexLength)), file).toBe(stored);
      const index = c.decode(withChecksum, { key: file }) as Uint8Array;
      expect(index.length).toBe(indexLength);
    }
  });
});

describe("the crc32c codec", () => {
  it("is registered as crc32c and numcodecs.crc32c", () => {
    expect(crc32cCodec).toMatchObject({ type: "codec", name: "crc32c", codecKind: "bytes_to_bytes", package: "@zarr/codec-crc32c" });
    expect(crc32cCodec.aliases).toEqual(["numcodecs.crc32c"]);
  });

  it("appends the checksum little-endian and adds 4 bytes", async () => {
    const c = await codec();
    const encoded = c.encode(text("123456789"), ctx) as Uint8Array;
    expect([...encoded]).toEqual([...text("123456789"), 0x83, 0x92, 0x06, 0xe3]);
    expect(c.computeEncodedSize?.(9)).toBe(13);
    expect(c.computeEncodedSize?.(0)).toBe(4);
    expect(c.toJSON()).toEqual({ name: "crc32c", configuration: {} });
  });

  it("round trips and decodes to a view of its input", async () => {
    const c = await codec();
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000, size: "max" }), (bytes) => {
        const encoded = c.encode(bytes, ctx) as Uint8Array;
        expect(encoded.length).toBe(c.computeEncodedSize?.(bytes.length));
        const decoded = c.decode(encoded, ctx) as Uint8Array;
        expect(Buffer.compare(decoded, bytes)).toBe(0);
        expect(decoded.buffer).toBe(encoded.buffer);
        expect(decoded.byteOffset).toBe(encoded.byteOffset);
      }),
    );
  });

  it("detects every flipped bit", async () => {
    const c = await codec();
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300, size: "max" }), fc.nat(), fc.nat(7), (bytes, at, bit) => {
        const encoded = (c.encode(bytes, ctx) as Uint8Array).slice();
        encoded[at % encoded.length] ^= 1 << bit;
        const error = caught(() => c.decode(encoded, ctx));
        expect(error).toBeInstanceOf(ZarrError);
        expect(error.code).toBe("CHECKSUM_MISMATCH");
        expect(error.key).toBe(ctx.key);
        const stored = new DataView(encoded.buffer, encoded.length - 4).getUint32(0, true);
        const computed = crc32c(encoded.subarray(0, encoded.length - 4));
        expect(error.message).toContain(`"${ctx.key}"`);
        expect(error.message).toContain(`0x${stored.toString(16).padStart(8, "0")}`);
        expect(error.message).toContain(`0x${computed.toString(16).padStart(8, "0")}`);
      }),
    );
  });

  it("refuses input shorter than a checksum with CODEC_FAILED", async () => {
    const c = await codec();
    for (const n of [0, 1, 3]) {
      const error = caught(() => c.decode(new Uint8Array(n), ctx));
      expect(error.code).toBe("CODEC_FAILED");
      expect(error.message).toContain(ctx.key);
    }
    // Exactly 4 bytes: the checksum of nothing.
    expect((c.decode(new Uint8Array(4), ctx) as Uint8Array).length).toBe(0);
  });

  it("puts the checksum first for numcodecs' location: start", async () => {
    const c = await codec({ location: "start" });
    const encoded = c.encode(text("123456789"), ctx) as Uint8Array;
    expect([...encoded]).toEqual([0x83, 0x92, 0x06, 0xe3, ...text("123456789")]);
    expect([...(c.decode(encoded, ctx) as Uint8Array)]).toEqual([...text("123456789")]);
    expect(c.toJSON()).toEqual({ name: "numcodecs.crc32c", configuration: { location: "start" } });
    expect((await codec({ location: "end", id: "crc32c" })).toJSON()).toEqual({ name: "crc32c", configuration: {} });
    const flipped = encoded.slice();
    flipped[6] ^= 4;
    expect(caught(() => c.decode(flipped, ctx)).code).toBe("CHECKSUM_MISMATCH");
  });

  it("refuses unknown configuration with a MetadataError naming the path", async () => {
    for (const [configuration, path] of [
      [{ level: 1 }, "$.codecs[2].configuration.level"],
      [{ id: "crc32" }, "$.codecs[2].configuration.id"],
      [{ location: "middle" }, "$.codecs[2].configuration.location"],
      [{ location: null }, "$.codecs[2].configuration.location"],
    ] as const) {
      const error = await codec(configuration as JsonObject).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MetadataError);
      expect((error as MetadataError).jsonPath).toBe(path);
    }
  });
});
