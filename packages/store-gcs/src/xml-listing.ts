/**
 * Listing a bucket through the XML API without signing: `GET /BUCKET?prefix=…&delimiter=/&marker=…`
 * answered with an S3-style `ListBucketResult`, paged with `marker`/`NextMarker`.
 */
import { ZarrError } from "@zarr/spec";
import { xmlElements as elements, fetchListing, xmlFirstText as firstText, type ListingPage, type ListingTransport, xmlText } from "@zarr/store-http";


/**
 * Every page of the listing of `prefix` (full object names) in `bucket` at `endpoint`.
 * The next page starts after the answer's `NextMarker`, or after its last name when a
 * server leaves `NextMarker` out (S3 does without a delimiter).
 */
export async function* listPages(
  transport: ListingTransport,
  endpoint: string,
  bucket: string,
  prefix: string,
  delimiter: string | undefined,
  signal: AbortSignal | undefined,
): AsyncGenerator<ListingPage> {
  let marker: string | undefined;
  for (;;) {
    const query = new URLSearchParams();
    if (prefix !== "") query.set("prefix", prefix);
    if (delimiter !== undefined) query.set("delimiter", delimiter);
    if (marker !== undefined) query.set("marker", marker);
    const url = `${endpoint}/${encodeURIComponent(bucket)}${query.size > 0 ? `?${query}` : ""}`;
    const xml = await fetchListing(transport, url, `gs://${bucket}/${prefix}`, signal);
    const names = elements(xml, "Contents").map((c) => firstText(c, "Key") ?? "");
    const prefixes = elements(xml, "CommonPrefixes").flatMap((c) => elements(c, "Prefix").map(xmlText));
    yield { names, prefixes };
    if (firstText(xml, "IsTruncated") !== "true") return;
    const last = [...names, ...prefixes].sort().at(-1);
    const next = firstText(xml, "NextMarker") || last;
    if (next === undefined || next === marker) {
      throw new ZarrError("STORE_FAILED", `Listing gs://${bucket}/${prefix}: the listing is truncated but makes no progress`);
    }
    marker = next;
  }
}
