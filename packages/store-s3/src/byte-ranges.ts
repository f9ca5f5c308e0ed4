/**
 * HTTP byte ranges for S3 `GetObject`: building the `Range` header from a `ByteRange`, and
 * checking what the server actually sent back against what was asked for. Some
 * S3-compatible servers ignore `Range` (200 with the whole object) or misread suffix
 * ranges (s3rver answers `bytes=-4` with the first five bytes); the `Content-Range` of
 * the answer says which bytes arrived, so the store can cut out or re-request the right ones.
 * The range forms and the header parser are `@zarr/spec`'s, shared with `@zarr/store-http`.
 */
import { type ByteRange, httpRangeHeader, parseHttpContentRange, planHttpRange } from "@zarr/spec";

/** What to send for a range: a `Range` header, the whole object, or nothing (zero bytes asked). */
export type RangeRequest = { kind: "header"; header: string } | { kind: "whole" } | { kind: "empty" };

/**
 * The request for `range`: `bytes=a-b`, `bytes=a-` or `bytes=-n`; `{offset: 0}` is the
 * whole object (a plain GET, which every server gets right); zero-length ranges need no
 * bytes at all. Throws `INVALID_ARGUMENT` for negative or non-integer numbers.
 */
export function rangeRequest(range: ByteRange): RangeRequest {
  const planned = planHttpRange(range);
  if (planned.kind === "empty") return planned;
  if (planned.kind === "open" && planned.start === 0) return { kind: "whole" };
  return { kind: "header", header: httpRangeHeader(planned) };
}

/** The explicit header for bytes `[start, end)` (end > start). */
export function explicitRangeHeader(start: number, end: number): string {
  return httpRangeHeader({ kind: "bounded", start, end: end - 1 });
}

/** A parsed `Content-Range: bytes first-last/total`: `[start, end)` and the total size if known. */
export interface ContentRange {
  start: number;
  end: number;
  total: number | undefined;
}

/** Parses `bytes 0-99/1234` (or `bytes 0-99/*`); `undefined` for anything else (the body is then trusted as it is). */
export function parseContentRange(header: string | undefined): ContentRange | undefined {
  if (header === undefined) return undefined;
  const parsed = parseHttpContentRange(header);
  return "problem" in parsed ? undefined : { start: parsed.start, end: parsed.end + 1, total: parsed.total };
}
