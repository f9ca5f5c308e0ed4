/**
 * CRC-32C (Castagnoli: reflected polynomial 0x82F63B78, initial value and final XOR
 * 0xFFFFFFFF), the checksum of the `crc32c` codec, iSCSI, ext4 and Snappy framing.
 *
 * Slicing-by-8: eight lookup tables let the loop fold in 8 bytes per step instead of one.
 */

const POLYNOMIAL = 0x82f63b78;
// Reading 32-bit words through an Int32Array is 2–3× faster than assembling them from
// bytes, but gives little-endian words only on little-endian platforms (all common ones);
// others take the byte-wise path.
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
/** Below this length the word view costs more than it saves. */
const WORD_PATH_MIN = 64;

let tables: Int32Array | undefined;

/**
 * Builds the 8 × 256 tables once, on first use. Table k maps a byte b to the CRC
 * contribution of b followed by k zero bytes. Int32Array rather than Uint32Array keeps
 * every value a small integer for the JIT (values ≥ 2^31 would become doubles).
 */
function buildTables(): Int32Array {
  const t = new Int32Array(8 * 256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLYNOMIAL : c >>> 1;
    t[i] = c;
  }
  for (let i = 0; i < 256; i++) {
    let c = t[i];
    for (let k = 1; k < 8; k++) {
      c = t[c & 0xff] ^ (c >>> 8);
      t[k * 256 + i] = c;
    }
  }
  return t;
}

/** Advances the CRC over 8 bytes: `lo` (already XORed with the CRC) and `hi`, little-endian words. */
function fold8(t: Int32Array, lo: number, hi: number): number {
  return (
    t[1792 + (lo & 0xff)] ^
    t[1536 + ((lo >>> 8) & 0xff)] ^
    t[1280 + ((lo >>> 16) & 0xff)] ^
    t[1024 + (lo >>> 24)] ^
    t[768 + (hi & 0xff)] ^
    t[512 + ((hi >>> 8) & 0xff)] ^
    t[256 + ((hi >>> 16) & 0xff)] ^
    t[hi >>> 24]
  );
}

/**
 * The CRC-32C of `bytes` as an unsigned 32-bit integer. `initial` is the CRC of preceding
 * data, so `crc32c(b, crc32c(a))` equals `crc32c(a + b)`.
 *
 * @example
 * ```ts
 * crc32c(new TextEncoder().encode("123456789")).toString(16) // "e3069283"
 * ```
 */
export function crc32c(bytes: Uint8Array, initial = 0): number {
  const t = (tables ??= buildTables());
  const n = bytes.length;
  let c = ~initial;
  let i = 0;
  if (LITTLE_ENDIAN && n >= WORD_PATH_MIN) {
    // Single bytes up to a 4-byte aligned address, then two words (8 bytes) per step.
    const head = (4 - (bytes.byteOffset & 3)) & 3;
    for (; i < head; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
    const words = new Int32Array(bytes.buffer, bytes.byteOffset + i, ((n - i) >>> 3) << 1);
    const count = words.length;
    for (let w = 0; w < count; w += 2) {
      const lo = c ^ words[w];
      const hi = words[w + 1];
      c = fold8(t, lo, hi);
    }
    i += count << 2;
  } else {
    for (const end8 = n - (n & 7); i < end8; i += 8) {
      const lo = c ^ (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24));
      const hi = bytes[i + 4] | (bytes[i + 5] << 8) | (bytes[i + 6] << 16) | (bytes[i + 7] << 24);
      c = fold8(t, lo, hi);
    }
  }
  for (; i < n; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}
