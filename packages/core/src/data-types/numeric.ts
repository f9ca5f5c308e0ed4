/**
 * The common numeric data types (`bool`, the integers, `float32`, `float64`) for the
 * public API: their entries and classes. Each family lives in a module of its own that
 * registries load on first use (builtin.ts); this module gathers them with `export *`,
 * which lets bundlers keep those modules out of an app's first chunk when it does not
 * import them by name.
 */
export * from "./bool-entries.js";
export * from "./float-entries.js";
export * from "./integer-entries.js";
