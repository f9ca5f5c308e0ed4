/**
 * CRC64 as used by .xz (ECMA-182 polynomial, reflected: 0xC96C5795D7870F42). JavaScript has
 * no fast 64-bit integers, so the register is kept as two 32-bit halves.
 */

const TABLES = /* @__PURE__ */ buildTables();

function buildTables(): { lo: Int32Array; hi: Int32Array } {
  // Slicing-by-4: entry k*256+b is the CRC of byte b followed by k zero bytes.
  const lo = new Int32Array(4 * 256);
  const hi = new Int32Array(4 * 256);
  const polyLo = 0xd7870f42 | 0;
  const polyHi = 0xc96c5795 | 0;
  for (let i = 0; i < 256; i++) {
    let l = i;
    let h = 0;
    for (let j = 0; j < 8; j++) {
      const odd = l & 1;
      l = (l >>> 1) | (h << 31);
      h = h >>> 1;
      if (odd) {
        l ^= polyLo;
        h ^= polyHi;
      }
    }
    lo[i] = l;
    hi[i] = h;
  }
  for (let i = 0; i < 256; i++) {
    let l = lo[i];
    let h = hi[i];
    for (let k = 1; k < 4; k++) {
      const idx = l & 0xff;
      l = lo[idx] ^ ((l >>> 8) | (h << 24));
      h = hi[idx] ^ (h >>> 8);
      lo[k * 256 + i] = l;
      hi[k * 256 + i] = h;
    }
  }
  return { lo, hi };
}

/** CRC64 of `data[start, end)` as the 8 little-endian bytes stored in an .xz check field. */
export function crc64(data: Uint8Array, start = 0, end = data.length): Uint8Array {
  const { lo: tl, hi: th } = TABLES;
  let l = -1;
  let h = -1;
  let i = start;
  for (const stop = end - 3; i < stop; i += 4) {
    // Fold four input bytes into the low half, then look each byte up in its slice.
    const x = l ^ (data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24));
    const a = 768 + (x & 0xff);
    const b = 512 + ((x >>> 8) & 0xff);
    const c = 256 + ((x >>> 16) & 0xff);
    const d = x >>> 24;
    l = tl[a] ^ tl[b] ^ tl[c] ^ tl[d] ^ h;
    h = th[a] ^ th[b] ^ th[c] ^ th[d];
  }
  for (; i < end; i++) {
    const idx = (l ^ data[i]) & 0xff;
    l = tl[idx] ^ ((l >>> 8) | (h << 24));
    h = th[idx] ^ (h >>> 8);
  }
  l = ~l;
  h = ~h;
  const out = new Uint8Array(8);
  for (let k = 0; k < 4; k++) {
    out[k] = (l >>> (8 * k)) & 0xff;
    out[k + 4] = (h >>> (8 * k)) & 0xff;
  }
  return out;
}
