/**
 * The fflate backend, used in browsers and any runtime without the "node" export
 * condition (loaded on first use by backend.browser.ts). fflate is synchronous, so
 * decoding runs on the calling thread.
 *
 * fflate decodes but does not verify: it neither checks a gzip trailer's CRC-32 and length
 * nor a zlib stream's Adler-32, and its one-shot `gunzipSync` trusts the trailer's length
 * field to size its output (a 20-byte input could make it allocate 4 GiB) and reads only
 * the first member. So gzip is decoded here:
 * - fast path, for the usual single member: raw `inflateSync` into an output sized from
 *   the trailer when that size is plausible, then the trailer is checked;
 * - otherwise (several members, zero padding, or anything the fast path rejects) fflate's
 *   streaming `Gunzip`, which grows its output as the data proves it and reports where each
 *   member starts, and every member's trailer is checked. It is exact but allocates about
 *   160 KiB of buffers per call, which dominates for small chunks.
 */
import { adler32, OutputLimitExceeded } from "@zarr/spec";
import { Gunzip, gzipSync, Inflate, inflateSync, zlibSync } from "fflate";
import type { DeflateBackend } from "./backend.js";
import { crc32 } from "./crc32.js";
import { parseMemberHeader, readUint32LE, TRAILER_LENGTH, verifyMembers } from "./gzip-format.js";

/** Deflate cannot expand data by more than about 1032:1. */
const MAX_DEFLATE_RATIO = 1032;
/** The largest output allocated from a trailer's claim before the data has proved it. */
const MAX_PREALLOCATION = 16 * 1024 * 1024;
/**
 * Input fed to fflate's streaming decoders per call when the output is bounded: fflate
 * inflates all it is given before handing output over, so this caps what one call can
 * allocate past the bound (about 1032 × this).
 */
const FEED_BYTES = 16 * 1024;

/**
 * Feeds `bytes` (up to `end`) to a streaming decoder in small pieces, so that `tooMuch`,
 * checked after every piece, stops it soon after the output passes its bound.
 */
function feedBounded(stream: { push(data: Uint8Array, final?: boolean): void }, bytes: Uint8Array, end: number, tooMuch: () => boolean): void {
  for (let at = 0; ; at += FEED_BYTES) {
    const next = Math.min(end, at + FEED_BYTES);
    stream.push(bytes.subarray(at, next), next === end);
    if (tooMuch()) return;
    if (next === end) return;
  }
}

/**
 * Inflates raw deflate data into at most `maxOutput` bytes, else throws
 * {@link OutputLimitExceeded}. Small bounds get one buffer of the bound's size (one spare
 * byte shows an overflow); large ones a streaming decoder fed piece by piece, so output
 * grows only as the data proves it.
 */
