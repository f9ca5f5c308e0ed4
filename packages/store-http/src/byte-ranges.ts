/**
 * HTTP byte ranges: the `Range` header for a `ByteRange`, parsing `Content-Range`, and
 * taking the requested bytes out of a 206 or 416 response — checking that what the
 * server says it sent is what was asked for. The request forms and the header parser are
 * `@zarr/spec`'s (the S3 adapter speaks the same HTTP ranges).
 */
import { type HttpContentRange, type HttpRangeRequest, httpRangeHeader, parseHttpContentRange, planHttpRange } from "@zarr/spec";
import { kit } from "./kit.js";

/** A validated range request (`@zarr/spec`'s `HttpRangeRequest`). `end` is inclusive, as in HTTP. */
export type RangeRequest = HttpRangeRequest;

/** Validates a `ByteRange` (`INVALID_ARGUMENT` for negative or non-integer numbers) and classifies it. */
export const planRange = planHttpRange;

/** The `Range` header value of a (non-empty) range request. */
export const rangeHeader = httpRangeHeader;

/** A parsed `Content-Range`: the bytes sent (`start`..`end` inclusive) and the full size if known. */
export type ContentRange = HttpContentRange;

/**
 * Parses `Content-Range: bytes a-b/total` (total may be `*`). Undefined when the header is
 * absent (a cross-origin response that does not expose it); throws `TransientError` when
 * it is malformed or inconsistent (the server is retried).
 */
export function parseContentRange(header: string | null): ContentRange | undefined {
  if (header === null) return undefined;
  const parsed = parseHttpContentRange(header);
  if ("problem" in parsed) throw new kit.TransientError(parsed.problem);
  return parsed;
}

/** The full size from a 416's `Content-Range: bytes *\/total`, if present and well-formed. */
export function unsatisfiedTotal(header: string | null): number | undefined {
  if (header === null) return undefined;
  const m = /^\s*bytes\s+\*\/(\d+)\s*$/i.exec(header);
  return m === null ? undefined : Number(m[1]);
}

/** Bytes `[from, to)` of `body`: the body itself when that is all of it, else a compact copy. */
function part(body: Uint8Array, from: number, to: number): Uint8Array {
  // A copy, not a view: a small range must not keep a large response alive.
  return from === 0 && to === body.length ? body : body.slice(from, to);
}

/**
 * The requested bytes of a 206 response whose body (already checked against the
 * expected length) is `body`. `sent` is its Content-Range; a mismatch with the request
 * (a different start, fewer bytes than asked while not at the end) throws `TransientError`.
 */
export function bytesFromPartial(request: RangeRequest, sent: ContentRange | undefined, body: Uint8Array): Uint8Array {
  const mismatch = (): never => {
    const what = sent === undefined ? `${body.length} bytes` : `bytes ${sent.start}-${sent.end}/${sent.total ?? "*"}`;
    throw new kit.TransientError(`the server sent ${what} for ${request.kind === "empty" ? "an empty range" : rangeHeader(request)}`);
  };
  if (request.kind === "empty") return new Uint8Array(0);
  if (sent === undefined) {
    // No Content-Range to check against (browsers hide it cross-origin unless exposed):
    // accept a body no longer than asked for; its length was checked against Content-Length.
    if (request.kind === "bounded" && body.length > request.end - request.start + 1) mismatch();
    if (request.kind === "suffix" && body.length > request.length) mismatch();
    return body;
  }
  const { start, end, total } = sent;
  const atEnd = total === undefined || end === total - 1;
  switch (request.kind) {
    case "bounded": {
      if (start > request.start || end < request.start) mismatch();
      if (end < request.end && !atEnd) mismatch();
      return part(body, request.start - start, Math.min(request.end, end) - start + 1);
    }
    case "open": {
      if (start > request.start || end < request.start || !atEnd) mismatch();
      return part(body, request.start - start, body.length);
    }
    case "suffix": {
      if (total === undefined) return part(body, Math.max(0, body.length - request.length), body.length);
      const first = Math.max(0, total - request.length);
      if (start > first || !atEnd) mismatch();
      return part(body, first - start, body.length);
    }
  }
}

/**
 * For a 416 response: checks that the range really lies past the end (a request HTTP
 * cannot satisfy and `resolveByteRange` clamps to nothing) and returns no bytes. A total
 * size that contradicts this throws `TransientError`.
 */
export function bytesFromUnsatisfiable(request: RangeRequest, total: number | undefined): Uint8Array {
  if (total !== undefined) {
    const satisfiable = request.kind === "suffix" ? total > 0 : request.kind !== "empty" && request.start < total;
    if (satisfiable) {
      throw new kit.TransientError(`the server answered 416 for ${rangeHeader(request as Exclude<RangeRequest, { kind: "empty" }>)} although the value has ${total} bytes`);
    }
  }
  return new Uint8Array(0);
}
