/**
 * @zarr/core: Zarr v3 groups and arrays — open, create, get, set, resize — with the
 * registry, data types, chunk grids, key encodings, the codec pipeline (built-in `bytes`
 * and `transpose`) and an in-memory store.
 *
 * Every registry holds every built-in extension, but this entry point exports only the
 * common ones (`bool`, integer and `float32`/`float64` data types, the `regular` grid, the
 * key encodings, `bytes`); registries load every data type's code the first time an
 * array needs it. The others (the remaining data types, the `rectilinear` grid,
 * `transpose`) load on first use and are exported by `@zarr/core/extensions`, so a
 * bundle that imports this entry point keeps them out of its first chunk.
 */
export * from "./api.js";
// `export *` keeps these lazily loaded modules out of a bundle's first chunk (see api.ts).
export * from "./data-types/numeric.js";
export * from "@zarr/spec";
