import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matchEnd } from "../src/lz4-match.js";

/** Byte-by-byte reference of `matchEnd`. */
function referenceEnd(input: Uint8Array, end: number, r: number, limit: number): number {
  while (end < limit && input[end] === input[r]) {
    end++;
    r++;
  }
  return end;
}

/** `bytes` at an unaligned offset of a larger buffer, as blosc's streams are. */
function unaligned(bytes: Uint8Array, shift: number): Uint8Array {
  const view = new Uint8Array(bytes.length + shift).subarray(shift);
  view.set(bytes);
  return view;
}

describe("matchEnd (word-at-a-time match extension)", () => {
  it("agrees with a byte loop: differences in every byte lane, runs up to the limit, unaligned views", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 0, max: 80 }),
        fc.integer({ min: 0, max: 90 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 255 }),
        (distance, equal, extra, shift, changed) => {
          // A stretch that repeats itself at `distance` for `equal` bytes, then one byte that breaks it.
          const n = distance + equal + 1 + extra;
          const bytes = new Uint8Array(n);
          for (let i = 0; i < n; i++) bytes[i] = i < distance ? (i * 37 + 11) & 255 : bytes[i - distance];
          const breakAt = distance + equal;
          if (breakAt < n) bytes[breakAt] = bytes[breakAt - distance] === changed ? changed ^ 1 : changed;
          const input = unaligned(bytes, shift);
          const view = new DataView(input.buffer, input.byteOffset, input.byteLength);
          for (let limit = distance; limit <= n; limit++) {
            expect(matchEnd(input, view, distance, 0, limit)).toBe(referenceEnd(input, distance, 0, limit));
          }
        },
      ),
    );
  });

  it("stops exactly at the limit when everything matches", () => {
    const input = new Uint8Array(40).fill(7);
    const view = new DataView(input.buffer);
    for (let limit = 1; limit <= 40; limit++) expect(matchEnd(input, view, 1, 0, limit)).toBe(Math.max(1, limit));
  });
});
