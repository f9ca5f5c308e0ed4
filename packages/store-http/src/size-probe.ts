/**
 * The size of a value of an `HttpStore` (`getSize`): HEAD's `Content-Length`, else a
 * `Range: bytes=0-0` answer's total, else the whole value's length. Loaded on first use.
 */
import { countBody } from "./bounded-body.js";
import { bytesFromUnsatisfiable, parseContentRange, unsatisfiedTotal } from "./byte-ranges.js";
import { bindKit, kit } from "./kit.js";
import type { Transport } from "./transport.js";

/** `getSize` could not learn the size from this response; try the next way. */
const UNKNOWN_SIZE: unique symbol = Symbol("unknown size");

/** The size of `key` in bytes, or `undefined` when missing (see `HttpStore.getSize`). */
export async function probeSize(t: Transport, key: string, signal: AbortSignal | undefined): Promise<number | undefined> {
  bindKit(t);
  const url = kit.keyUrl(t.base, key);
  const fromHead = await kit.request(t, { method: "HEAD", key, url, signal }, async (response) => {
    if (kit.isMissing(t, response)) return undefined;
    if (response.status === 405 || response.status === 501) return UNKNOWN_SIZE; // HEAD not allowed
    if (kit.isSuccess(response.status)) return kit.declaredLength(response) ?? UNKNOWN_SIZE;
    return kit.UNHANDLED;
  });
  if (fromHead !== UNKNOWN_SIZE) return fromHead;
  const fromRange = await kit.request(t, { method: "GET", key, url, range: "bytes=0-0", signal }, async (response) => {
    if (kit.isMissing(t, response)) return undefined;
    switch (response.status) {
      case 206: {
        // A content coding makes the total count encoded bytes, not what `get` returns.
        const total = parseContentRange(response.headers.get("content-range"))?.total;
        return total === undefined || kit.hasContentCoding(response) ? UNKNOWN_SIZE : total;
      }
      case 200:
      case 203:
        return kit.declaredLength(response) ?? (await countBody(response, kit.limitFor(t, key)));
      case 416:
        return bytesFromUnsatisfiable({ kind: "open", start: 0 }, unsatisfiedTotal(response.headers.get("content-range"))).length;
    }
    return kit.UNHANDLED;
  });
  if (fromRange !== UNKNOWN_SIZE) return fromRange;
  return (await kit.getWhole(t, key, signal))?.length;
}
