/** fast-check arbitraries the decoder tests share. */
import fc from "fast-check";

/** Random inputs built from random bytes, repeats of earlier bytes and runs. */
export const structuredData = fc
  .array(
    fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 300 }).map((bytes) => ({ kind: "bytes" as const, bytes })),
      fc.record({ kind: fc.constant("copy" as const), back: fc.integer({ min: 1, max: 3000 }), length: fc.integer({ min: 1, max: 1200 }) }),
      fc.record({ kind: fc.constant("run" as const), value: fc.nat(255), length: fc.integer({ min: 1, max: 700 }) }),
    ),
    { maxLength: 30 },
  )
  .map((parts) => {
    const out: number[] = [];
    for (const part of parts) {
      if (part.kind === "bytes") out.push(...part.bytes);
      else if (part.kind === "run") for (let k = 0; k < part.length; k++) out.push(part.value);
      else if (out.length > 0) {
        const from = Math.max(0, out.length - part.back);
        for (let k = 0; k < part.length; k++) out.push(out[from + k]);
      }
    }
    return Uint8Array.from(out);
  });

/** Up to 3 byte flips: (position, nonzero mask) pairs for {@link flipBytes}. */
export const byteFlips = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 3 });

/**
 * A copy of `frame` with `flips` applied: odd positions land anywhere, even ones in the first
 * `head` bytes (headers and tables).
 */
export function flipBytes(frame: Uint8Array, flips: ReadonlyArray<readonly [number, number]>, head: number): Uint8Array {
  const bad = frame.slice();
  for (const [at, mask] of flips) bad[at % (at & 1 ? bad.length : Math.min(head, bad.length))] ^= mask;
  return bad;
}
