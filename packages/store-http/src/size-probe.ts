/**
 * The size of a value of an `HttpStore` (`getSize`): HEAD's `Content-Length`, else a
 * `Range: bytes=0-0` answer's total, else the whole value's length. Loaded on first use.
 */
import { countBody } from "./bounded-body.js";
import { bytesFromUnsatisfiable, parseContentRange, unsatisfiedTotal } from "./byte-ranges.js";
import { declaredLength, hasContentCoding } from "./read-body.js";
import { keyUrl } from "./store-url.js";
import { getWhole, isMissing, isSuccess, limitFor, request, type Transport, UNHANDLED } from "./transport.js";

/** `getSize` could not learn the size from this response; try the next way. */
const UNKNOWN_SIZE: unique symbol = Symbol("unknown size");

/** The size of `key` in bytes, or `undefined` when missing (see `HttpStore.getSize`). */
export async function probeSize(t: Transport, key: string, signal: AbortSignal | undefined): Promise<number | undefined> {
  const url = keyUrl(t.base, key);
  const fromHead = await request(t, { method: "HEAD", key, url, signal }, async (response) => {
    if (isMissing(t, response)) return undefined;
    if (response.status === 405 || response.status === 501) return UNKNOWN_SIZE; // HEAD not allowed
    if (isSuccess(response.status)) return declaredLength(response) ?? UNKNOWN_SIZE;
    return UNHANDLED;
  });
  if (fromHead !== UNKNOWN_SIZE) return fromHead;
  const fromRange = await request(t, { method: "GET", key, url, range: "bytes=0-0", signal }, async (response) => {
    if (isMissing(t, response)) return undefined;
    switch (response.status) {
      case 206: {
        // A content coding makes the total count encoded bytes, not what `get` returns.
        const total = parseContentRange(response.headers.get("content-range"))?.total;
        return total === undefined || hasContentCoding(response) ? UNKNOWN_SIZE : total;
      }
      case 200:
      case 203:
        return declaredLength(response) ?? (await countBody(response, limitFor(t, key)));
      case 416:
        return bytesFromUnsatisfiable({ kind: "open", start: 0 }, unsatisfiedTotal(response.headers.get("content-range"))).length;
    }
    return UNHANDLED;
  });
  if (fromRange !== UNKNOWN_SIZE) return fromRange;
  return (await getWhole(t, key, signal))?.length;
}
