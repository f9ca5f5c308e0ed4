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
import type { scatterRanges as ScatterRanges } from "./scatter-ranges.js";

/**
 * The planner of scatter reads, loaded with the first chunk that can be read straight
 * into its result (bundle size: arrays of compressed chunks never need it), then kept.
 */
let scatterRanges: typeof ScatterRanges | undefined;

function expectedSize(spec: ChunkSpec): number {
  return shapeSize(spec.shape) * (spec.dataType.byteSize ?? 0);
}

function wrongSize(key: string, got: number, spec: ChunkSpec, want: number): ZarrError {
  return new ZarrError(
    "CODEC_FAILED",
    `Chunk "${key}" has ${got} bytes, but ${JSON.stringify(spec.shape)} elements of ${spec.dataType.name} take ${want}`,
    { key },
  );
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
        const itemBytes = chunkSpec.dataType.byteSize ?? 0;
        const direct = bytesAreLayout && source.readInto !== undefined && ArrayBuffer.isView(target.out.data);
        if (direct) scatterRanges ??= (await import("./scatter-ranges.js")).scatterRanges;
        const ranges =
          direct && scatterRanges !== undefined
            ? scatterRanges(chunkSpec.shape, target.src, target.out, target.dst, itemBytes)
            : undefined;
        if (ranges === undefined) {
          // Not a layout a scatter read can fill: read the value and copy from it.
          const bytes = await source.get(undefined, ctx.signal);
          if (bytes === undefined) return false;
          decodeInto(bytes, chunkSpec, target, ctx);
          return true;
        }
        const size = await (source.readInto as NonNullable<ByteSource["readInto"]>)(ranges, ctx.signal);
        if (size === undefined) return false;
        // A value of another size (truncated, or not this array's chunk) leaves the
        // targets unspecified: the read fails rather than return short data.
        const want = shapeSize(chunkSpec.shape) * itemBytes;
        if (size !== want) throw wrongSize(ctx.key, size, chunkSpec, want);
        return true;
      },
      computeEncodedSize: expectedSize,
      toJSON: () => ({ name: "bytes", configuration: endian === undefined ? ({} as JsonObject) : { endian } }),
    };
  },
};
