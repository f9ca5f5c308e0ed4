/** The npm package that provides the built-in data types (named in registry errors). */
export const CORE_PACKAGE = "@zarr/core";
