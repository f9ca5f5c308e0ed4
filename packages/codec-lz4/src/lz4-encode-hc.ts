/**
 * LZ4 block format encoder, high-compression variant: every position is linked into a
 * hash chain (head table + 64 KiB ring of distances to the previous position with the
 * same hash), the chain is searched for the longest match (up to 2^(level−1)
 * candidates), and one step of lazy matching prefers a longer match starting one byte
 * later. The output is an ordinary LZ4 block; any LZ4 decoder reads it.
 */
import { ZarrError } from "@zarr/spec";
import { LAST_LITERALS, lz4CompressBound, MAX_OFFSET, MF_LIMIT } from "./lz4-encode.js";
import { matchEnd } from "./lz4-match.js";
import { writeLastLiterals, writeSequence } from "./lz4-write.js";

const HASH_LOG = 15;
const WINDOW = 1 << 16;
const WINDOW_MASK = WINDOW - 1;
// Reused between calls: JavaScript runs one call at a time per thread.
const head = new Int32Array(1 << HASH_LOG);
const chain = new Uint16Array(WINDOW);

function hash(view: DataView, i: number): number {
  return Math.imul(view.getInt32(i, true), -1640531535) >>> (32 - HASH_LOG);
}

/**
 * Matcher state for one call: positions are inserted lazily up to the position being
 * searched, and the best match found is left in `matchStart`/`matchRef`/`matchLength`.
 */
class HashChainMatcher {
  nextToInsert = 0;
  matchLength = 0;
  matchRef = 0;
  /** `input` as a DataView: 4-byte words in one load each. */
  private readonly view: DataView;

  constructor(
    private readonly input: Uint8Array,
    private readonly matchLimit: number,
    private readonly maxAttempts: number,
  ) {
    head.fill(-1);
    this.view = new DataView(input.buffer, input.byteOffset, input.byteLength);
  }

  private insertUpTo(pos: number): void {
    const view = this.view;
    for (let p = this.nextToInsert; p < pos; p++) {
      const h = hash(view, p);
      const prev = head[h];
      const delta = prev < 0 ? 0 : p - prev;
      // 0 ends the chain; distances beyond the window end it too.
      chain[p & WINDOW_MASK] = delta > MAX_OFFSET ? 0 : delta;
      head[h] = p;
    }
    if (pos > this.nextToInsert) this.nextToInsert = pos;
  }

  /** Searches the longest match at `ip` longer than `minLength`; true when found. */
  find(ip: number, minLength: number): boolean {
    this.insertUpTo(ip);
    const input = this.input;
    const view = this.view;
    const limit = this.matchLimit;
    const seq = view.getInt32(ip, true);
    let best = minLength;
    let bestRef = -1;
    let ref = head[hash(view, ip)];
    let attempts = this.maxAttempts;
    while (ref >= 0 && ip - ref <= MAX_OFFSET && attempts-- > 0) {
      // Cheap rejections first: the byte that would make this match the longest, then 4 bytes.
      if (ip + best < limit && input[ref + best] === input[ip + best] && view.getInt32(ref, true) === seq) {
        const len = matchEnd(input, view, ip + 4, ref + 4, limit) - ip;
        if (len > best) {
          best = len;
          bestRef = ref;
          if (ip + len >= limit) break;
        }
      }
      const delta = chain[ref & WINDOW_MASK];
      if (delta === 0) break;
      ref -= delta;
    }
    if (bestRef < 0) return false;
    this.matchLength = best;
    this.matchRef = bestRef;
    return true;
  }
}

/**
 * Compresses `input` as one LZ4 block with hash-chain match finding into
 * `output[outputStart, outputEnd)`. `level` 1–12 (default 9) sets how many chain
 * candidates are tried (2^(level−1)). Returns the number of bytes written, or 0 when
 * the block does not fit.
 *
 * @example
 * ```ts
 * const out = new Uint8Array(lz4CompressBound(data.length));
 * const n = lz4CompressBlockHCInto(data, out, 0, out.length, 9);
 * ```
 */
export function lz4CompressBlockHCInto(
  input: Uint8Array,
  output: Uint8Array,
  outputStart = 0,
  outputEnd: number = output.length,
  level = 9,
): number {
  if (outputStart < 0 || outputEnd > output.length || outputStart > outputEnd) {
    throw new ZarrError("INVALID_ARGUMENT", `LZ4 output range [${outputStart}, ${outputEnd}) is outside the buffer`);
  }
  const lvl = Math.min(Math.max(Math.trunc(level) || 9, 1), 12);
  const n = input.length;
  let op = outputStart;
  let anchor = 0;
  if (n > MF_LIMIT) {
    const lastMatchStart = n - MF_LIMIT;
    const matcher = new HashChainMatcher(input, n - LAST_LITERALS, 1 << (lvl - 1));
    let ip = 1;
    while (ip <= lastMatchStart) {
      if (!matcher.find(ip, 3)) {
        ip++;
        continue;
      }
      let start = ip;
      let length = matcher.matchLength;
      let ref = matcher.matchRef;
      // Lazy step: a longer match one byte later is worth one more literal.
      while (start + 1 <= lastMatchStart && matcher.find(start + 1, length)) {
        start++;
        length = matcher.matchLength;
        ref = matcher.matchRef;
      }
      // Extend backwards over pending literals.
      while (start > anchor && ref > 0 && input[start - 1] === input[ref - 1]) {
        start--;
        ref--;
        length++;
      }
      op = writeSequence(input, anchor, start - anchor, start - ref, length, output, op, outputEnd);
      if (op < 0) return 0;
      ip = start + length;
      anchor = ip;
    }
  }
  op = writeLastLiterals(input, anchor, n - anchor, output, op, outputEnd);
  if (op < 0) return 0;
  return op - outputStart;
}

/**
 * Compresses `input` as one LZ4 block with the high-compression (hash chain) match
 * finder; `level` 1–12, default 9. Slower than {@link lz4CompressBlock}, smaller output,
 * same decoder.
 *
 * @example
 * ```ts
 * const block = lz4CompressBlockHC(data, 9);
 * ```
 */
export function lz4CompressBlockHC(input: Uint8Array, level = 9): Uint8Array {
  const out = new Uint8Array(lz4CompressBound(input.length));
  const n = lz4CompressBlockHCInto(input, out, 0, out.length, level);
  return out.slice(0, n);
}
