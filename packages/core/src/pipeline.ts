/**
 * Builds and runs a codec chain: array→array codecs, exactly one array→bytes codec,
 * then bytes→bytes codecs. Validation happens once, when an array is opened.
 */
import {
  type ArrayToArrayCodec,
  type ArrayToBytesCodec,
  asZarrError,
  type ByteSource,
  type BytesToBytesCodec,
  type ChunkSpec,
  type Codec,
  type CodecBuildContext,
  type CodecCallContext,
  type CodecEntry,
  type CodecPipeline,
  copyRegion,
  DEFAULT_MAX_CHUNK_BYTES,
  type DecodeTarget,
  type DimIndexer,
  decodedSizeExceeded,
  type ExtensionObject,
  type JsonPath,
  MetadataError,
  type ModuleExport,
  type NdArray,
  throwIfAborted,
  toCContiguous,
  ZarrError,
} from "@zarr/spec";
import { giveScratch, takeScratch } from "./engine/scratch.js";
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
  options: { key?: string; path?: JsonPath; maxChunkBytes?: number } = {},
): Promise<Pipeline> {
  const maxChunkBytes = options.maxChunkBytes ?? DEFAULT_MAX_CHUNK_BYTES;
  const basePath = options.path ?? ["codecs"];
  const arrayToArray: ArrayToArrayCodec[] = [];
  let arrayToBytes: ArrayToBytesCodec | undefined;
  const bytesToBytes: BytesToBytesCodec[] = [];
  const offload = new OffloadInfo();
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
    offload.addEntry(entry);
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
      buildPipeline: async (inner, innerSpec, innerPath) => {
        const nested = await buildPipeline(inner, innerSpec, registry, { key: options.key, path: innerPath, maxChunkBytes });
        offload.addPipeline(nested);
        return nested;
      },
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
  return new Pipeline(arrayToArray, arrayToBytes, bytesToBytes, offload, maxChunkBytes);
}

/** What the entries of a chain (nested chains included) declare about worker threads. */
class OffloadInfo {
  modules: ModuleExport[] | undefined = [];
  worth = false;

  addEntry(entry: CodecEntry): void {
    if (entry.worker === undefined) this.modules = undefined;
    else if (this.modules !== undefined && !this.modules.some((m) => sameExport(m, entry.worker as ModuleExport))) {
      this.modules.push(entry.worker);
    }
    if (entry.lightweight !== true) this.worth = true;
  }

  addPipeline(pipeline: CodecPipeline): void {
    const nested = pipeline.workerModules;
    if (nested === undefined) this.modules = undefined;
    else for (const m of nested) if (this.modules !== undefined && !this.modules.some((k) => sameExport(k, m))) this.modules.push(m);
    if (pipeline.worthOffloading) this.worth = true;
  }
}

function sameExport(a: ModuleExport, b: ModuleExport): boolean {
  return a.moduleUrl === b.moduleUrl && a.exportName === b.exportName;
}

/** Size of the input buffer a whole-value read starts with (larger values get their own, kept for the next). */
const INPUT_SPARE_BYTES = 1 << 20;

/** Extra bytes a decompression scratch buffer gets, so decoders that learn the size only by decoding see that it fit. */
const SCRATCH_SPARE = 64;

/** Turns negative-step ranges into ascending ones (array→bytes codecs read ascending selections). */
function ascending(target: DecodeTarget): DecodeTarget {
  if (!target.src.some((s) => "step" in s && s.step < 0)) return target;
  const src: DimIndexer[] = target.src.slice();
  const dst: DimIndexer[] = target.dst.slice();
  for (let d = 0; d < src.length; d++) {
    const s = src[d];
    const t = dst[d];
    if ("step" in s && s.step < 0) {
      src[d] = { start: s.start + (s.count - 1) * s.step, step: -s.step, count: s.count };
      dst[d] = "step" in t
        ? { start: t.start + (s.count - 1) * t.step, step: -t.step, count: s.count }
        : { indices: Float64Array.from(t.indices).reverse() };
    }
  }
  return { out: target.out, src, dst, outIsZero: target.outIsZero };
}

