/**
 * Range reads and versioned reads of an `HttpStore` (`getRange`, `getVersioned`): the
 * `Range` header, 206/416 answers checked against the request, ETags and `If-Match`.
 * Loaded on the first such read: a reader of whole chunks never loads it.
 */
import { type ByteRange, RangeBatcher, type RangeBatchOptions, storeChanged, type VersionedBytes, ZarrError } from "@zarr/spec";
import { bytesFromUnsatisfiable, planRange, rangeHeader, unsatisfiedTotal } from "./byte-ranges.js";
import { bindKit, kit } from "./kit.js";
import { bytesOfPartialAnswer, bytesOfWholeAnswer } from "./range-answer.js";
import { probeSize } from "./size-probe.js";
import type { RequestSpec, Transport } from "./transport.js";
import { strongEtag } from "./versions.js";

/** Each transport's batcher of bounded range reads (made on the first one). */
const batchers = new WeakMap<Transport, RangeBatcher>();

/**
 * A range read of `key` as `readVersioned` does it, except that bounded ranges asked for
 * in the same turn of the event loop (separate reads of one shard's inner chunks) are
 * merged into one request where the store's `coalesce` setting allows, and suffix reads of
 * one key (its shard index) are read once (see `RangeBatcher`).
 */
export function readRange(
  t: Transport,
  key: string,
  range: ByteRange | undefined,
  signal: AbortSignal | undefined,
  ifVersion: string | undefined,
): Promise<VersionedBytes | undefined> {
  const planned = range === undefined ? undefined : planRange(range);
  if (t.settings.coalesce === false || (planned?.kind !== "bounded" && planned?.kind !== "suffix")) {
    return readVersioned(t, key, range, signal, ifVersion);
  }
  let batcher = batchers.get(t);
  if (batcher === undefined) {
    batcher = new RangeBatcher((k, r, v, s) => readVersioned(t, k, r, s, v), coalesceOptions(t.settings.coalesce));
    batchers.set(t, batcher);
  }
  return planned.kind === "suffix"
    ? batcher.readSuffix(key, planned.length, ifVersion, signal)
    : batcher.read(key, planned.start, planned.end - planned.start + 1, ifVersion, signal);
}

/** The `coalesce` option, checked (`INVALID_ARGUMENT` naming the bad field). */
function coalesceOptions(value: unknown): RangeBatchOptions {
  const bad = (what: string) => {
    throw new ZarrError("INVALID_ARGUMENT", `HttpStore option "coalesce" must be false or { gap, maxBytes }: ${what}`);
  };
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null) bad(`got ${String(value)}`);
  const { gap, maxBytes } = value as Record<string, unknown>;
  if (gap !== undefined && !(Number.isSafeInteger(gap) && (gap as number) >= 0)) bad(`gap must be a non-negative integer, got ${String(gap)}`);
  if (maxBytes !== undefined && !(Number.isSafeInteger(maxBytes) && (maxBytes as number) > 0)) bad(`maxBytes must be a positive integer, got ${String(maxBytes)}`);
  return { gap: gap as number | undefined, maxBytes: maxBytes as number | undefined };
}

/**
 * One GET of `key` (a range of it when `range` is given), with its ETag; see
 * `HttpStore.getVersioned`. With `ifVersion`, the request carries `If-Match` and a 412 or
 * another ETag rejects with `STORE_CHANGED`.
 */
export async function readVersioned(
  t: Transport,
  key: string,
  range: ByteRange | undefined,
  signal: AbortSignal | undefined,
  ifVersion: string | undefined,
): Promise<VersionedBytes | undefined> {
  bindKit(t);
  const url = kit.keyUrl(t.base, key);
  const limit = kit.limitFor(t, key);
  const planned = range === undefined ? undefined : planRange(range);
  if (planned?.kind === "empty") {
    // HTTP cannot ask for zero bytes; all that is left to tell is whether the key exists.
    const size = await probeSize(t, key, signal);
    return size === undefined ? undefined : { bytes: new Uint8Array(0), version: undefined };
  }
  const spec: RequestSpec = { method: "GET", key, url, signal, ifMatch: ifVersion };
  if (planned !== undefined) spec.range = rangeHeader(planned);
  return kit.request(t, spec, async (response) => {
    if (kit.isMissing(t, response)) return undefined;
    if (response.status === 412 && ifVersion !== undefined) throw storeChanged(key, ifVersion, strongEtag(response));
    const version = strongEtag(response);
    if (ifVersion !== undefined && version !== undefined && version !== ifVersion) throw storeChanged(key, ifVersion, version);
    let bytes: Uint8Array;
    switch (response.status) {
      case 206:
        if (planned === undefined) return kit.UNHANDLED;
        bytes = await bytesOfPartialAnswer(response, planned, limit);
        break;
      case 200:
      case 203:
        bytes = planned === undefined ? await kit.readBody(response, kit.declaredLength(response), limit) : await bytesOfWholeAnswer(response, planned, limit);
        break;
      case 416:
        if (planned === undefined) return kit.UNHANDLED;
        bytes = bytesFromUnsatisfiable(planned, unsatisfiedTotal(response.headers.get("content-range")));
        break;
      default:
        return kit.UNHANDLED;
    }
    return { bytes, version };
  });
}
