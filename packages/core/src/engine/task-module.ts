/**
 * @zarr/core/engine-task: what workers load from core — the chunk tasks (`readChunk`, `decodeChunk`, `encodeChunk`) and
 * core's own codec entries (`bytes`, `transpose`), which name this module as their
 * `moduleName`.
 */
export { bytesCodec } from "../codecs/bytes.js";
export { transposeCodec } from "../codecs/transpose.js";
export { decodeChunk, encodeChunk, readChunk, type WorkerArray, type WorkerChunkDecode, type WorkerChunkEncode, type WorkerChunkRead, type WorkerReadAnswer } from "./worker-task.js";
