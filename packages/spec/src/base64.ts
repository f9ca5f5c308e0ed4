/**
 * Standard base64 (RFC 4648 §4), as zarr-python 3 writes fill values of byte-string
 * types. Self-contained so the core works in browsers without `Buffer`.
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/** Encodes bytes as padded standard base64. */
export function encodeBase64(bytes: Uint8Array): string {
  let out = "";
  const n = bytes.length;
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += ALPHABET[v >>> 18] + ALPHABET[(v >>> 12) & 63] + ALPHABET[(v >>> 6) & 63] + ALPHABET[v & 63];
  }
  if (i + 1 === n) {
    const v = bytes[i] << 16;
    out += `${ALPHABET[v >>> 18]}${ALPHABET[(v >>> 12) & 63]}==`;
  } else if (i + 2 === n) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += `${ALPHABET[v >>> 18]}${ALPHABET[(v >>> 12) & 63]}${ALPHABET[(v >>> 6) & 63]}=`;
  }
  return out;
}

/**
 * Decodes standard base64 (padding optional). Returns `undefined` when the text is
 * not base64: a character outside the alphabet, misplaced padding, or a length that
 * leaves a lone sextet.
 */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  let end = text.length;
  if (end % 4 === 0 && end > 0 && text.charCodeAt(end - 1) === 61) {
    end--;
    if (text.charCodeAt(end - 1) === 61) end--;
  }
  if (end % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let acc = 0;
  let nbits = 0;
  let o = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? DECODE[c] : -1;
    if (v < 0) return undefined;
    acc = ((acc << 6) | v) & 0xffffff;
    nbits += 6;
    if (nbits >= 8) {
      nbits -= 8;
      out[o++] = (acc >>> nbits) & 0xff;
    }
  }
  return out;
}
