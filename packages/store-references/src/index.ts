/**
 * @zarr/store-references: kerchunk and VirtualiZarr reference sets as read-only Zarr
 * stores. NetCDF4/HDF5, GRIB and TIFF files read as Zarr without copying a byte: each key's
 * bytes are inline in the reference document or a byte range of a target file, read
 * through that file's own store (file system, HTTP, S3, GCS, Azure).
 */
export { DEFAULT_MAX_REFERENCES, parseReferenceDocument, type Reference, type ReferenceDocumentOptions } from "./document.js";
export { parseReferenceBytes } from "./document-bytes.js";
export { referenceStoreEntry } from "./entry.js";
export { type OpenReferencesOptions, openReferences } from "./open-references.js";
export { parquetReferenceSource } from "./parquet.js";
export { type ReferenceSource, ReferenceStore, type ReferenceStoreOptions, tableSource } from "./reference-store.js";
export { ReferenceTable } from "./reference-table.js";
export { type OpenTarget, splitTarget, type TargetFile } from "./targets.js";
export { renderTemplate, type TemplateValue } from "./template.js";
