import * as nodeZlib from "node:zlib";
import { adler32, type ZarrError } from "@zarr/spec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crc32 } from "../src/crc32.js";
import {
  backends,
  browserBackend,
  compressibleBytes,
  concatBytes,
  ctx,
  fflateBackend,
  gzipCodec,
  nodeBackend,
  randomBytes,
  sameBytes,
  zlibCodec,
} from "./helpers.js";

const text = (s: string) => new TextEncoder().encode(s);
const member = (data: Uint8Array, level = 6) => new Uint8Array(nodeZlib.gzipSync(data, { level }));

async function decodeError(promise: Uint8Array | Promise<Uint8Array>): Promise<ZarrError> {
  try {
    await promise;
  } catch (error) {
    return error as ZarrError;
  }
  throw new Error("decode succeeded but should have failed");
}

/** A gzip member with the optional header fields set (FEXTRA, FNAME, FCOMMENT, FHCRC). */
function memberWithHeaderFields(data: Uint8Array): Uint8Array {
  const plain = member(data);
  const extra = [4, 0, 0x41, 0x42, 0x43, 0x44];
  const header = [...plain.subarray(0, 10), ...extra, ...text("name.bin"), 0, ...text("a comment"), 0];
  header[3] = 0x04 | 0x08 | 0x10 | 0x02;
  const hcrc = nodeZlib.crc32(new Uint8Array(header)) & 0xffff;
  return concatBytes(new Uint8Array([...header, hcrc & 0xff, hcrc >> 8]), plain.subarray(10));
}

describe("checksums", () => {
  it("crc32 matches node:zlib's crc32 and the check value", () => {
    expect(crc32(text("123456789"))).toBe(0xcbf43926);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000, size: "max" }), fc.nat(16), (bytes, skip) => {
        const view = bytes.subarray(Math.min(skip, bytes.length));
        expect(crc32(view)).toBe(nodeZlib.crc32(view));
      }),
    );
  });

  it("adler32 matches the trailer node:zlib writes", () => {
    expect(adler32(new Uint8Array(0))).toBe(1);
    expect(adler32(text("Wikipedia"))).toBe(0x11e60398);
    for (const bytes of [randomBytes(100_000, 5), new Uint8Array(70_000).fill(255), compressibleBytes(12_345)]) {
      const z = nodeZlib.deflateSync(bytes);
      expect(adler32(bytes)).toBe(z.readUInt32BE(z.length - 4));
    }
  });
});

