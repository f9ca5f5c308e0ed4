/**
 * HTTP byte ranges, as every HTTP-speaking store adapter (HTTP, S3, GCS, Azure) needs
 * them: the `Range` request for a `ByteRange`, and parsing the `Content-Range` of the
 * answer. Pure text, no I/O; each adapter decides what a malformed answer means for it
 * (a retry, or trusting the body).
 */
import { resolveByteRange } from "./byte-ranges.js";
import { ZarrError } from "./errors.js";
import type { ByteRange } from "./store.js";

/** A validated range request. `end` is inclusive, as in HTTP. */
export type HttpRangeRequest =
  | { kind: "bounded"; start: number; end: number }
  | { kind: "open"; start: number }
  | { kind: "suffix"; length: number }
  /** Zero bytes: HTTP cannot ask for them (`bytes=-0` is unsatisfiable), so only existence is checked. */
  | { kind: "empty" };

/**
 * Validates `range` and classifies it as HTTP asks for it. A length reaching past the
 * largest safe integer is an open range. Throws `INVALID_ARGUMENT` for negative or
 * non-integer numbers, or a range that is not an object.
 *
 * @example
 * ```ts
 * planHttpRange({ offset: 10, length: 5 }); // { kind: "bounded", start: 10, end: 14 }
 * planHttpRange({ suffixLength: 0 });       // { kind: "empty" }
 * ```
 */
export function planHttpRange(range: ByteRange): HttpRangeRequest {
  if (typeof range !== "object" || range === null) {
    throw new ZarrError("INVALID_ARGUMENT", `Invalid byte range ${String(range)}: expected {offset, length} or {suffixLength}`);
  }
  resolveByteRange(range, 0); // throws INVALID_ARGUMENT for bad numbers
  if ("suffixLength" in range) return range.suffixLength === 0 ? { kind: "empty" } : { kind: "suffix", length: range.suffixLength };
  const { offset, length } = range;
  if (length === 0) return { kind: "empty" };
  if (length === undefined || offset + length - 1 > Number.MAX_SAFE_INTEGER) return { kind: "open", start: offset };
  return { kind: "bounded", start: offset, end: offset + length - 1 };
}

/**
 * The `Range` header value of a non-empty range request.
 *
 * @example
 * ```ts
 * httpRangeHeader({ kind: "suffix", length: 8 }); // "bytes=-8"
 * ```
 */
export function httpRangeHeader(request: Exclude<HttpRangeRequest, { kind: "empty" }>): string {
  switch (request.kind) {
    case "bounded":
      return `bytes=${request.start}-${request.end}`;
    case "open":
      return `bytes=${request.start}-`;
    case "suffix":
      return `bytes=-${request.length}`;
  }
}

/** A parsed `Content-Range`: the bytes sent (`start`..`end`, inclusive as in HTTP) and the full size if known. */
export interface HttpContentRange {
  start: number;
  end: number;
  total: number | undefined;
}

/**
 * Parses `Content-Range: bytes a-b/total` (total may be `*`). Resolves `{ problem }`
 * saying what is wrong when the header is malformed, holds a number past the safe
 * integers, or is inconsistent (`b < a`, or `b` not inside `total`).
 *
 * @example
 * ```ts
 * parseHttpContentRange("bytes 0-99/1234"); // { start: 0, end: 99, total: 1234 }
 * parseHttpContentRange("bytes 9-3/100");   // { problem: 'inconsistent Content-Range "bytes 9-3/100"' }
 * ```
 */
export function parseHttpContentRange(header: string): HttpContentRange | { problem: string } {
  const m = /^\s*bytes\s+(\d+)-(\d+)\/(\d+|\*)\s*$/i.exec(header);
  if (m === null) return { problem: `malformed Content-Range "${header}"` };
  const numbers = [m[1], m[2], m[3] === "*" ? "0" : m[3]].map(Number);
  if (!numbers.every(Number.isSafeInteger)) return { problem: `Content-Range "${header}" holds a number out of range` };
  const [start, end] = numbers;
  const total = m[3] === "*" ? undefined : numbers[2];
  if (end < start || (total !== undefined && end >= total)) return { problem: `inconsistent Content-Range "${header}"` };
  return { start, end, total };
}
