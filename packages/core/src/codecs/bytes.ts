/**
 * The `bytes` codec: the data type's fixed-size binary representation in little- or
 * big-endian order. Decoding is a zero-copy view when the bytes are little-endian and
 * aligned (the data type decides; see `DataType.fromBytes`).
 */
import {
  type ArrayToBytesCodec,
  type ChunkSpec,
  type CodecEntry,
  type JsonObject,
  cStrides,
  describeJson,
  MetadataError,
  shapeSize,
  ZarrError,
} from "@zarr/spec";

function expectedSize(spec: ChunkSpec): number {
  return shapeSize(spec.shape) * (spec.dataType.byteSize ?? 0);
}

/** The `bytes` codec entry. */
export const bytesCodec: CodecEntry = {
  type: "codec",
  name: "bytes",
  codecKind: "array_to_bytes",
  fromConfig(configuration, { spec, path }): ArrayToBytesCodec {
    for (const k of Object.keys(configuration)) {
      if (k !== "endian") throw new MetadataError([...path, "configuration", k], `unknown configuration field "${k}"`);
    }
    const { dataType } = spec;
    if (dataType.byteSize === undefined || dataType.fromBytes === undefined || dataType.toBytes === undefined) {
      const hint = dataType.kind === "string" ? " (use vlen-utf8)" : dataType.kind === "bytes" ? " (use vlen-bytes)" : "";
      throw new MetadataError(
        path,
        `the bytes codec needs a fixed-size data type, but "${dataType.name}" has variable-size elements${hint}`,
      );
    }
    const endian = configuration.endian;
    if (endian !== undefined && endian !== "little" && endian !== "big") {
      throw new MetadataError([...path, "configuration", "endian"], `expected "little" or "big", got ${describeJson(endian)}`);
    }
    if (endian === undefined && dataType.componentSize > 1) {
      throw new MetadataError(
        [...path, "configuration", "endian"],
        `required for the multi-byte data type "${dataType.name}" ("little" or "big")`,
      );
    }
    const littleEndian = endian !== "big";
    const fromBytes = dataType.fromBytes.bind(dataType);
    const toBytes = dataType.toBytes.bind(dataType);
    return {
      kind: "array_to_bytes",
      name: "bytes",
      encode(chunk) {
        return toBytes(chunk.data, littleEndian);
      },
      decode(bytes, chunkSpec, ctx) {
        const n = shapeSize(chunkSpec.shape);
        const want = n * (chunkSpec.dataType.byteSize ?? 0);
        if (bytes.length !== want) {
          throw new ZarrError(
            "CODEC_FAILED",
            `Chunk "${ctx.key}" has ${bytes.length} bytes, but ${JSON.stringify(chunkSpec.shape)} elements of ${chunkSpec.dataType.name} take ${want}`,
            { key: ctx.key },
          );
        }
        return { data: fromBytes(bytes, n, littleEndian), shape: chunkSpec.shape.slice(), stride: cStrides(chunkSpec.shape) };
      },
      computeEncodedSize: expectedSize,
      toJSON: () => ({ name: "bytes", configuration: endian === undefined ? ({} as JsonObject) : { endian } }),
    };
  },
};
