/**
 * Builds and runs a codec chain: array→array codecs, exactly one array→bytes codec,
 * then bytes→bytes codecs. Validation happens once, when an array is opened.
 */
import {
  type ArrayToArrayCodec,
  type ArrayToBytesCodec,
  asZarrError,
  type BytesToBytesCodec,
  type ChunkSpec,
  type Codec,
  type CodecBuildContext,
  type CodecCallContext,
  type CodecPipeline,
  type ExtensionObject,
  type JsonPath,
  MetadataError,
  type NdArray,
  cStrides,
  shapeSize,
  throwIfAborted,
  type WorkerCall,
  toCContiguous,
  ZarrError,
} from "@zarr/spec";
import type { Registry } from "./registry.js";

const KIND_TEXT = {
  array_to_array: "array→array",
  array_to_bytes: "array→bytes",
  bytes_to_bytes: "bytes→bytes",
} as const;

/**
 * Resolves `codecs` (as in metadata) through `registry` into a pipeline for chunks of
 * `spec`. Throws `MetadataError` for a malformed chain and `CODEC_UNKNOWN` for a codec
 * the registry does not have (codecs marked `"must_understand": false` are skipped).
 */
export async function buildPipeline(
  codecs: readonly ExtensionObject[],
  spec: ChunkSpec,
  registry: Registry,
  options: { key?: string; path?: JsonPath } = {},
): Promise<CodecPipeline> {
  const basePath = options.path ?? ["codecs"];
  const arrayToArray: ArrayToArrayCodec[] = [];
  let arrayToBytes: ArrayToBytesCodec | undefined;
  const bytesToBytes: BytesToBytesCodec[] = [];
  let current = spec;
  for (let i = 0; i < codecs.length; i++) {
    const def = codecs[i];
    const path = [...basePath, i];
    let entry: Awaited<ReturnType<Registry["codec"]>>;
    try {
      entry = await registry.codec(def.name, { key: options.key, path });
    } catch (error) {
      if (def.must_understand === false && error instanceof ZarrError && error.code === "CODEC_UNKNOWN") continue;
      throw error;
    }
    const stage = entry.codecKind;
    if (stage === "array_to_array" && arrayToBytes !== undefined) {
      throw new MetadataError(path, `array→array codec "${def.name}" must come before the array→bytes codec`, { key: options.key });
    }
    if (stage === "array_to_bytes" && arrayToBytes !== undefined) {
      throw new MetadataError(
        path,
        `a second array→bytes codec "${def.name}" (the chain already has "${arrayToBytes.name}"; exactly one is allowed)`,
        { key: options.key },
      );
    }
    if (stage === "bytes_to_bytes" && arrayToBytes === undefined) {
      throw new MetadataError(path, `bytes→bytes codec "${def.name}" must come after an array→bytes codec such as "bytes"`, {
        key: options.key,
      });
    }
    const context: CodecBuildContext = {
      spec: current,
      path,
      buildPipeline: (inner, innerSpec, innerPath) => buildPipeline(inner, innerSpec, registry, { key: options.key, path: innerPath }),
      resolveDataType: async (name, configuration = {}) => {
        const dt = await registry.dataType(name, { key: options.key, path });
        return dt.fromConfig(name, configuration, path);
      },
    };
    let codec: Codec;
    try {
      codec = await entry.fromConfig(def.configuration, context);
    } catch (error) {
      if (error instanceof MetadataError && error.key === undefined && options.key !== undefined) {
        throw new MetadataError(error.path, error.problem, { key: options.key, cause: error });
      }
      throw asZarrError(error, "METADATA_INVALID", `Invalid configuration of codec "${def.name}" at codecs[${i}]`, options.key);
    }
    if (codec.kind !== stage) {
      throw new ZarrError(
        "METADATA_INVALID",
        `Codec "${def.name}" is registered as ${KIND_TEXT[stage]} but built a ${KIND_TEXT[codec.kind]} codec`,
      );
    }
    if (codec.kind === "array_to_array") {
      arrayToArray.push(codec);
      current = codec.encodedSpec(current);
    } else if (codec.kind === "array_to_bytes") arrayToBytes = codec;
    else bytesToBytes.push(codec);
  }
  if (arrayToBytes === undefined) {
    throw new MetadataError(basePath, 'the codec chain has no array→bytes codec (such as "bytes")', { key: options.key });
  }
  return new Pipeline(arrayToArray, arrayToBytes, bytesToBytes);
}

function failed(error: unknown, codec: Codec, op: string, ctx: CodecCallContext): ZarrError {
  if (error instanceof ZarrError) return error;
  return asZarrError(error, "CODEC_FAILED", `Codec "${codec.name}" failed to ${op} chunk "${ctx.key}"`, ctx.key);
}

export class Pipeline implements CodecPipeline {
  readonly codecs: readonly Codec[];
  readonly decodePartial: CodecPipeline["decodePartial"];
  readonly encodePartial: CodecPipeline["encodePartial"];

