/**
 * @zarr/core/engine-task: what workers load from core — the chunk task (`readChunk`) and
 * core's own codec entries (`bytes`, `transpose`), which name this module as their
 * `moduleName`.
 */
export { bytesCodec } from "../codecs/bytes.js";
export { transposeCodec } from "../codecs/transpose.js";
export { readChunk, type WorkerArray, type WorkerChunkRead } from "./worker-task.js";
