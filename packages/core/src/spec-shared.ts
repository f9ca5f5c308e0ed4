/**
 * What limit-errors.ts and limit-options.ts use of @zarr/spec: `ZarrError` (errors.js),
 * re-exported together with a value of store.js. They cannot import up-front.ts (it
 * re-exports limits.ts, which loads them: a cycle), so they import this instead.
 *
 * Why (bundle size and requests): every read loads errors.js and store.js, and lazy
 * modules of every package reach both. With code splitting, esbuild puts modules reached
 * by the same entry points into one chunk; a lazy module reaching errors.js alone would
 * split it from store.js, which the first read then loads as one more file.
 */
export { isListable, ZarrError } from "@zarr/spec";
