/**
 * Scatter reads of an `HttpStore` (`readInto`): one GET for the span the ranges cover,
 * its body copied piece by piece into the targets as it arrives. Loaded on first use.
 */
import { checkReadIntoRanges, type ReadIntoRange } from "@zarr/spec";
import { parseContentRange, unsatisfiedTotal } from "./byte-ranges.js";
import { bindKit, kit } from "./kit.js";
import { scatterBody, scatterWhole, sortedByOffset } from "./scatter-body.js";
import { probeSize } from "./size-probe.js";
import type { Transport } from "./transport.js";

/** Reads the ranges of `key` into their targets (see `HttpStore.readInto`); the value's total size, or `undefined` when missing. */
export async function scatterRead(
  t: Transport,
  key: string,
  ranges: readonly ReadIntoRange[],
  signal: AbortSignal | undefined,
): Promise<number | undefined> {
  bindKit(t);
  const [first, last] = checkReadIntoRanges(key, ranges);
  if (last === 0) return probeSize(t, key, signal);
  const sorted = sortedByOffset(ranges);
  const url = kit.keyUrl(t.base, key);
  const FALL_BACK: unique symbol = Symbol("fall back");
  const result = await kit.request<number | undefined | typeof FALL_BACK>(
    t,
    { method: "GET", key, url, range: `bytes=${first}-${last - 1}`, signal },
    async (response) => {
      if (kit.isMissing(t, response)) return undefined;
      switch (response.status) {
        case 206: {
          const sent = parseContentRange(response.headers.get("content-range"));
          if (sent === undefined || sent.total === undefined || kit.hasContentCoding(response)) return FALL_BACK;
          if (sent.total < last) return sent.total; // too short for the ranges: nothing to copy
          if (sent.start !== first || sent.end !== last - 1) return FALL_BACK;
          await scatterBody(response, first, sorted, last - first);
          return sent.total;
        }
        case 200:
        case 203:
          // The server ignored Range: the body is the whole value (read only up to `last` when its size is known).
          return scatterWhole(response, sorted, last, kit.declaredLength(response), t.settings.maxValueBytes);
        case 416:
          return unsatisfiedTotal(response.headers.get("content-range")) ?? FALL_BACK;
      }
      return kit.UNHANDLED;
    },
  );
  if (result !== FALL_BACK) return result;
  const whole = await kit.getWhole(t, key, signal);
  if (whole === undefined) return undefined;
  if (whole.length >= last) for (const r of ranges) r.target.set(whole.subarray(r.offset, r.offset + r.target.length));
  return whole.length;
}
