/**
 * The `bytes` codec: the data type's fixed-size binary representation in little- or
 * big-endian order. Decoding is a zero-copy view when the bytes are little-endian and
 * aligned (the data type decides; see `DataType.fromBytes`); when the bytes are exactly
 * the result's memory layout and the store can scatter-read, a chunk goes from the store
 * straight into the result (`decodePartialInto`).
 */
import {
  type ArrayToBytesCodec,
  type ByteSource,
  type ChunkSpec,
  type CodecCallContext,
  type CodecEntry,
  copyRegion,
  cStrides,
  type DecodeTarget,
  type JsonObject,
  shapeSize,
  workerModuleUrl,
  ZarrError,
} from "@zarr/spec";
import { MACHINE_LITTLE_ENDIAN } from "../data-types/machine-endian.js";

/** The error of a stored value whose size is not the chunk's. */
export function wrongSize(key: string, got: number, spec: ChunkSpec, want: number): ZarrError {
  return new ZarrError(
    "CODEC_FAILED",
    `Chunk "${key}" has ${got} bytes, but ${JSON.stringify(spec.shape)} elements of ${spec.dataType.name} take ${want}`,
    { key },
  );
}

/** The partial reads of bytes-partial.ts, loaded with the first one, then kept. */
let partial: typeof import("./bytes-partial.js") | undefined;

function expectedSize(spec: ChunkSpec): number {
  return shapeSize(spec.shape) * (spec.dataType.byteSize ?? 0);
}


/** The `bytes` codec entry. */
export const bytesCodec: CodecEntry = {
  type: "codec",
  name: "bytes",
  codecKind: "array_to_bytes",
  worker: { moduleUrl: workerModuleUrl(import.meta.url, "bytes.js"), moduleName: "@zarr/core/engine-task", exportName: "bytesCodec" },
  lightweight: true,
  // Multi-byte types need a byte order: a writer fills in the little-endian default.
  withDefaults: (configuration, { multiByte }) =>
    multiByte && configuration.endian === undefined ? { ...configuration, endian: "little" } : configuration,
  async fromConfig(configuration, { spec, path }): Promise<ArrayToBytesCodec> {
    const { dataType } = spec;
    const endian = configuration.endian;
    if (
      Object.keys(configuration).some((k) => k !== "endian") ||
      dataType.byteSize === undefined ||
      dataType.fromBytes === undefined ||
      dataType.toBytes === undefined ||
      (endian === undefined ? dataType.componentSize > 1 : endian !== "little" && endian !== "big")
    ) {
      // The messages load only for a configuration that has a problem (bundle size).
      throw (await import("./bytes-configuration.js")).configurationError(configuration, dataType, path);
    }
    const littleEndian = endian !== "big";
    const fromBytes = dataType.fromBytes.bind(dataType);
    const toBytes = dataType.toBytes.bind(dataType);
    // The stored bytes are the elements' memory: scatter reads may put them in place.
    const bytesAreLayout =
      MACHINE_LITTLE_ENDIAN && dataType.bytesAreMemory === true && (littleEndian || dataType.componentSize === 1);
    const decode = (bytes: Uint8Array, chunkSpec: ChunkSpec, ctx: CodecCallContext) => {
      const n = shapeSize(chunkSpec.shape);
      const want = n * (chunkSpec.dataType.byteSize ?? 0);
      if (bytes.length !== want) throw wrongSize(ctx.key, bytes.length, chunkSpec, want);
      return { data: fromBytes(bytes, n, littleEndian), shape: chunkSpec.shape.slice(), stride: cStrides(chunkSpec.shape) };
    };
    const decodeInto = (bytes: Uint8Array, chunkSpec: ChunkSpec, target: DecodeTarget, ctx: CodecCallContext) => {
      copyRegion(decode(bytes, chunkSpec, ctx), target.src, target.out, target.dst, chunkSpec.dataType.width);
    };
    return {
      kind: "array_to_bytes",
      name: "bytes",
      encode(chunk) {
        return toBytes(chunk.data, littleEndian);
      },
      decode,
      decodeInto,
      async decodePartialInto(source: ByteSource, chunkSpec: ChunkSpec, target: DecodeTarget, ctx: CodecCallContext) {
        // Loaded with the first chunk of a chain of this codec alone: most chains compress,
        // and theirs never call it (bundle size).
        partial ??= await import("./bytes-partial.js");
        return partial.decodeBytesPartial(source, chunkSpec, target, ctx, { bytesAreLayout, decodeInto, wrongSize });
      },
      computeEncodedSize: expectedSize,
      toJSON: () => ({ name: "bytes", configuration: endian === undefined ? ({} as JsonObject) : { endian } }),
    };
  },
};
