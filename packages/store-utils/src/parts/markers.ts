/**
 * Part markers: one small JSON object per finished part under `.zarr-jobs/<job id>/`,
 * written when the part's units are all done and removed by `finalizeJob`.
 */
import { asZarrError, isJsonObject, isListable, isWritable, jsonToBytes, parseJsonBytes, type Store, ZarrError } from "@zarr/spec";
import { writeOnce } from "./write-once.js";

/** The prefix every job's markers live under, at the root of the target store. */
export const JOBS_PREFIX = ".zarr-jobs/";

/** What a part's marker records. */
export interface PartMarker {
  kind: string;
  job: string;
  /** The plan fingerprint the part ran (see `PartPlan.fingerprint`). */
  plan: string;
  part: number;
  parts: number;
  units: number;
  written: number;
  skipped: number;
  bytes: number;
}

/** The prefix of one job's markers. */
export function jobPrefix(job: string): string {
  return `${JOBS_PREFIX}${job}/`;
}

/** The key of part `i` of `n`'s marker. */
export function markerKey(job: string, i: number, n: number): string {
  return `${jobPrefix(job)}part-${i}-of-${n}.json`;
}

/** Writes a part's marker (conditionally where the store can: see `writeOnce`). */
export async function writeMarker(store: Store, marker: PartMarker, signal?: AbortSignal): Promise<string> {
  const key = markerKey(marker.job, marker.part, marker.parts);
  await writeOnce(store, key, jsonToBytes(marker as unknown as Parameters<typeof jsonToBytes>[0]), signal);
  return key;
}

/** Reads part `i` of `n`'s marker, or `undefined` when the part has not finished. */
export async function readMarker(store: Store, job: string, i: number, n: number, signal?: AbortSignal): Promise<PartMarker | undefined> {
  const key = markerKey(job, i, n);
  let bytes: Uint8Array | undefined;
  try {
    bytes = await store.get(key, { signal });
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Reading the marker "${key}" failed`, key);
  }
  if (bytes === undefined) return undefined;
  const doc = parseJsonBytes(bytes, key);
  if (!isJsonObject(doc) || typeof doc.plan !== "string" || doc.part !== i || doc.parts !== n) {
    throw new ZarrError("METADATA_INVALID", `The marker "${key}" is not a part marker of this job`, { key });
  }
  return doc as unknown as PartMarker;
}

/**
 * Removes a job's markers, and `.zarr-jobs/` itself once no other job has markers there
 * (stores without listing keep the empty prefix, which holds no object).
 */
export async function removeMarkers(store: Store, job: string, n: number, signal?: AbortSignal): Promise<void> {
  if (!isWritable(store)) return;
  for (let i = 0; i < n; i++) await store.delete(markerKey(job, i, n), { signal });
  if (typeof store.deletePrefix === "function") await store.deletePrefix(jobPrefix(job), { signal });
  if (!isListable(store) || typeof store.deletePrefix !== "function") return;
  for await (const _ of store.listPrefix(JOBS_PREFIX, { signal })) return;
  await store.deletePrefix(JOBS_PREFIX, { signal });
}
