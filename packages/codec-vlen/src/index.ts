/**
 * @zarr/codec-vlen: the `vlen-utf8` and `vlen-bytes` array→bytes codecs for
 * variable-length strings and byte strings, in the numcodecs VLenUTF8 / VLenBytes
 * layout (uint32 LE item count, then per item a uint32 LE byte length and the bytes).
 */
export { VlenBytesCodec, VlenUtf8Codec, vlenBytes, vlenUtf8 } from "./codecs.js";
