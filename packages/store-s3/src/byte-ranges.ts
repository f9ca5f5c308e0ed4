/**
 * HTTP byte ranges for S3 `GetObject`: building the `Range` header from a `ByteRange`, and
 * checking what the server actually sent back against what was asked for. Some
 * S3-compatible servers ignore `Range` (200 with the whole object) or misread suffix
 * ranges (s3rver answers `bytes=-4` with the first five bytes); the `Content-Range` of
 * the answer says which bytes arrived, so the store can cut out or re-request the right ones.
 */
import { type ByteRange, ZarrError } from "@zarr/spec";

/** What to send for a range: a `Range` header, the whole object, or nothing (zero bytes asked). */
export type RangeRequest = { kind: "header"; header: string } | { kind: "whole" } | { kind: "empty" };

function checkCount(n: number, what: string): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new ZarrError("INVALID_ARGUMENT", `Invalid range ${what} ${n}`);
}

/**
 * The request for `range`: `bytes=a-b`, `bytes=a-` or `bytes=-n`; `{offset: 0}` is the
 * whole object (a plain GET, which every server gets right); zero-length ranges need no
 * bytes at all. Throws `INVALID_ARGUMENT` for negative or non-integer numbers.
 */
export function rangeRequest(range: ByteRange): RangeRequest {
  if ("suffixLength" in range) {
    checkCount(range.suffixLength, "suffix length");
    return range.suffixLength === 0 ? { kind: "empty" } : { kind: "header", header: `bytes=-${range.suffixLength}` };
  }
  const { offset, length } = range;
  checkCount(offset, "offset");
  if (length !== undefined) checkCount(length, "length");
  if (length === 0) return { kind: "empty" };
  if (length === undefined || offset + length - 1 > Number.MAX_SAFE_INTEGER) {
    return offset === 0 ? { kind: "whole" } : { kind: "header", header: `bytes=${offset}-` };
  }
  return { kind: "header", header: `bytes=${offset}-${offset + length - 1}` };
}

/** The explicit header for bytes `[start, end)` (end > start). */
export function explicitRangeHeader(start: number, end: number): string {
  return `bytes=${start}-${end - 1}`;
}

/** A parsed `Content-Range: bytes first-last/total`: `[start, end)` and the total size if known. */
export interface ContentRange {
  start: number;
  end: number;
  total: number | undefined;
}

/** Parses `bytes 0-99/1234` (or `bytes 0-99/*`); `undefined` for anything else. */
export function parseContentRange(header: string | undefined): ContentRange | undefined {
  if (header === undefined) return undefined;
  const m = /^\s*bytes\s+(\d+)-(\d+)\/(\d+|\*)\s*$/i.exec(header);
  if (m === null) return undefined;
  const start = Number(m[1]);
  const end = Number(m[2]) + 1;
  const total = m[3] === "*" ? undefined : Number(m[3]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start) return undefined;
  if (total !== undefined && (!Number.isSafeInteger(total) || end > total)) return undefined;
  return { start, end, total };
}
