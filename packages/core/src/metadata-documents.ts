/**
 * @zarr/spec's full validating parser of `zarr.json` documents and their writer, loaded
 * on first use: `readNodeMetadata` needs the parser only for documents that are not in
 * the plain form (`plain-metadata.ts`), and only writes need the writer. Kept out of the
 * modules every read loads (bundle size).
 */
export { nodeMetadataToJson, parseArrayMetadata, parseNodeMetadata } from "@zarr/spec";
// The parser reaches spec's json.js, which every read loads: this module imports it through
// up-front.ts as the other lazy modules do, so json.js shares their chunk (see up-front.ts).
export { parseJson } from "./up-front.js";