  constructor(
    private readonly arrayToArray: readonly ArrayToArrayCodec[],
    private readonly arrayToBytes: ArrayToBytesCodec,
    private readonly bytesToBytes: readonly BytesToBytesCodec[],
  ) {
    this.codecs = [...arrayToArray, arrayToBytes, ...bytesToBytes];
    // Partial decoding reads byte ranges of the stored value, which is only possible
    // when nothing transforms the value as a whole before the array→bytes codec sees it.
    const partial = arrayToBytes.decodePartial;
    this.decodePartial =
      partial !== undefined && arrayToArray.length === 0 && bytesToBytes.length === 0
        ? async (source, selection, spec, ctx) => {
            try {
              return await partial.call(arrayToBytes, source, selection, spec, ctx);
            } catch (error) {
              throw failed(error, arrayToBytes, "decode", ctx);
            }
          }
        : undefined;
    const partialWrite = arrayToBytes.encodePartial;
    this.encodePartial =
      partialWrite !== undefined && arrayToArray.length === 0 && bytesToBytes.length === 0
        ? async (source, update, spec, ctx) => {
            try {
              return await partialWrite.call(arrayToBytes, source, update, spec, ctx);
            } catch (error) {
              throw failed(error, arrayToBytes, "encode", ctx);
            }
          }
        : undefined;
  }

  /** The spec entering each array→array codec, and the one entering the array→bytes codec. */
  private specs(spec: ChunkSpec): ChunkSpec[] {
    const out = [spec];
    for (const c of this.arrayToArray) out.push(c.encodedSpec(out[out.length - 1]));
    return out;
  }

  async encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): Promise<Uint8Array> {
    const specs = this.specs(spec);
    let array = chunk;
    for (let i = 0; i < this.arrayToArray.length; i++) {
      const c = this.arrayToArray[i];
      try {
        array = await c.encode(array, specs[i], ctx);
      } catch (error) {
        throw failed(error, c, "encode", ctx);
      }
    }
    const abSpec = specs[specs.length - 1];
    let bytes: Uint8Array;
    try {
      if (!this.arrayToBytes.acceptsStrided) array = toCContiguous(array, abSpec.dataType);
      bytes = await this.arrayToBytes.encode(array, abSpec, ctx);
    } catch (error) {
      throw failed(error, this.arrayToBytes, "encode", ctx);
    }
    for (const c of this.bytesToBytes) {
      throwIfAborted(ctx.signal);
      try {
        bytes = await c.encode(bytes, ctx);
      } catch (error) {
        throw failed(error, c, "encode", ctx);
      }
    }
    return bytes;
  }

  async decode(bytes: Uint8Array, spec: ChunkSpec, ctx: CodecCallContext): Promise<NdArray> {
    for (let i = this.bytesToBytes.length - 1; i >= 0; i--) {
      const c = this.bytesToBytes[i];
      throwIfAborted(ctx.signal);
      try {
        bytes = await c.decode(bytes, ctx);
      } catch (error) {
        throw failed(error, c, "decode", ctx);
      }
    }
    const specs = this.specs(spec);
    let array: NdArray;
    try {
      array = await this.arrayToBytes.decode(bytes, specs[specs.length - 1], ctx);
    } catch (error) {
      throw failed(error, this.arrayToBytes, "decode", ctx);
    }
    for (let i = this.arrayToArray.length - 1; i >= 0; i--) {
      const c = this.arrayToArray[i];
      try {
        array = await c.decode(array, specs[i], ctx);
      } catch (error) {
        throw failed(error, c, "decode", ctx);
      }
    }
    return array;
  }

  computeEncodedSize(spec: ChunkSpec): number | undefined {
    const specs = this.specs(spec);
    let size = this.arrayToBytes.computeEncodedSize?.(specs[specs.length - 1]);
    for (const c of this.bytesToBytes) {
      if (size === undefined) return undefined;
      size = c.computeEncodedSize?.(size);
    }
    return size;
  }

  clearCache(): void {
    this.arrayToBytes.clearCache?.();
  }

  /**
   * How a worker can decode chunks of `spec` on its own: only when the chain is transposes,
   * a little-endian (or single-byte) `bytes` codec over a type whose bytes are its memory,
   * and bytes→bytes codecs that say how to run in a worker. The chunk view comes from
   * running the transposes' (metadata-only) decode on an empty chunk.
   */
  async workerPlan(
    spec: ChunkSpec,
    ctx: CodecCallContext,
  ): Promise<{ stages: WorkerCall[]; expectedBytes: number; chunkStride: number[]; chunkOffset: number } | undefined> {
    const ab = this.arrayToBytes;
    if (ab.name !== "bytes" || spec.dataType.bytesAreMemory !== true || spec.dataType.byteSize === undefined) return undefined;
    if (ab.toJSON().configuration.endian === "big" && spec.dataType.componentSize > 1) return undefined;
    if (this.arrayToArray.some((c) => c.name !== "transpose")) return undefined;
    const stages: WorkerCall[] = [];
    for (let i = this.bytesToBytes.length - 1; i >= 0; i--) {
      const call = this.bytesToBytes[i].workerDecode?.(ctx);
      if (call === undefined) return undefined;
      stages.push(call);
    }
    const specs = this.specs(spec);
    const encodedShape = specs[specs.length - 1].shape;
    let view: NdArray = { data: [], shape: encodedShape, stride: cStrides(encodedShape) };
    for (let i = this.arrayToArray.length - 1; i >= 0; i--) view = await this.arrayToArray[i].decode(view, specs[i], ctx);
    return {
      stages,
      expectedBytes: shapeSize(encodedShape) * spec.dataType.byteSize,
      chunkStride: view.stride,
      chunkOffset: view.offset ?? 0,
    };
  }

  invalidate(key: string): void {
    this.arrayToBytes.invalidate?.(key);
  }

  toJSON(): ExtensionObject[] {
    return this.codecs.map((c) => c.toJSON());
  }
}
