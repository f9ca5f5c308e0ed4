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
  type CodecPipeline,
  copyRegion,
  DEFAULT_MAX_CHUNK_BYTES,
  type DecodeTarget,
  decodedSizeExceeded,
  type ExtensionObject,
  type JsonPath,
  type ModuleExport,
  type NdArray,
  throwIfAborted,
  ZarrError,
} from "@zarr/spec";
import { withDocumentKey } from "./document-key.js";
import { giveScratch, takeScratch } from "./engine/scratch.js";
import { DEFAULT_MAX_DECODE_RATIO, limitErrors, ratioBound } from "./limits.js";
import { failed, type Stages, stageSpecs } from "./pipeline-stages.js";
import type { Registry } from "./registry.js";

// The parts of a chain's work that load on first use, each from one import site, so the
// name of its chunk ships once (bundle size).
/** The errors of a malformed chain. */
const chainErrors = () => import("./pipeline-chain-errors.js");
/** Encoding: loaded on the first write. */
const encoding = () => import("./pipeline-encode.js");
/** Whole-chunk and array→array decoding, and reversing negative steps. */
const arrayDecoding = () => import("./pipeline-decode-array.js");

/**
 * Resolves `codecs` (as in metadata) through `registry` into a pipeline for chunks of
 * `spec`. Throws `MetadataError` for a malformed chain and `CODEC_UNKNOWN` for a codec
 * the registry does not have (codecs marked `"must_understand": false` are skipped).
 */
export async function buildPipeline(
  codecs: readonly ExtensionObject[],
  spec: ChunkSpec,
  registry: Registry,
  options: { key?: string; path?: JsonPath; maxChunkBytes?: number; maxDecodeRatio?: number } = {},
): Promise<Pipeline> {
  const maxChunkBytes = options.maxChunkBytes ?? DEFAULT_MAX_CHUNK_BYTES;
  const maxDecodeRatio = options.maxDecodeRatio ?? DEFAULT_MAX_DECODE_RATIO;
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
    offload.add([entry.worker], entry.lightweight !== true);
    const stage = entry.codecKind;
    // Misplaced codecs are rare: their messages load only when one is found (bundle size).
    if (arrayToBytes === undefined ? stage === "bytes_to_bytes" : stage !== "bytes_to_bytes") {
      const { misplacedCodec } = await chainErrors();
      throw misplacedCodec(path, def.name, stage, arrayToBytes?.name, options.key);
    }
    const context: CodecBuildContext = {
      spec: current,
      path,
      buildPipeline: async (inner, innerSpec, innerPath) => {
        const nested = await buildPipeline(inner, innerSpec, registry, { key: options.key, path: innerPath, maxChunkBytes, maxDecodeRatio });
        offload.add(nested.workerModules, nested.worthOffloading);
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
      throw asZarrError(withDocumentKey(error, options.key), "METADATA_INVALID", `Invalid configuration of codec "${def.name}" at codecs[${i}]`, options.key);
    }
    if (codec.kind !== stage) throw (await chainErrors()).wrongCodecKind(def.name, entry, codec.kind);
    if (codec.kind === "array_to_array") {
      arrayToArray.push(codec);
      current = codec.encodedSpec(current);
    } else if (codec.kind === "array_to_bytes") arrayToBytes = codec;
    else bytesToBytes.push(codec);
  }
  if (arrayToBytes === undefined) throw (await chainErrors()).noArrayToBytes(basePath, options.key);
  return new Pipeline(arrayToArray, arrayToBytes, bytesToBytes, offload, maxChunkBytes, maxDecodeRatio);
}

/** What the entries of a chain (nested chains included) declare about worker threads. */
class OffloadInfo {
  /** The worker modules, each once (by module and export); undefined once one entry has none. */
  modules: ModuleExport[] | undefined = [];
  worth = false;

  /** Adds what one entry (`[entry.worker]`, lightweight or not) or one nested chain declares. */
  add(modules: readonly (ModuleExport | undefined)[] | undefined, worth: boolean): void {
    for (const m of modules ?? [undefined]) {
      if (m === undefined) this.modules = undefined;
      else if (!this.modules?.some((k) => k.moduleUrl === m.moduleUrl && k.exportName === m.exportName)) this.modules?.push(m);
    }
    if (worth) this.worth = true;
  }
}

/** Size of the input buffer a whole-value read starts with (larger values get their own, kept for the next). */
const INPUT_SPARE_BYTES = 1 << 20;

/** Extra bytes a decompression scratch buffer gets, so decoders that learn the size only by decoding see that it fit. */
const SCRATCH_SPARE = 64;

/** A resolved codec chain (see {@link buildPipeline}). */
export class Pipeline implements CodecPipeline, Stages {
  readonly codecs: readonly Codec[];
  readonly encodePartial: CodecPipeline["encodePartial"];
  readonly workerModules: readonly ModuleExport[] | undefined;
  readonly worthOffloading: boolean;
  readonly shardContainer: boolean;