describe.each(backends.map((b) => [b.name, b] as const))("gzip framing with %s", (_name, backend) => {
  it("reads concatenated members", async () => {
    const codec = await gzipCodec(backend);
    const a = compressibleBytes(70_000);
    const b = randomBytes(1000, 9);
    const fromFflate = await browserBackend.compressGzip(text("third"), 9);
    const joined = concatBytes(member(a), member(new Uint8Array(0)), member(b, 1), fromFflate);
    expect(sameBytes(await codec.decode(joined, ctx), concatBytes(a, b, text("third")))).toBe(true);
    // Two identical members must give the data twice, not once.
    expect(sameBytes(await codec.decode(concatBytes(member(a), member(a)), ctx), concatBytes(a, a))).toBe(true);
  });

  it("reads a member whose data contains the gzip magic bytes", async () => {
    const codec = await gzipCodec(backend);
    const data = concatBytes(randomBytes(100, 4), new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0]), randomBytes(100, 5));
    for (const level of [0, 9]) {
      expect(sameBytes(await codec.decode(member(data, level), ctx), data)).toBe(true);
    }
    expect(sameBytes(await codec.decode(member(concatBytes(data, data), 0), ctx), concatBytes(data, data))).toBe(true);
  });

  it("reads members with extra field, file name, comment and header CRC", async () => {
    const codec = await gzipCodec(backend);
    const data = compressibleBytes(3000);
    const fancy = memberWithHeaderFields(data);
    expect(sameBytes(nodeZlib.gunzipSync(fancy), data)).toBe(true);
    expect(sameBytes(await codec.decode(fancy, ctx), data)).toBe(true);
    expect(sameBytes(await codec.decode(concatBytes(fancy, fancy), ctx), concatBytes(data, data))).toBe(true);
  });

  it("reads any sequence of members followed by any zero padding", async () => {
    const codec = await gzipCodec(backend);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.uint8Array({ maxLength: 600, size: "max" }), fc.integer({ min: 0, max: 9 }), fc.boolean()), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.nat(20),
        async (members, pad) => {
          const datas = members.map(([bytes, , smooth]) => (smooth ? compressibleBytes(bytes.length) : bytes));
          const input = concatBytes(...members.map(([, level], i) => member(datas[i], level)), new Uint8Array(pad));
          expect(sameBytes(await codec.decode(input, ctx), concatBytes(...datas))).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("accepts zero padding after the last member", async () => {
    const codec = await gzipCodec(backend);
    for (const data of [text("x"), new Uint8Array(0), compressibleBytes(256), randomBytes(70_000, 3)]) {
      for (const pad of [1, 3, 4, 9, 512]) {
        const padded = concatBytes(member(data), new Uint8Array(pad));
        expect(sameBytes(await codec.decode(padded, ctx), data)).toBe(true);
        const twoPadded = concatBytes(member(text("head")), member(data), new Uint8Array(pad));
        expect(sameBytes(await codec.decode(twoPadded, ctx), concatBytes(text("head"), data))).toBe(true);
      }
    }
  });

  it("rejects garbage after a member, truncation and a bad trailer", async () => {
    const codec = await gzipCodec(backend);
    const data = compressibleBytes(5000);
    const good = member(data);
    const bad: Uint8Array[] = [
      concatBytes(good, text("g")),
      concatBytes(good, text("garbage!")),
      concatBytes(good, new Uint8Array([0x1f, 0x8b])),
      good.subarray(0, 10),
      good.subarray(0, 25),
    ];
    for (let k = 1; k <= 8; k++) {
      const flipped = good.slice();
      flipped[good.length - k] ^= 0x10;
      bad.push(flipped);
    }
    const reserved = good.slice();
    reserved[3] = 0x20;
    bad.push(reserved);
    const method = good.slice();
    method[2] = 7;
    bad.push(method);
    const hcrc = memberWithHeaderFields(data);
    hcrc[30] ^= 1; // inside the file name: the header CRC no longer matches
    bad.push(hcrc);
    for (const input of bad) {
      const error = await decodeError(codec.decode(input, ctx));
      expect(error.code).toBe("CODEC_FAILED");
      expect(error.message).toContain(ctx.key);
    }
  });

  it("rejects every truncation", async () => {
    const codec = await gzipCodec(backend);
    const first = member(compressibleBytes(400));
    const good = concatBytes(first, member(text("tail")));
    for (let cut = 0; cut < good.length; cut++) {
      const input = good.subarray(0, cut);
      // Cut right after the first member, the input is that member alone: valid.
      if (cut === first.length) expect(sameBytes(await codec.decode(input, ctx), compressibleBytes(400))).toBe(true);
      else expect((await decodeError(codec.decode(input, ctx))).code).toBe("CODEC_FAILED");
    }
  });

  it("never returns wrong data for a corrupted byte", async () => {
    const codec = await gzipCodec(backend);
    const data = compressibleBytes(4000);
    const good = member(data);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 10, max: good.length - 1 }), fc.integer({ min: 1, max: 255 }), async (at, xor) => {
        const corrupt = good.slice();
        corrupt[at] ^= xor;
        try {
          expect(sameBytes(await codec.decode(corrupt, ctx), data)).toBe(true);
        } catch (error) {
          expect((error as ZarrError).code).toBe("CODEC_FAILED");
        }
      }),
      { numRuns: 200 },
    );
  });

  it("fails fast on a trailer claiming a huge size", async () => {
    const codec = await gzipCodec(backend);
    const lying = member(text("small"));
    lying.set([0xff, 0xff, 0xff, 0xff], lying.length - 4);
    // Refused without allocating what the trailer claims (memory, not time: timed checks
    // fail on a loaded machine).
    const buffersBefore = process.memoryUsage().arrayBuffers;
    expect((await decodeError(codec.decode(lying, ctx))).code).toBe("CODEC_FAILED");
    expect(process.memoryUsage().arrayBuffers - buffersBefore).toBeLessThan(64 * 1024 * 1024);
  });

  it("decodes a large expansion without trusting the trailer", async () => {
    const codec = await gzipCodec(backend);
    const zeros = new Uint8Array(8 << 20);
    const compressed = member(zeros, 9);
    expect(compressed.length).toBeLessThan(12_000);
    const decoded = await codec.decode(compressed, ctx);
    expect(decoded.length).toBe(zeros.length);
    expect(sameBytes(decoded, zeros)).toBe(true);
  });
});

