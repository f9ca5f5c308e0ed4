/** CRC32 (IEEE 802.3, reflected polynomial 0xEDB88320) as used by .xz headers and the CRC32 check. */

const TABLE = /* @__PURE__ */ buildTable();

function buildTable(): Int32Array {
  // Slicing-by-4 tables: T[k][b] is the CRC of byte b followed by k zero bytes.
  const t = new Int32Array(4 * 256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let j = 0; j < 8; j++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
    t[i] = c;
  }
  for (let i = 0; i < 256; i++) {
    let c = t[i];
    for (let k = 1; k < 4; k++) {
      c = t[c & 0xff] ^ (c >>> 8);
      t[k * 256 + i] = c;
    }
  }
  return t;
}

/** CRC32 of `data[start, end)`, continuing from `crc` (0 for a fresh checksum). */
export function crc32(data: Uint8Array, start = 0, end = data.length, crc = 0): number {
  const t = TABLE;
  let c = ~crc;
  let i = start;
  for (const stop = end - 3; i < stop; i += 4) {
    c ^= data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    c = t[768 + (c & 0xff)] ^ t[512 + ((c >>> 8) & 0xff)] ^ t[256 + ((c >>> 16) & 0xff)] ^ t[c >>> 24];
  }
  for (; i < end; i++) c = t[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}