  constructor(
    readonly arrayToArray: readonly ArrayToArrayCodec[],
    readonly arrayToBytes: ArrayToBytesCodec,
    readonly bytesToBytes: readonly BytesToBytesCodec[],
    // Given by `buildPipeline`, the one caller: no defaults (bundle size).
    offload: { modules: ModuleExport[] | undefined; worth: boolean },
    /** The bound of decoded sizes the chain cannot know from the chunk spec (see `decodeBounds`). */
    readonly maxChunkBytes: number,
    /** The bound of those sizes relative to the stored size (see `ArrayConfig.maxDecodeRatio`). */
    readonly maxDecodeRatio: number,
  ) {
    this.codecs = [...arrayToArray, arrayToBytes, ...bytesToBytes];
    this.workerModules = offload.modules;
    this.worthOffloading = offload.worth;
    const alone = this.codecs.length === 1; // the array→bytes codec alone
    // `partialReads`: the capability's deprecated former name, which third-party codecs may still declare for one release.
    this.shardContainer = (arrayToBytes.shardContainer || arrayToBytes.partialReads) === true && alone;
    // Only chains of the array→bytes codec alone can write part of a chunk; the call loads on first use.
    this.encodePartial =
      arrayToBytes.encodePartial !== undefined && alone
        ? async (source, update, spec, ctx) => (await encoding()).encodePartOf(arrayToBytes, source, update, spec, ctx)
        : undefined;
  }

  /** Loaded on the first write: apps that only read never load the encoder. */
  async encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): Promise<Uint8Array> {
    const { encodeChain } = await encoding();
    return encodeChain(this, chunk, spec, ctx);
  }

  /**
   * The most bytes each bytes→bytes codec may decode to, by index in the chain: what the
   * array→bytes codec encodes a chunk of `abSpec` to, carried forward through the
   * `computeEncodedSize` of the bytes→bytes codecs before it; `undefined` where a size is
   * not fixed (variable-length data, compressed inner stages): `decodeStage` then bounds it
   * by `maxChunkBytes` and `maxDecodeRatio`. A fixed size above `maxChunkBytes` fails here,
   * before anything is read or allocated.
   */
  async decodeBounds(abSpec: ChunkSpec, key: string): Promise<(number | undefined)[]> {
    const bounds: (number | undefined)[] = [];
    let size = this.arrayToBytes.computeEncodedSize?.(abSpec);
    if (size !== undefined && size > this.maxChunkBytes) throw (await limitErrors()).decodesTooLarge(key, size, this.maxChunkBytes);
    for (const c of this.bytesToBytes) {
      bounds.push(size);
      size = size === undefined ? undefined : c.computeEncodedSize?.(size);
    }
    return bounds;
  }

  /**
   * Runs bytes→bytes codec `i` of the chain backwards, bounded, checking the bound afterwards
   * too. A `bound` of `undefined` (a size the chunk spec does not fix) is `maxChunkBytes`, or
   * less by `maxDecodeRatio` of the `bytes` given: a decompression bomb stops early.
   */
  async decodeStage(
    i: number,
    bytes: Uint8Array,
    bound: number | undefined,
    ctx: CodecCallContext,
    scratch?: Uint8Array,
  ): Promise<Uint8Array> {
    const c = this.bytesToBytes[i];
    const byRatio = bound === undefined ? ratioBound(bytes.length, this.maxDecodeRatio) : Infinity;
    const limit = Math.min(bound ?? this.maxChunkBytes, byRatio);
    const bounded: CodecCallContext = { key: ctx.key, signal: ctx.signal, maxDecodedBytes: limit };
    let out: Uint8Array;
    try {
      out = scratch !== undefined && c.decodeInto !== undefined ? await c.decodeInto(bytes, scratch, bounded) : await c.decode(bytes, bounded);
    } catch (error) {
      // The ratio bound may be what stopped the codec: say so, and how to lift it.
      if (byRatio < this.maxChunkBytes) throw (await limitErrors()).ratioExceeded(failed(error, c, "decode", ctx), bytes.length, limit, this.maxDecodeRatio);
      throw failed(error, c, "decode", ctx);
    }
    // Codecs that ignore the bound are caught here, after the fact.
    if (out.length > limit) throw decodedSizeExceeded(c.name, bounded, out.length);
    return out;
  }

  /** A whole chunk, decoded (loaded on first use: reads decode into their result with `decodeInto`). */
  async decode(bytes: Uint8Array, spec: ChunkSpec, ctx: CodecCallContext): Promise<NdArray> {
    const { decodeWhole } = await arrayDecoding();
    return decodeWhole(this, bytes, spec, ctx);
  }

  async decodeInto(bytes: Uint8Array, spec: ChunkSpec, target: DecodeTarget, ctx: CodecCallContext): Promise<void> {
    const specs = stageSpecs(this, spec);
    const abSpec = specs[specs.length - 1];
    const bounds = await this.decodeBounds(abSpec, ctx.key);
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
      throwIfAborted(ctx.signal);
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
      const { decodeArray } = await arrayDecoding();
      const chunk = await decodeArray(this, bytes, specs, ctx);
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
        // Negative steps are rare: the code that turns them around loads when one comes.
        const sorted = target.src.some((s) => "step" in s && s.step < 0)
          ? (await arrayDecoding()).ascending(target)
          : target;
        return await ab.decodePartialInto(source, spec, sorted, ctx);
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

  computeEncodedSize(spec: ChunkSpec): number | undefined {
    const specs = stageSpecs(this, spec);
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
