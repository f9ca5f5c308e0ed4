/**
 * numcodecs codec configurations (Zarr v2 `filters` and `compressor`) as a Zarr v3 codec
 * chain: `[transpose (order F)] + array→array filters + serializer + bytes→bytes filters +
 * compressor`. The serializer is the object codec of an object array (`vlen-utf8`,
 * `vlen-bytes`, `numcodecs.json2`, `numcodecs.msgpack2`) or else `bytes`, whose `endian`
 * is the byte order of what the last array filter produces (numcodecs hands the
 * compressor the filter output's in-memory bytes).
 */

import type { Registry } from "@zarr/core";
import { type CodecKind, type ExtensionObject, type JsonObject, ZarrError } from "@zarr/spec";
import { type ByteOrder, byteOrderOf, type Dtype, itemSizeOf, parseTypestr } from "./dtype.js";
import type { CodecConfigV2 } from "./metadata.js";

/** Kinds of the numcodecs codecs that appear in Zarr v2 metadata (the registry answers for others). */
const KNOWN_KINDS: Record<string, CodecKind> = {
  delta: "array_to_array",
  fixedscaleoffset: "array_to_array",
  quantize: "array_to_array",
  bitround: "array_to_array",
  packbits: "array_to_array",
  categorize: "array_to_array",
  astype: "array_to_array",
  "vlen-utf8": "array_to_bytes",
  "vlen-bytes": "array_to_bytes",
  "vlen-array": "array_to_bytes",
  json2: "array_to_bytes",
  msgpack2: "array_to_bytes",
  pickle: "array_to_bytes",
  shuffle: "bytes_to_bytes",
  adler32: "bytes_to_bytes",
  crc32: "bytes_to_bytes",
  crc32c: "bytes_to_bytes",
  fletcher32: "bytes_to_bytes",
  jenkins_lookup3: "bytes_to_bytes",
  zlib: "bytes_to_bytes",
  gzip: "bytes_to_bytes",
  zstd: "bytes_to_bytes",
  blosc: "bytes_to_bytes",
  lz4: "bytes_to_bytes",
  bz2: "bytes_to_bytes",
  lzma: "bytes_to_bytes",
  base64: "bytes_to_bytes",
};

/** The v3 data type an object codec stores (`|O` arrays). */
const OBJECT_TYPES: Record<string, string> = {
  "vlen-utf8": "string",
  "vlen-bytes": "bytes",
  json2: "object",
  msgpack2: "object",
};

/** The v3 codec name for a numcodecs id. */
export function v3CodecName(id: string): string {
  if (id === "gzip" || id === "zstd" || id === "blosc" || id === "vlen-utf8" || id === "vlen-bytes") return id;
  return `numcodecs.${id}`;
}

/** The numcodecs id for a v3 codec name (`numcodecs.zlib` → `zlib`, `gzip` → `gzip`). */
export function numcodecsId(name: string): string {
  return name.startsWith("numcodecs.") ? name.slice("numcodecs.".length) : name;
}

