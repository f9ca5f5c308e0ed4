/**
 * @zarr/codec-filters: the numcodecs filters and checksums as Zarr v3 codecs, under the
 * names zarr-python 3 writes (`numcodecs.<id>`) and the registered extension names
 * (`bitround`, `packbits`, `scale_offset`, `cast_value`, `reshape`). Each entry is
 * exported on its own (tree-shakable); `filterCodecs` lists them all.
 */
import type { CodecEntry } from "@zarr/spec";
import { asType } from "./codecs/astype.js";
import { bitround, numcodecsBitround } from "./codecs/bitround.js";
import { castValue, castValueDraft } from "./codecs/cast-value.js";
import { categorize } from "./codecs/categorize.js";
import { adler32Codec, crc32Codec, fletcher32Codec, jenkinsLookup3Codec } from "./codecs/checksums.js";
import { delta } from "./codecs/delta.js";
import { fixedScaleOffset } from "./codecs/fixedscaleoffset.js";
import { json2 } from "./codecs/json2.js";
import { msgpack2 } from "./codecs/msgpack2.js";
import { numcodecsPackBits } from "./codecs/numcodecs-packbits.js";
import { packBits } from "./codecs/packbits.js";
import { quantize } from "./codecs/quantize.js";
import { reshape } from "./codecs/reshape.js";
import { scaleOffset } from "./codecs/scale-offset.js";
import { shuffle } from "./codecs/shuffle.js";

export {
  adler32Codec,
  asType,
  bitround,
  castValue,
  castValueDraft,
  categorize,
  crc32Codec,
  delta,
  fixedScaleOffset,
  fletcher32Codec,
  jenkinsLookup3Codec,
  json2,
  msgpack2,
  numcodecsBitround,
  numcodecsPackBits,
  packBits,
  quantize,
  reshape,
  scaleOffset,
  shuffle,
};
/** Adler-32 (zlib's): the shared implementation from @zarr/spec. */
export { adler32 } from "@zarr/spec";
export { crc32 } from "./checksums/crc32.js";
export { fletcher32 } from "./checksums/fletcher32.js";
export { lookup3 } from "./checksums/lookup3.js";

/**
 * Every codec of this package, for `createRegistry`.
 *
 * @example
 * ```ts
 * import { createRegistry } from "@zarr/core";
 * import { filterCodecs } from "@zarr/codec-filters";
 * const registry = createRegistry(filterCodecs);
 * ```
 */
export const filterCodecs: CodecEntry[] = [
  delta,
  fixedScaleOffset,
  quantize,
  numcodecsBitround,
  bitround,
  asType,
  numcodecsPackBits,
  packBits,
  categorize,
  shuffle,
  scaleOffset,
  castValue,
  castValueDraft,
  reshape,
  adler32Codec,
  crc32Codec,
  fletcher32Codec,
  jenkinsLookup3Codec,
  json2,
  msgpack2,
];
