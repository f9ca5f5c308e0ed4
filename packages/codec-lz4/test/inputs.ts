/** Inputs the LZ4 tests share. */
import fc from "fast-check";

/** Data that compresses: runs and repeats drawn from a small alphabet, and random bytes. */
export const compressible = fc
  .array(
    fc.oneof(
      fc.uint8Array({ maxLength: 40 }),
      fc.record({ byte: fc.integer({ min: 0, max: 255 }), n: fc.integer({ min: 1, max: 600 }) }).map(({ byte, n }) =>
        new Uint8Array(n).fill(byte),
      ),
      fc.record({ pat: fc.uint8Array({ minLength: 1, maxLength: 9 }), n: fc.integer({ min: 1, max: 300 }) }).map(
        ({ pat, n }) => Uint8Array.from({ length: pat.length * n }, (_, i) => pat[i % pat.length]),
      ),
    ),
    { maxLength: 30 },
  )
  .map((parts) => Uint8Array.from(parts.flatMap((p) => Array.from(p))));

export function sampleInputs(): Uint8Array[] {
  const f32 = new Float32Array(50_000);
  for (let i = 0; i < f32.length; i++) f32[i] = Math.sin(i / 100) * 100;
  const text = new TextEncoder().encode("the quick brown fox jumps over the lazy dog. ".repeat(2000));
  const random = new Uint8Array(70_000);
  let s = 12345;
  for (let i = 0; i < random.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    random[i] = s >>> 24;
  }
  const ramp = Uint8Array.from({ length: 200_000 }, (_, i) => (i * 7) % 251);
  return [
    new Uint8Array(0),
    Uint8Array.of(1),
    new Uint8Array(12).fill(3),
    new Uint8Array(13).fill(3),
    new Uint8Array(100_000),
    new Uint8Array(f32.buffer),
    text,
    random,
    ramp,
  ];
}
