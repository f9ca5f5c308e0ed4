/**
 * The bytes of a range request from the server's answer, read within bounds: a 206 is
 * never read past the bytes asked for, and a 200 (the server ignored `Range` and sends
 * the whole value) only as far as the range needs.
 */
import { BodyLimitExceeded, readTail, readWindow } from "./bounded-body.js";
import { bytesFromPartial, parseContentRange, type RangeRequest, rangeHeader } from "./byte-ranges.js";
import { kit } from "./kit.js";


type NonEmptyRange = Exclude<RangeRequest, { kind: "empty" }>;

/**
 * The bytes of `request` from a 206 answer. Its `Content-Range` and `Content-Length` are
 * checked against each other and the request (a mismatch or a body ending early throws
 * `TransientError`: retried). A bounded request reads at most the bytes it asked for; a
 * wider range (a server rounding ranges up) is read only up to the requested end.
 */
export async function bytesOfPartialAnswer(response: Response, request: NonEmptyRange, limit: number): Promise<Uint8Array> {
  const header = response.headers.get("content-range");
  const sent = parseContentRange(header);
  const announced = kit.declaredLength(response);
  const expected = sent === undefined ? announced : sent.end - sent.start + 1;
  if (announced !== undefined && announced !== expected) {
    throw new kit.TransientError(`Content-Length ${announced} does not match Content-Range "${header}"`);
  }
  const asked = request.kind === "bounded" ? request.end - request.start + 1 : 0;
  if (request.kind === "bounded" && sent !== undefined && sent.start <= request.start && sent.end - sent.start + 1 > asked) {
    const end = Math.min(request.end, sent.end);
    if (end < request.end && sent.total !== undefined && sent.end !== sent.total - 1) {
      throw new kit.TransientError(`the server sent bytes ${sent.start}-${sent.end}/${sent.total} for ${rangeHeader(request)}`);
    }
    const bytes = await readWindow(response, sent.start, request.start, end + 1, limit);
    if (bytes.length !== end - request.start + 1) {
      throw new kit.TransientError(`the body ended after ${bytes.length} bytes of the range (connection closed early)`);
    }
    return bytes;
  }
  // Whatever the headers say, a bounded range takes no more than was asked for: reading
  // stops there, and the answer counts as corrupt.
  const cap = request.kind === "bounded" ? Math.min(limit, asked) : limit;
  let body: Uint8Array;
  try {
    body = await kit.readBody(response, expected, cap);
  } catch (error) {
    if (error instanceof BodyLimitExceeded && cap < limit) {
      throw new kit.TransientError(`the server sent more than the ${asked} bytes of ${rangeHeader(request)}`);
    }
    throw error;
  }
  return bytesFromPartial(request, sent, body);
}

/**
 * The bytes of `request` from a 200 answer (the whole value: the server ignored
 * `Range`), clamped like HTTP. Reading stops (the body is cancelled) once the range has
 * arrived; an open range reads to the end, a suffix streams the body keeping only its
 * last bytes. At most `limit` bytes are streamed (`BodyLimitExceeded`).
 */
export function bytesOfWholeAnswer(response: Response, request: NonEmptyRange, limit: number): Promise<Uint8Array> {
  switch (request.kind) {
    case "bounded":
      return readWindow(response, 0, request.start, request.end + 1, limit);
    case "open":
      return readWindow(response, 0, request.start, Infinity, limit);
    case "suffix":
      return readTail(response, request.length, limit);
  }
}
