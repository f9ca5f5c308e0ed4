import { MetadataError, ZarrError } from "@zarr/spec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backendName, gzip, zlib } from "../src/index.js";
import {
  backends,
  browserBackend,
  compressibleBytes,
  ctx,
  gzipCodec,
  makeCodec,
  nodeBackend,
  randomBytes,
  sameBytes,
  zlibCodec,
} from "./helpers.js";

const LEVELS = [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

describe("entries", () => {
  it("register gzip and zlib with their numcodecs aliases", () => {
    expect(gzip).toMatchObject({ type: "codec", name: "gzip", codecKind: "bytes_to_bytes", package: "@zarr/codec-gzip" });
    expect(gzip.aliases).toEqual(["numcodecs.gzip"]);
    expect(zlib).toMatchObject({ type: "codec", name: "zlib", codecKind: "bytes_to_bytes" });
    expect(zlib.aliases).toEqual(["numcodecs.zlib"]);
  });

  it("use node:zlib when imported in Node", () => {
    expect(backendName).toBe("node:zlib");
  });

  it("write their configuration back", async () => {
    expect((await makeCodec(gzip, { level: 7 })).toJSON()).toEqual({ name: "gzip", configuration: { level: 7 } });
    expect((await makeCodec(zlib, { level: 3 })).toJSON()).toEqual({ name: "numcodecs.zlib", configuration: { level: 3 } });
  });

  it("default a missing level (gzip 5 like zarr-python, zlib 1 like numcodecs)", async () => {
    expect((await makeCodec(gzip, {})).toJSON().configuration).toEqual({ level: 5 });
    expect((await makeCodec(zlib, {})).toJSON().configuration).toEqual({ level: 1 });
  });

  it("accept every level from -1 to 9 and a numcodecs id", async () => {
    for (const level of LEVELS) {
      expect((await makeCodec(gzip, { level })).toJSON().configuration.level).toBe(level);
    }
    expect((await makeCodec(zlib, { id: "zlib", level: 2 })).toJSON()).toEqual({
      name: "numcodecs.zlib",
      configuration: { level: 2 },
    });
  });

  it.each([10, -2, 1.5, "5", null, true, [5]])("reject level %j with a MetadataError naming the path", async (level) => {
    const error = await makeCodec(gzip, { level: level as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MetadataError);
    expect((error as MetadataError).code).toBe("METADATA_INVALID");
    expect((error as MetadataError).jsonPath).toBe("$.codecs[1].configuration.level");
  });

  it("reject unknown configuration keys and a foreign id", async () => {
    const unknown = await makeCodec(zlib, { level: 1, shuffle: true }).catch((e: unknown) => e);
    expect((unknown as MetadataError).jsonPath).toBe("$.codecs[1].configuration.shuffle");
    const foreign = await makeCodec(gzip, { id: "zlib", level: 1 }).catch((e: unknown) => e);
    expect((foreign as MetadataError).jsonPath).toBe("$.codecs[1].configuration.id");
  });

  it("have no fixed encoded size", async () => {
    expect((await makeCodec(gzip, { level: 1 })).computeEncodedSize?.(100)).toBeUndefined();
    expect((await makeCodec(zlib, { level: 1 })).computeEncodedSize?.(100)).toBeUndefined();
  });
});

describe.each(backends.map((b) => [b.name, b] as const))("round trips with %s", (_name, backend) => {
  it.each(["gzip", "zlib"] as const)("%s: random and compressible bytes at every level", async (format) => {
    for (const level of LEVELS) {
      const codec = format === "gzip" ? await gzipCodec(backend, level) : await zlibCodec(backend, level);
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 3000, size: "max" }), fc.boolean(), async (random, smooth) => {
          const input = smooth ? compressibleBytes(random.length) : random;
          const encoded = await codec.encode(input, ctx);
          expect(sameBytes(await codec.decode(encoded, ctx), input)).toBe(true);
        }),
        { numRuns: 8 },
      );
    }
  });

  it.each(["gzip", "zlib"] as const)("%s: empty data and large chunks", async (format) => {
    const codec = format === "gzip" ? await gzipCodec(backend, 6) : await zlibCodec(backend, 6);
    for (const input of [new Uint8Array(0), compressibleBytes(1 << 20), randomBytes(100_000, 7), new Uint8Array(3 << 20)]) {
      const encoded = await codec.encode(input, ctx);
      const decoded = await codec.decode(encoded, ctx);
      expect(sameBytes(decoded, input)).toBe(true);
    }
  });

  it("level 0 stores, level 9 compresses", async () => {
    const input = compressibleBytes(100_000);
    const stored = await (await gzipCodec(backend, 0)).encode(input, ctx);
    const small = await (await gzipCodec(backend, 9)).encode(input, ctx);
    expect(stored.length).toBeGreaterThan(input.length);
    expect(small.length).toBeLessThan(input.length / 5);
  });

  it("decodes views into larger buffers", async () => {
    const codec = await gzipCodec(backend);
    const input = compressibleBytes(10_000);
    const encoded = await codec.encode(input.subarray(100, 9_000), ctx);
    const padded = new Uint8Array(encoded.length + 50);
    padded.set(encoded, 17);
    expect(sameBytes(await codec.decode(padded.subarray(17, 17 + encoded.length), ctx), input.subarray(100, 9_000))).toBe(true);
  });

  it("refuses to start when the signal is aborted", async () => {
    const codec = await gzipCodec(backend);
    const signal = AbortSignal.abort();
    await expect(codec.decode(new Uint8Array(30), { key: "k", signal })).rejects.toMatchObject({ code: "ABORTED" });
    await expect(codec.encode(new Uint8Array(30), { key: "k", signal })).rejects.toMatchObject({ code: "ABORTED" });
  });
});

