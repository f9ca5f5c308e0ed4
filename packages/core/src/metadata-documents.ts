/**
 * @zarr/spec's full validating parser of `zarr.json` documents and their writer, loaded
 * on first use: `readNodeMetadata` needs the parser only for documents that are not in
 * the plain form (`plain-metadata.ts`), and only writes need the writer. Kept out of the
 * modules every read loads (bundle size).
 */
export { nodeMetadataToJson, parseArrayMetadata, parseNodeMetadata } from "@zarr/spec";
