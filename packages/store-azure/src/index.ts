/**
 * @zarr/store-azure: a Zarr store on Azure Blob Storage, over the Blob REST API through
 * @zarr/store-http (no Azure SDK): anonymous, SAS-token or Shared Key reads, listing and writes.
 * Registers the `az://`, `abfs://`, `abfss://` and `azure+https://` URL schemes.
 */
export { AzureStore, type AzureStoreOptions } from "./azure-store.js";
export { type ParsedAzureUrl, parseAzureUrl } from "./azure-url.js";
export { azureStoreEntry } from "./entry.js";
export { AZURE_API_VERSION } from "./settings.js";
