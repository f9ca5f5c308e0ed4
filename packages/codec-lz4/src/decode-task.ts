/** Worker-side entry point: numcodecs lz4 decoding run by a worker pool (see `offload` in @zarr/spec). */
export { numcodecsLz4Decode as decode } from "./numcodecs-lz4.js";
