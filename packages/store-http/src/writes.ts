/**
 * Writes of an `HttpStore`: PUT (conditional with `If-Match`/`If-None-Match: *` for
 * `setIfVersion`) and DELETE, on a store made with `readOnly: false`. Loaded on the first
 * write: readers never load it.
 */
import { storeChanged, ZarrError } from "@zarr/spec";
import { bindKit, kit } from "./kit.js";
import type { RequestSpec, Transport } from "./transport.js";
import { strongEtag } from "./versions.js";

/** `STORE_READ_ONLY` unless the store was made with `readOnly: false`. */
function assertWritable(t: Transport, key: string): void {
  if (t.settings.readOnly) {
    throw new ZarrError(
      "STORE_READ_ONLY",
      `Cannot modify "${key}": the HTTP store at ${kit.displayUrl(t.base.prefix + t.base.query)} is read-only (pass readOnly: false to use PUT and DELETE)`,
      { key },
    );
  }
}

/**
 * PUTs `value` as `key` (see `HttpStore.set`). With `expected` (see
 * `HttpStore.setIfVersion`) the PUT is conditional: `If-Match: <expected>`, or
 * `If-None-Match: *` for `null`; a 412 answer rejects with `STORE_CHANGED`.
 */
export async function put(
  t: Transport,
  key: string,
  value: Uint8Array,
  signal: AbortSignal | undefined,
  expected?: string | null,
): Promise<void> {
  bindKit(t);
  const url = kit.keyUrl(t.base, key);
  assertWritable(t, key);
  if (!(value instanceof Uint8Array)) {
    throw new ZarrError("INVALID_ARGUMENT", `The value for "${key}" must be a Uint8Array`, { key });
  }
  // fetch cannot send views of shared memory; everything else goes as it is.
  const body = (value.buffer instanceof ArrayBuffer ? value : value.slice()) as Uint8Array<ArrayBuffer>;
  const spec: RequestSpec = { method: "PUT", key, url, body, signal };
  if (expected === null) spec.ifNoneMatchAny = true;
  else if (expected !== undefined) spec.ifMatch = expected;
  await kit.request(t, spec, async (response) => {
    if (response.status === 412 && expected !== undefined) throw storeChanged(key, expected ?? "(absent)", strongEtag(response));
    return kit.isSuccess(response.status) ? undefined : kit.UNHANDLED;
  });
}

/** DELETEs `key` (see `HttpStore.delete`); a missing key (a missing status) is fine. */
export async function remove(t: Transport, key: string, signal: AbortSignal | undefined): Promise<void> {
  bindKit(t);
  const url = kit.keyUrl(t.base, key);
  assertWritable(t, key);
  await kit.request(t, { method: "DELETE", key, url, signal }, async (response) => {
    return kit.isSuccess(response.status) || kit.isMissing(t, response) ? undefined : kit.UNHANDLED;
  });
}
