/**
 * CRC-32 as used by gzip (ISO-HDLC: reflected polynomial 0xEDB88320), slicing-by-8.
 * Only the browser backend needs it: fflate does not verify the gzip trailer, so the
 * backend checks each member's checksum itself.
 */

const POLYNOMIAL = 0xedb88320;
// Reading 32-bit words through an Int32Array is 2–3× faster than assembling them from
// bytes, but gives little-endian words only on little-endian platforms (all common ones).
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
let tables: Int32Array | undefined;

/**
 * Eight 256-entry tables; table k advances the CRC over a byte followed by k zero bytes.
 * Int32Array rather than Uint32Array keeps every value a small integer for the JIT.
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

/** CRC-32 (gzip's checksum) of `bytes`, as an unsigned 32-bit integer. */
export function crc32(bytes: Uint8Array): number {
  const t = (tables ??= buildTables());
  const n = bytes.length;
  let c = -1;
  let i = 0;
  if (LITTLE_ENDIAN && n >= 64) {
    // Bytes up to a 4-byte aligned address, then 8 bytes (two words) per step.
    const head = (4 - (bytes.byteOffset & 3)) & 3;
    for (; i < head; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
    const words = new Int32Array(bytes.buffer, bytes.byteOffset + i, ((n - i) >>> 3) << 1);
    const count = words.length;
    for (let w = 0; w < count; w += 2) {
      const lo = c ^ words[w];
      const hi = words[w + 1];
      c =
        t[1792 + (lo & 0xff)] ^
        t[1536 + ((lo >>> 8) & 0xff)] ^
        t[1280 + ((lo >>> 16) & 0xff)] ^
        t[1024 + (lo >>> 24)] ^
        t[768 + (hi & 0xff)] ^
        t[512 + ((hi >>> 8) & 0xff)] ^
        t[256 + ((hi >>> 16) & 0xff)] ^
        t[hi >>> 24];
    }
    i += count << 2;
  }
  for (; i < n; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}
