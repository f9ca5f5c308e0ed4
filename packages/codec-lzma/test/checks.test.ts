import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crc32 } from "../src/check/crc32.js";
import { crc64 } from "../src/check/crc64.js";
import { sha256 } from "../src/check/sha256.js";
import { createHash } from "node:crypto";
import { zlibSync } from "./zlib.js";

/** Bitwise CRC64 (ECMA-182 reflected), the definition the table-driven version must match. */
function crc64Reference(data: Uint8Array): bigint {
  const poly = 0xc96c5795d7870f42n;
  let crc = 0xffffffffffffffffn;
  for (const b of data) {
    crc ^= BigInt(b);
    for (let k = 0; k < 8; k++) crc = crc & 1n ? (crc >> 1n) ^ poly : crc >> 1n;
  }
  return crc ^ 0xffffffffffffffffn;
}

function le64(bytes: Uint8Array): bigint {
  return new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true);
}

describe("integrity checks", () => {
  it("CRC32 matches zlib, CRC64 the bitwise definition, SHA-256 node:crypto", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(), (data, cut) => {
        const start = data.length === 0 ? 0 : cut % data.length;
        const part = data.subarray(start);
        expect(crc32(data, start, data.length)).toBe(zlibSync(part));
        expect(le64(crc64(data, start, data.length))).toBe(crc64Reference(part));
        expect(Buffer.from(sha256(data, start, data.length)).toString("hex")).toBe(
          createHash("sha256").update(part).digest("hex"),
        );
      }),
      { numRuns: 200 },
    );
  });

  it("CRC64 of the standard check string is the published value", () => {
    // The xz documentation's CRC64 of "123456789".
    expect(le64(crc64(new TextEncoder().encode("123456789")))).toBe(0x995dc9bbdf1939fan);
    // And SHA-256 over more than one block with a tail.
    const long = new Uint8Array(1000).map((_, i) => i * 7);
    expect(Buffer.from(sha256(long)).toString("hex")).toBe(createHash("sha256").update(long).digest("hex"));
  });
});