describe("zero bytes between members", () => {
  const a = compressibleBytes(1000);
  const b = text("second member");
  const input = concatBytes(member(a), new Uint8Array(5), member(b));

  it("node:zlib reads on after them like Python's gzip", async () => {
    expect(sameBytes(await (await gzipCodec(nodeBackend)).decode(input, ctx), concatBytes(a, b))).toBe(true);
  });

  it("fflate refuses them instead of dropping the second member", async () => {
    expect((await decodeError((await gzipCodec(fflateBackend)).decode(input, ctx))).code).toBe("CODEC_FAILED");
  });

  it("the browser backend refuses them like fflate, whatever the runtime's DecompressionStream does", async () => {
    // Node's stream would return the first member alone and drop the rest; browsers' refuse
    // bytes after the first member. Several members never reach the stream.
    expect((await decodeError((await gzipCodec(browserBackend)).decode(input, ctx))).code).toBe("CODEC_FAILED");
  });

  it("node:zlib refuses garbage after the zeros", async () => {
    const garbage = concatBytes(member(a), new Uint8Array(2), text("garbage"));
    expect((await decodeError((await gzipCodec(nodeBackend)).decode(garbage, ctx))).code).toBe("CODEC_FAILED");
  });
});

describe.each(backends.map((b) => [b.name, b] as const))("zlib framing with %s", (_name, backend) => {
  it("rejects truncation, bad checksums and preset dictionaries", async () => {
    const codec = await zlibCodec(backend);
    const data = compressibleBytes(600);
    const good = new Uint8Array(nodeZlib.deflateSync(data));
    for (let cut = 0; cut < good.length; cut++) {
      expect((await decodeError(codec.decode(good.subarray(0, cut), ctx))).code).toBe("CODEC_FAILED");
    }
    for (let k = 1; k <= 4; k++) {
      const flipped = good.slice();
      flipped[good.length - k] ^= 0x01;
      expect((await decodeError(codec.decode(flipped, ctx))).code).toBe("CODEC_FAILED");
    }
    const withDictionary = new Uint8Array(nodeZlib.deflateSync(data, { dictionary: text("dictionary") }));
    expect((await decodeError(codec.decode(withDictionary, ctx))).code).toBe("CODEC_FAILED");
    const gzipped = member(data);
    expect((await decodeError(codec.decode(gzipped, ctx))).code).toBe("CODEC_FAILED");
  });

  // Adler-32 is weak: node:zlib itself returns altered data for about 1 in 15,000
  // single-byte corruptions of this stream. What must hold is that the checksum is checked.
  it("returns only data matching the stored Adler-32 when a byte is corrupted", async () => {
    const codec = await zlibCodec(backend);
    const good = new Uint8Array(nodeZlib.deflateSync(compressibleBytes(4000)));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: good.length - 1 }), fc.integer({ min: 1, max: 255 }), async (at, xor) => {
        const corrupt = good.slice();
        corrupt[at] ^= xor;
        let decoded: Uint8Array;
        try {
          decoded = await codec.decode(corrupt, ctx);
        } catch (error) {
          expect((error as ZarrError).code).toBe("CODEC_FAILED");
          return;
        }
        expect(adler32(decoded)).toBe(Buffer.from(corrupt).readUInt32BE(corrupt.length - 4));
      }),
      { numRuns: 200 },
    );
  });
});

describe("bytes after the end of a zlib stream", () => {
  const data = text("zlib data");
  const input = concatBytes(new Uint8Array(nodeZlib.deflateSync(data)), text("trailing"));

  it("node:zlib ignores them like Python's zlib.decompress", async () => {
    expect(sameBytes(await (await zlibCodec(nodeBackend)).decode(input, ctx), data)).toBe(true);
  });

  it("fflate refuses them (it finds the checksum at the end of the input)", async () => {
    expect((await decodeError((await zlibCodec(fflateBackend)).decode(input, ctx))).code).toBe("CODEC_FAILED");
  });

  it("the browser backend gives node:zlib's answer where the runtime's DecompressionStream ignores them (Node's does)", async () => {
    expect(sameBytes(await (await zlibCodec(browserBackend)).decode(input, ctx), data)).toBe(true);
  });
});