describe("cross-check node:zlib and fflate", () => {
  it.each(["gzip", "zlib"] as const)("%s written by one is read by the other", async (format) => {
    const make = format === "gzip" ? gzipCodec : zlibCodec;
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 5000, size: "max" }), fc.integer({ min: -1, max: 9 }), fc.boolean(), async (random, level, smooth) => {
        const input = smooth ? compressibleBytes(random.length) : random;
        const viaNode = await make(nodeBackend, level);
        const viaFflate = await make(browserBackend, level);
        expect(sameBytes(await viaFflate.decode(await viaNode.encode(input, ctx), ctx), input)).toBe(true);
        expect(sameBytes(await viaNode.decode(await viaFflate.encode(input, ctx), ctx), input)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it("both write a gzip header with mtime 0", async () => {
    for (const backend of backends) {
      const encoded = await (await gzipCodec(backend)).encode(randomBytes(100), ctx);
      expect([...encoded.subarray(0, 3)]).toEqual([0x1f, 0x8b, 8]);
      expect([...encoded.subarray(4, 8)]).toEqual([0, 0, 0, 0]);
    }
  });
});

describe("node:zlib results", () => {
  it("are plain Uint8Arrays starting at offset 0 without a much larger backing buffer", async () => {
    const gz = await gzipCodec(nodeBackend);
    const zl = await zlibCodec(nodeBackend);
    for (const input of [new Uint8Array(0), randomBytes(10), compressibleBytes(5000), compressibleBytes(1 << 20), randomBytes(200_000)]) {
      for (const codec of [gz, zl]) {
        const encoded = await codec.encode(input, ctx);
        const decoded = await codec.decode(encoded, ctx);
        for (const bytes of [encoded, decoded]) {
          expect(Buffer.isBuffer(bytes)).toBe(false);
          expect(bytes.byteOffset).toBe(0);
          expect(bytes.buffer.byteLength - bytes.length).toBeLessThanOrEqual(Math.max(64, bytes.length / 16));
        }
        expect(sameBytes(decoded, input)).toBe(true);
      }
    }
  });

  it("decode many chunks concurrently", async () => {
    const codec = await gzipCodec(nodeBackend, 3);
    const inputs = Array.from({ length: 48 }, (_, i) => (i % 2 ? randomBytes(40_000 + i, i + 1) : compressibleBytes(60_000 + i)));
    const encoded = await Promise.all(inputs.map((b) => codec.encode(b, ctx)));
    const decoded = await Promise.all(encoded.map((b, i) => codec.decode(b, { key: `c/${i}` })));
    expect(decoded.every((d, i) => sameBytes(d, inputs[i]))).toBe(true);
  });
});

describe.each(backends.map((b) => [b.name, b] as const))("errors with %s", (_name, backend) => {
  it.each(["gzip", "zlib"] as const)("%s: empty and non-compressed input fail with CODEC_FAILED naming the key", async (format) => {
    const codec = format === "gzip" ? await gzipCodec(backend) : await zlibCodec(backend);
    for (const bad of [new Uint8Array(0), new Uint8Array([1, 2, 3]), randomBytes(1000, 3), new TextEncoder().encode("plain text, not compressed")]) {
      const error = await Promise.resolve(codec.decode(bad, ctx)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ZarrError);
      expect((error as ZarrError).code).toBe("CODEC_FAILED");
      expect((error as ZarrError).key).toBe(ctx.key);
      expect((error as ZarrError).message).toContain(`"${ctx.key}"`);
    }
  });
});
