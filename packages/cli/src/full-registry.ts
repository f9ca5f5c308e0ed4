/**
 * @zarr/all's registry (every codec and store), in a module the CLI imports only
 * dynamically, when a command first resolves a codec or store. The named import keeps
 * bundlers from pulling in the rest of @zarr/all.
 */
export { registry as fullRegistry } from "@zarr/all";
