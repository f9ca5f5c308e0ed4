/**
 * @zarr/v2-compat's storage formats (Zarr v2, the early v3 draft), in a module the CLI
 * imports only dynamically, the first time a path has no zarr.json.
 */
export { draftFormat, v2Format } from "@zarr/v2-compat";
