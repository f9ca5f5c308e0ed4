/**
 * UTF-8 for `vlen-utf8`: encoding many strings into one growing frame buffer, and
 * decoding a frame's items with a single native `TextDecoder` call.
 */
import { corrupt, type FrameIndex, HEADER_BYTES, writeU32 } from "./frame.js";

const encoder = new TextEncoder();
// fatal: invalid UTF-8 is an error (as in numcodecs); ignoreBOM: a leading U+FEFF is text.
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

// Strings up to this many code units are tried as ASCII in a JS loop before calling
// TextEncoder.encodeInto, whose call overhead dominates for short strings.
const ASCII_PROBE = 64;

/** A value that is not a string, found while encoding. */
export class NotAString extends Error {
  constructor(readonly index: number) {
    super(`element ${index} is not a string`);
  }
}

/**
 * Encodes `n` strings as a vlen frame. One buffer grows (doubling) as needed; short
 * ASCII strings are copied in a loop, others go through `TextEncoder.encodeInto`.
 * Lone surrogates are written as U+FFFD (as `TextEncoder` does).
 */
export function encodeUtf8Frame(data: ArrayLike<unknown>, n: number): Uint8Array {
  let capacity = HEADER_BYTES * (n + 1);
  for (let i = 0; i < n; i++) {
    const s = data[i];
    if (typeof s !== "string") throw new NotAString(i);
    capacity += s.length; // exact for ASCII; grown below otherwise
  }
  let buf = new Uint8Array(capacity);
  writeU32(buf, 0, n);
  let pos = HEADER_BYTES;
  for (let i = 0; i < n; i++) {
    const s = data[i] as string;
    const len = s.length;
    const worst = pos + HEADER_BYTES + 3 * len; // UTF-8 needs at most 3 bytes per UTF-16 unit
    if (worst > buf.length) {
      const grown = new Uint8Array(Math.max(worst, 2 * buf.length));
      grown.set(buf.subarray(0, pos));
      buf = grown;
    }
    const start = pos + HEADER_BYTES;
    let written = 0;
    if (len <= ASCII_PROBE) {
      for (; written < len; written++) {
        const c = s.charCodeAt(written);
        if (c >= 0x80) break;
        buf[start + written] = c;
      }
    }
    if (written < len) written = encoder.encodeInto(s, buf.subarray(start)).written;
    writeU32(buf, pos, written);
    pos = start + written;
  }
  // Hand back a compact buffer unless little was over-allocated.
  return pos * 4 >= buf.length * 3 ? buf.subarray(0, pos) : buf.slice(0, pos);
}

// Above this many UTF-16 units the chunk's text is decoded item by item instead of
// as one string (V8 strings are limited to about 2^29 units).
const MAX_JOINED_UNITS = 1 << 28;

/**
 * Decodes the items of a validated frame as UTF-8 strings. The item bytes are gathered
 * into one buffer and decoded in one call; each item is then a slice of that text. The
 * slice boundaries come from counting UTF-16 units per item, which is exact because
 * the decoder is fatal (the text is valid UTF-8) and every item is checked to start on
 * a character boundary.
 */
export function decodeUtf8Items(bytes: Uint8Array, frame: FrameIndex, codec: string, key: string): string[] {
  const { starts, lengths } = frame;
  const n = starts.length;
  const out = new Array<string>(n);
  const joined = new Uint8Array(frame.payloadBytes);
  const unitEnds = new Float64Array(n);
  let o = 0;
  let units = 0;
  for (let i = 0; i < n; i++) {
    const a = starts[i];
    const len = lengths[i];
    // In valid UTF-8 exactly the non-continuation bytes start characters. The joined
    // bytes are checked to be valid below, so an item that starts on a non-continuation
    // byte starts (and its predecessor ends) on a character boundary.
    if (len > 0 && (bytes[a] & 0xc0) === 0x80) throw corrupt(codec, key, `item ${i} is not valid UTF-8`);
    // Each byte that is not a continuation byte starts one UTF-16 unit; 4-byte
    // sequences (lead bytes 0xF0 and up) need a second (a surrogate pair).
    for (let j = a, e = a + len; j < e; j++) {
      const b = bytes[j];
      joined[o++] = b;
      if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1;
    }
    unitEnds[i] = units;
  }
  if (units > MAX_JOINED_UNITS) return decodeOneByOne(bytes, frame, codec, key);
  let text: string;
  try {
    text = decoder.decode(joined);
  } catch (error) {
    throw corrupt(codec, key, `not valid UTF-8 (${(error as Error).message})`);
  }
  if (text.length !== units) throw corrupt(codec, key, "not valid UTF-8");
  for (let i = 0, start = 0; i < n; i++) {
    const end = unitEnds[i];
    out[i] = text.slice(start, end);
    start = end;
  }
  return out;
}

function decodeOneByOne(bytes: Uint8Array, frame: FrameIndex, codec: string, key: string): string[] {
  const n = frame.starts.length;
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const a = frame.starts[i];
    try {
      out[i] = decoder.decode(bytes.subarray(a, a + frame.lengths[i]));
    } catch (error) {
      throw corrupt(codec, key, `item ${i} is not valid UTF-8 (${(error as Error).message})`);
    }
  }
  return out;
}
