import { crc32 as zlibCrc32 } from "node:zlib";
import fc from "fast-check";
import { expect, it } from "vitest";
import { adler32, crc32 } from "../src/index.js";

it("crc32 matches zlib's, in one piece and continued, at any alignment", () => {
  expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 600 }), fc.nat(7), fc.nat(600), (data, shift, cut) => {
      const buf = new Uint8Array(data.length + shift);
      buf.set(data, shift);
      const view = buf.subarray(shift);
      expect(crc32(view)).toBe(zlibCrc32(data));
      const k = Math.min(cut, view.length);
      expect(crc32(view.subarray(k), crc32(view.subarray(0, k)))).toBe(zlibCrc32(data));
    }),
  );
});

/** Adler-32 straight from RFC 1950: both sums reduced after every byte. */
function naiveAdler32(bytes: Uint8Array, previous = 1): number {
  let a = previous & 0xffff;
  let b = previous >>> 16;
  for (const x of bytes) {
    a = (a + x) % 65521;
    b = (b + a) % 65521;
  }
  return (b * 65536 + a) >>> 0;
}

it("adler32 gives the published values", () => {
  expect(adler32(new Uint8Array(0))).toBe(1);
  expect(adler32(new TextEncoder().encode("Wikipedia"))).toBe(0x11e60398);
  expect(adler32(new TextEncoder().encode("abc"))).toBe(0x024d0127);
});

it("adler32 matches the naive reference across the 5552-byte block boundary, worst case bytes included", () => {
  // All 0xff bytes make the sums largest, the case the block size is chosen for.
  for (const n of [5551, 5552, 5553, 2 * 5552 + 1, 100_000]) {
    const ones = new Uint8Array(n).fill(0xff);
    expect(adler32(ones)).toBe(naiveAdler32(ones));
    const mixed = Uint8Array.from({ length: n }, (_, i) => (i * 2654435761) >>> 24);
    expect(adler32(mixed)).toBe(naiveAdler32(mixed));
  }
});

it("adler32 continues from a previous value like zlib's adler32(data, previous)", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 12_000 }), fc.nat(12_000), (data, cut) => {
      const k = Math.min(cut, data.length);
      expect(adler32(data)).toBe(naiveAdler32(data));
      expect(adler32(data.subarray(k), adler32(data.subarray(0, k)))).toBe(adler32(data));
    }),
    { numRuns: 50 },
  );
});