export function inflateBounded(data: Uint8Array, maxOutput: number): Uint8Array {
  const cap = Math.min(maxOutput, data.length * MAX_DEFLATE_RATIO + 64);
  if (cap <= MAX_PREALLOCATION) {
    const out = inflateSync(data, { out: new Uint8Array(cap + 1) });
    if (out.length > maxOutput) throw new OutputLimitExceeded(maxOutput);
    return out;
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const stream = new Inflate((chunk) => {
    total += chunk.length;
    if (total <= maxOutput && chunk.length > 0) chunks.push(chunk);
  });
  feedBounded(stream, data, data.length, () => total > maxOutput);
  if (total > maxOutput) throw new OutputLimitExceeded(maxOutput);
  return concat(chunks);
}

type FflateLevel = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

/** fflate has no "default" level; -1 means zlib's default, 6. */
function fflateLevel(level: number): FflateLevel {
  return (level < 0 ? 6 : level) as FflateLevel;
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  let total = 0;
  for (const c of chunks) total += c.length;
  const out = new Uint8Array(total);
  let pos = 0;
  for (const c of chunks) {
    out.set(c, pos);
    pos += c.length;
  }
  return out;
}

/**
 * Decodes every gzip member in `bytes` and verifies each trailer. Zero padding after the
 * last member is accepted (as gzip, Python and node:zlib do); zero bytes between members
 * are not (Python reads on after them, node:zlib stops there).
 */
export function gunzipVerified(bytes: Uint8Array, maxOutput: number = Number.MAX_SAFE_INTEGER): Uint8Array {
  const n = bytes.length;
  if (n === 0) throw new Error("empty input is not gzip data");
  const headerLength = parseMemberHeader(bytes, 0, n);
  return gunzipSingleMember(bytes, headerLength, maxOutput) ?? gunzipMembers(bytes, maxOutput);
}

/**
 * Decodes `bytes` as one gzip member whose trailer ends the input, or returns undefined
 * when it is not (then the exact path decides). Every later member would start with the
 * bytes 1f 8b 08 before the final trailer, so their absence proves there is only one; the
 * deflate data may then only be followed by its trailer (or by junk that the CRC-32 and
 * length check still bind to the same output).
 */
function gunzipSingleMember(bytes: Uint8Array, headerLength: number, maxOutput: number): Uint8Array | undefined {
  const n = bytes.length;
  const body = bytes.subarray(headerLength, n - TRAILER_LENGTH);
  for (let at = body.indexOf(0x1f); at >= 0; at = body.indexOf(0x1f, at + 1)) {
    if (body[at + 1] === 0x8b && body[at + 2] === 8) return undefined;
  }
  const size = readUint32LE(bytes, n - 4);
  // The trailer of the only member gives the output's size (mod 2^32, and bounds stay below):
  // a claim over the bound fails here, and a false one fails the length check below.
  if (size > maxOutput) throw new OutputLimitExceeded(maxOutput, size);
  const plausible = size <= MAX_PREALLOCATION && size <= body.length * MAX_DEFLATE_RATIO;
  let output: Uint8Array;
  try {
    // With `out` fflate never grows the buffer and silently drops what does not fit. One
    // spare byte makes more data than claimed visible as a length mismatch; without it the
    // cut-off output could match a trailer claiming less (e.g. zero padding: size 0, CRC 0).
    output = plausible ? inflateSync(body, { out: new Uint8Array(size + 1) }) : inflateBounded(body, maxOutput);
  } catch (error) {
    if (error instanceof OutputLimitExceeded) throw error;
    return undefined;
  }
  if (output.length !== size || crc32(output) !== readUint32LE(bytes, n - TRAILER_LENGTH)) return undefined;
  return output;
}

/** The exact path: any number of members, zero padding after the last. */
function gunzipMembers(bytes: Uint8Array, maxOutput: number): Uint8Array {
  const n = bytes.length;
  // fflate would read zero padding as the start of another member and fail, so stop
  // feeding it a little after the trailing run of zeros begins. This never cuts deflate
  // data: the trailer's CRC-32 has a non-zero byte (except for an empty member, whose
  // deflate data ends at most 2 bytes into the run), and fflate skips the 8-byte trailer
  // without reading it, so a cut inside the trailer is harmless.
  let zeroStart = n;
  while (zeroStart > 0 && bytes[zeroStart - 1] === 0) zeroStart--;
  const feedEnd = Math.min(n, zeroStart + 3);

  const chunks: Uint8Array[] = [];
  const starts = [0];
  let total = 0;
  const stream = new Gunzip((chunk) => {
    total += chunk.length;
    if (total <= maxOutput && chunk.length > 0) chunks.push(chunk);
  });
  stream.onmember = (offset) => starts.push(offset);
  feedBounded(stream, bytes, feedEnd, () => total > maxOutput);
  if (total > maxOutput) throw new OutputLimitExceeded(maxOutput);
  const output = chunks.length === 0 ? new Uint8Array(0) : concat(chunks);
  verifyMembers(bytes, starts, zeroStart, output);
  return output;
}

/**
 * Decodes a zlib stream and verifies its Adler-32. The stream must end the input. More than
 * `maxOutput` bytes of output throw {@link OutputLimitExceeded}, before they are allocated.
 */
export function unzlibVerified(bytes: Uint8Array, maxOutput: number = Number.MAX_SAFE_INTEGER): Uint8Array {
  const n = bytes.length;
  // 2-byte header, at least 2 bytes of deflate data, 4-byte Adler-32.
  if (n < 8) throw new Error(`${n} bytes are too short for a zlib stream`);
  const cmf = bytes[0];
  const flg = bytes[1];
  if ((cmf & 0x0f) !== 8 || cmf >> 4 > 7) throw new Error("not a zlib stream: unsupported compression method or window size");
  if (((cmf << 8) | flg) % 31 !== 0) throw new Error("not a zlib stream: header check failed");
  if (flg & 0x20) throw new Error("zlib streams with a preset dictionary are not supported");
  const output = inflateBounded(bytes.subarray(2, n - 4), maxOutput);
  const stored = ((bytes[n - 4] << 24) | (bytes[n - 3] << 16) | (bytes[n - 2] << 8) | bytes[n - 1]) >>> 0;
  if (adler32(output) !== stored) {
    throw new Error("zlib Adler-32 check failed (corrupt data, or bytes after the end of the stream)");
  }
  return output;
}

/** The fflate backend. */
export const fflateBackend: DeflateBackend = {
  name: "fflate",
  preferBlocking: true,
  // mtime 0 keeps the output deterministic (node:zlib writes 0 too).
  compressGzip: (bytes, level) => gzipSync(bytes, { level: fflateLevel(level), mtime: 0 }),
  decompressGzip: gunzipVerified,
  compressZlib: (bytes, level) => zlibSync(bytes, { level: fflateLevel(level) }),
  decompressZlib: unzlibVerified,
};
