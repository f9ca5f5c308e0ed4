/**
 * Object ids (snapshots, manifests, chunks: 12 bytes; nodes: 8 bytes) and their names in
 * storage paths: Crockford base 32, upper case, no padding, zero bits appended on the right.
 */
import { ZarrError } from "@zarr/spec";

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) {
  VALUES[ALPHABET.charCodeAt(i)] = i;
  VALUES[ALPHABET.toLowerCase().charCodeAt(i)] = i;
}
// Crockford's decoding aliases: O is 0, I and L are 1.
for (const [alias, digit] of [["O", 0], ["I", 1], ["L", 1]] as const) {
  VALUES[alias.charCodeAt(0)] = digit;
  VALUES[alias.toLowerCase().charCodeAt(0)] = digit;
}

/**
 * The Crockford base 32 name of an object id (`1CECHNKREP0F1RSTCMT0` for the initial snapshot).
 *
 * @example
 * ```ts
 * encodeObjectId(new Uint8Array([0x0b, 0x1c, 0xc8, 0xd6, 0x78, 0x75, 0x80, 0xf0, 0xe3, 0x3a, 0x65, 0x34]));
 * // "1CECHNKREP0F1RSTCMT0"
 * ```
 */
export function encodeObjectId(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(buffer >> bits) & 31];
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/**
 * The bytes of an object id named in Crockford base 32; `INVALID_ARGUMENT` when `name` is
 * not the name of a `size`-byte id.
 *
 * @example
 * ```ts
 * decodeObjectId("1CECHNKREP0F1RSTCMT0", 12); // Uint8Array(12) [11, 28, 200, ...]
 * ```
 */
export function decodeObjectId(name: string, size: 8 | 12): Uint8Array {
  const expected = Math.ceil((size * 8) / 5);
  const bad = (why: string): never => {
    throw new ZarrError("INVALID_ARGUMENT", `Invalid Icechunk object id ${JSON.stringify(name)}: ${why}`);
  };
  if (typeof name !== "string" || name.length !== expected) bad(`expected ${expected} Crockford base 32 characters`);
  const out = new Uint8Array(size);
  let buffer = 0;
  let bits = 0;
  let n = 0;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    const value = code < 128 ? VALUES[code] : -1;
    if (value < 0) bad(`${JSON.stringify(name[i])} is not a Crockford base 32 digit`);
    buffer = ((buffer << 5) | value) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      if (n < size) out[n++] = (buffer >> bits) & 0xff;
    }
  }
  if ((buffer & ((1 << bits) - 1)) !== 0) bad("the padding bits are not zero");
  return out;
}