async function kindOf(id: string, registry: Registry): Promise<CodecKind | undefined> {
  // Own properties only: an id such as "constructor" must not find Object.prototype's.
  const known = Object.hasOwn(KNOWN_KINDS, id) ? KNOWN_KINDS[id] : undefined;
  if (known !== undefined) return known;
  for (const name of [`numcodecs.${id}`, id]) {
    if (!registry.has("codec", name)) continue;
    try {
      return (await registry.codec(name)).codecKind;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * A compressor is bytes→bytes, except a numcodecs codec that compresses the chunk as an
 * array (zfpy, pcodec: numcodecs hands it the chunk's ndarray), which Zarr v3 makes the
 * serializer in place of `bytes`.
 */
async function compressorKind(id: string, registry: Registry): Promise<CodecKind> {
  return (await kindOf(id, registry)) === "array_to_bytes" ? "array_to_bytes" : "bytes_to_bytes";
}

const BLOSC_SHUFFLE = ["noshuffle", "shuffle", "bitshuffle"];

/** A numcodecs configuration (minus `id`) as the v3 codec's configuration; `typesize` is what the codec receives per element. */
function v3Configuration(id: string, config: JsonObject, typesize: number): JsonObject {
  const { id: _id, ...rest } = config;
  switch (id) {
    case "gzip":
      return { level: typeof rest.level === "number" ? rest.level : 5 };
    case "zstd":
      return { level: typeof rest.level === "number" ? rest.level : 0, checksum: rest.checksum === true };
    case "blosc": {
      const raw = typeof rest.shuffle === "number" ? rest.shuffle : 1;
      const shuffle = raw === -1 ? (typesize > 1 ? "shuffle" : "bitshuffle") : (BLOSC_SHUFFLE[raw] ?? "shuffle");
      return {
        cname: typeof rest.cname === "string" ? rest.cname : "lz4",
        clevel: typeof rest.clevel === "number" ? rest.clevel : 5,
        shuffle,
        typesize: Math.max(1, typesize),
        blocksize: typeof rest.blocksize === "number" ? rest.blocksize : 0,
      };
    }
    case "lzma": {
      // GDAL writes {"preset", "delta"}; its .xz streams name their own filters, so "delta" can go.
      const { delta: _delta, ...lzma } = rest;
      return lzma;
    }
    default:
      return rest;
  }
}

/** What a v2 array's codecs become in the v3 model. */
export interface MappedChain {
  codecs: ExtensionObject[];
  /** The v3 data type an object codec implies for `|O` arrays (`undefined` otherwise). */
  objectType: string | undefined;
}

/** NumPy type a numcodecs array filter produces from `input` (only byte order and size matter here). */
function filterOutput(id: string, config: JsonObject, input: { order: ByteOrder; size: number }): { order: ByteOrder; size: number } {
  const field = id === "astype" ? config.encode_dtype : id === "packbits" ? "|u1" : id === "bitround" ? undefined : (config.astype ?? config.dtype);
  if (typeof field !== "string") return input;
  const d = parseTypestr(field);
  if (d === undefined || d.kind === "O") return input;
  return { order: d.order, size: d.itemSize };
}

/**
 * Maps a v2 array's `order`, `filters` and `compressor` onto a v3 codec chain. Throws
 * `UNSUPPORTED` when the order of filters has no v3 form (an array filter after a bytes
 * filter).
 */
export async function v2CodecsToV3(
  v2: { order: "C" | "F"; filters: readonly CodecConfigV2[] | null; compressor: CodecConfigV2 | null; ndim: number },
  dtype: Dtype,
  registry: Registry,
  where: string,
): Promise<MappedChain> {
  const arrayCodecs: ExtensionObject[] = [];
  const bytesCodecs: ExtensionObject[] = [];
  let serializer: ExtensionObject | undefined;
  let objectType: string | undefined;
  if (v2.order === "F" && v2.ndim > 1) {
    arrayCodecs.push({ name: "transpose", configuration: { order: [...Array(v2.ndim).keys()].reverse() } });
  }
  let current = { order: byteOrderOf(dtype), size: itemSizeOf(dtype) };
  // Bytes per element the next bytes→bytes codec sees (blosc's typesize).
  let typesize = 1;
  for (const filter of [...(v2.filters ?? []), ...(v2.compressor === null ? [] : [v2.compressor])]) {
    const id = filter.id;
    const kind = v2.compressor === filter ? await compressorKind(id, registry) : await kindOf(id, registry);
    if (kind === "array_to_array" || kind === undefined) {
      if (serializer !== undefined || bytesCodecs.length > 0) {
        throw new ZarrError(
          "UNSUPPORTED",
          `The filter "${id}" of ${where} works on arrays but comes after a filter that makes bytes; Zarr v3 cannot express this order`,
        );
      }
      arrayCodecs.push({ name: v3CodecName(id), configuration: v3Configuration(id, filter, 1) });
      current = filterOutput(id, filter, current);
      continue;
    }
    if (kind === "array_to_bytes") {
      if (serializer !== undefined || bytesCodecs.length > 0) {
        throw new ZarrError("UNSUPPORTED", `The object codec "${id}" of ${where} comes after another serializing filter`);
      }
      serializer = { name: v3CodecName(id), configuration: v3Configuration(id, filter, 1) };
      objectType = Object.hasOwn(OBJECT_TYPES, id) ? OBJECT_TYPES[id] : undefined;
      typesize = 1;
      continue;
    }
    if (serializer === undefined) {
      serializer = bytesSerializer(current);
      typesize = current.size;
    }
    bytesCodecs.push({ name: v3CodecName(id), configuration: v3Configuration(id, filter, typesize) });
    if (id !== "shuffle") typesize = 1;
  }
  if (serializer === undefined) serializer = bytesSerializer(current);
  return { codecs: [...arrayCodecs, serializer, ...bytesCodecs], objectType };
}

function bytesSerializer(current: { order: ByteOrder }): ExtensionObject {
  return { name: "bytes", configuration: current.order === "|" ? {} : { endian: current.order === ">" ? "big" : "little" } };
}