function failed(error: unknown, codec: Codec, op: string, ctx: CodecCallContext): ZarrError {
  if (error instanceof ZarrError) return error;
  return asZarrError(error, "CODEC_FAILED", `Codec "${codec.name}" failed to ${op} chunk "${ctx.key}"`, ctx.key);
}

/** A resolved codec chain (see {@link buildPipeline}). */
export class Pipeline implements CodecPipeline {
  readonly codecs: readonly Codec[];
  readonly encodePartial: CodecPipeline["encodePartial"];
  readonly workerModules: readonly ModuleExport[] | undefined;
  readonly worthOffloading: boolean;
  readonly partialReads: boolean;

  constructor(
    private readonly arrayToArray: readonly ArrayToArrayCodec[],
    private readonly arrayToBytes: ArrayToBytesCodec,
    private readonly bytesToBytes: readonly BytesToBytesCodec[],
    offload: { modules: ModuleExport[] | undefined; worth: boolean } = { modules: undefined, worth: false },
    /** The bound of decoded sizes the chain cannot know from the chunk spec (see `decodeBounds`). */
    readonly maxChunkBytes: number = DEFAULT_MAX_CHUNK_BYTES,
  ) {
    this.codecs = [...arrayToArray, arrayToBytes, ...bytesToBytes];
    this.workerModules = offload.modules;
    this.worthOffloading = offload.worth;
    this.partialReads = arrayToBytes.partialReads === true && arrayToArray.length === 0 && bytesToBytes.length === 0;
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

  /**
   * The most bytes each bytes→bytes codec may decode to, by index in the chain: what the
   * array→bytes codec encodes a chunk of `abSpec` to, carried forward through the
   * `computeEncodedSize` of the bytes→bytes codecs before it; `maxChunkBytes` where a size
   * is not fixed (variable-length data, compressed inner stages). A fixed size above
   * `maxChunkBytes` fails here, before anything is read or allocated.
   */
  decodeBounds(abSpec: ChunkSpec, key: string): number[] {
    const bounds: number[] = [];
    let size = this.arrayToBytes.computeEncodedSize?.(abSpec);
    if (size !== undefined && size > this.maxChunkBytes) {
      throw new ZarrError(
        "UNSUPPORTED",
        `Chunk "${key}" decodes to ${size} bytes, more than the array's maxChunkBytes (${this.maxChunkBytes}); open the array with a larger maxChunkBytes to read it`,
        { key },
      );
    }
    for (const c of this.bytesToBytes) {
      bounds.push(size ?? this.maxChunkBytes);
      size = size === undefined ? undefined : c.computeEncodedSize?.(size);
    }
    return bounds;
  }

  /** Runs bytes→bytes codec `i` of the chain backwards, bounded, checking the bound afterwards too. */
  private async decodeStage(
    i: number,
    bytes: Uint8Array,
    bound: number,
    ctx: CodecCallContext,
    scratch?: Uint8Array,
  ): Promise<Uint8Array> {
    const c = this.bytesToBytes[i];
    const bounded: CodecCallContext = { key: ctx.key, signal: ctx.signal, maxDecodedBytes: bound };
    let out: Uint8Array;
    try {
      out = scratch !== undefined && c.decodeInto !== undefined ? await c.decodeInto(bytes, scratch, bounded) : await c.decode(bytes, bounded);
    } catch (error) {
      throw failed(error, c, "decode", ctx);
    }
    // Codecs that ignore the bound are caught here, after the fact.
    if (out.length > bound) throw decodedSizeExceeded(c.name, bounded, out.length);
    return out;
  }

  async decode(bytes: Uint8Array, spec: ChunkSpec, ctx: CodecCallContext): Promise<NdArray> {
    const specs = this.specs(spec);
    const bounds = this.decodeBounds(specs[specs.length - 1], ctx.key);
    for (let i = this.bytesToBytes.length - 1; i >= 0; i--) {
      throwIfAborted(ctx.signal);
      bytes = await this.decodeStage(i, bytes, bounds[i], ctx);
    }
    return this.decodeArray(bytes, specs, ctx);
  }

  async decodeInto(bytes: Uint8Array, spec: ChunkSpec, target: DecodeTarget, ctx: CodecCallContext): Promise<void> {
    const specs = this.specs(spec);
    const abSpec = specs[specs.length - 1];
    const bounds = this.decodeBounds(abSpec, ctx.key);
    // The last bytes→bytes decoder (the compressor) writes into a reused buffer when it can
    // and the decoded size is known.
    let scratch: Uint8Array | undefined;
    try {
      for (let i = this.bytesToBytes.length - 1; i >= 0; i--) {
        throwIfAborted(ctx.signal);
        if (i === 0 && this.bytesToBytes[0].decodeInto !== undefined) {
          const size = this.arrayToBytes.computeEncodedSize?.(abSpec);
          if (size !== undefined) {
            try {
              scratch = takeScratch(size + SCRATCH_SPARE);
            } catch (error) {
              // A failed allocation (RangeError) is this chunk's coded failure, like any inside a codec.
              throw failed(error, this.bytesToBytes[0], "decode", ctx);
            }
          }
        }
        bytes = await this.decodeStage(i, bytes, bounds[i], ctx, scratch);
      }
      if (this.arrayToArray.length === 0) {
        const ab = this.arrayToBytes;
        try {
          if (ab.decodeInto !== undefined) await ab.decodeInto(bytes, abSpec, target, ctx);
          else copyRegion(await ab.decode(bytes, abSpec, ctx), target.src, target.out, target.dst, spec.dataType.width);
        } catch (error) {
          throw failed(error, ab, "decode", ctx);
        }
        return;
      }
      const chunk = await this.decodeArray(bytes, specs, ctx);
      copyRegion(chunk, target.src, target.out, target.dst, spec.dataType.width);
    } finally {
      if (scratch !== undefined) giveScratch(scratch);
    }
  }

  async decodePartialInto(source: ByteSource, spec: ChunkSpec, target: DecodeTarget, ctx: CodecCallContext): Promise<boolean> {
    const ab = this.arrayToBytes;
    // Partial reads take byte ranges of the stored value, which is only possible when
    // nothing transforms the value as a whole before the array→bytes codec sees it.
    if (ab.decodePartialInto !== undefined && this.arrayToArray.length === 0 && this.bytesToBytes.length === 0) {
      try {
        return await ab.decodePartialInto(source, spec, ascending(target), ctx);
      } catch (error) {
        throw failed(error, ab, "decode", ctx);
      }
    }
    let spare: Uint8Array | undefined;
    let bytes: Uint8Array | undefined;
    if (source.getInto !== undefined) {
      spare = takeScratch(INPUT_SPARE_BYTES);
      bytes = await source.getInto(spare, ctx.signal);
    } else bytes = await source.get(undefined, ctx.signal);
    try {
      if (bytes === undefined) return false;
      throwIfAborted(ctx.signal);
      await this.decodeInto(bytes, spec, target, ctx);
      return true;
    } finally {
      if (spare !== undefined) {
        // A value larger than the spare came in an array of its own: keep that one instead.
        giveScratch(bytes !== undefined && bytes.buffer !== spare.buffer ? bytes : spare);
      }
    }
  }

  /** Bytes → the decoded chunk, for chains with array→array codecs. */
  private async decodeArray(bytes: Uint8Array, specs: ChunkSpec[], ctx: CodecCallContext): Promise<NdArray> {
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

  invalidate(key: string): void {
    this.arrayToBytes.invalidate?.(key);
  }

  toJSON(): ExtensionObject[] {
    return this.codecs.map((c) => c.toJSON());
  }
}
