import { crc32 as zlibCrc32 } from "node:zlib";
import fc from "fast-check";
import { expect, it } from "vitest";
import { crc32 } from "../src/index.js";

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
