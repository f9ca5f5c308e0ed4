/**
 * Listing a container: `GET /CONTAINER?restype=container&comp=list&prefix=…&delimiter=/&marker=…`,
 * answered with `EnumerationResults` (`<Blob><Name>`, `<BlobPrefix><Name>`), paged with `NextMarker`.
 */
import { ZarrError } from "@zarr/spec";
import { fetchListing, type ListingPage, type ListingTransport, xmlElements, xmlFirstText } from "@zarr/store-http";


/** What a listing needs: the transport, the container URL and its query (SAS), and a secret-free name for errors. */
export interface ContainerListing {
  transport: ListingTransport;
  /** `https://ACCOUNT.blob.core.windows.net/CONTAINER` */
  containerUrl: string;
  sasToken: string | undefined;
  /** `maxresults` per page, when set. */
  pageSize: number | undefined;
  /** `az://container/` (for messages; never the SAS). */
  name: string;
}

/** Every page of the listing of `prefix` (full blob names), following `NextMarker`. */
export async function* listPages(where: ContainerListing, prefix: string, delimiter: string | undefined, signal: AbortSignal | undefined): AsyncGenerator<ListingPage> {
  let marker: string | undefined;
  for (;;) {
    const query = new URLSearchParams({ restype: "container", comp: "list" });
    if (prefix !== "") query.set("prefix", prefix);
    if (delimiter !== undefined) query.set("delimiter", delimiter);
    if (marker !== undefined) query.set("marker", marker);
    if (where.pageSize !== undefined) query.set("maxresults", String(where.pageSize));
    const sas = where.sasToken === undefined ? "" : `&${where.sasToken}`;
    const xml = await fetchListing(where.transport, `${where.containerUrl}?${query}${sas}`, `${where.name}${prefix}`, signal);
    const names = xmlElements(xml, "Blob").map((b) => xmlFirstText(b, "Name") ?? "");
    const prefixes = xmlElements(xml, "BlobPrefix").map((b) => xmlFirstText(b, "Name") ?? "");
    yield { names, prefixes };
    const next = xmlFirstText(xml, "NextMarker");
    if (next === undefined || next === "") return;
    if (next === marker) throw new ZarrError("STORE_FAILED", `Listing ${where.name}${prefix}: the listing repeats its marker and makes no progress`);
    marker = next;
  }
}
