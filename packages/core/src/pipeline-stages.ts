/**
 * The parts of a resolved codec chain that its rarely used halves share (see `pipeline.ts`,
 * which runs the common decode path, and the modules it loads on first use: `pipeline-encode.ts`,
 * `pipeline-decode-array.ts`).
 */
import {
  type ArrayToArrayCodec,
  type ArrayToBytesCodec,
  asZarrError,
  type BytesToBytesCodec,
  type ChunkSpec,
  type Codec,
  type CodecCallContext,
  ZarrError,
} from "@zarr/spec";

/** A chain's codecs by stage. */
export interface Stages {
  readonly arrayToArray: readonly ArrayToArrayCodec[];
  readonly arrayToBytes: ArrayToBytesCodec;
  readonly bytesToBytes: readonly BytesToBytesCodec[];
}

/** A chain with its bounded bytes→bytes decoding steps (the `Pipeline`), for the decoders loaded on first use. */
export interface DecodingStages extends Stages {
  /** The most bytes each bytes→bytes codec may decode to, `undefined` where unknown (see `Pipeline.decodeBounds`). */
  decodeBounds(abSpec: ChunkSpec, key: string): Promise<(number | undefined)[]>;
  /** Runs bytes→bytes codec `i` backwards within `bound` (see `Pipeline.decodeStage`). */
  decodeStage(i: number, bytes: Uint8Array, bound: number | undefined, ctx: CodecCallContext): Promise<Uint8Array>;
}

/** A codec's failure as the chunk's coded error (a ZarrError passes through). */
export function failed(error: unknown, codec: Codec, op: string, ctx: CodecCallContext): ZarrError {
  if (error instanceof ZarrError) return error;
  return asZarrError(error, "CODEC_FAILED", `Codec "${codec.name}" failed to ${op} chunk "${ctx.key}"`, ctx.key);
}

/** The spec entering each array→array codec, and the one entering the array→bytes codec. */
export function stageSpecs(stages: Stages, spec: ChunkSpec): ChunkSpec[] {
  const out = [spec];
  for (const c of stages.arrayToArray) out.push(c.encodedSpec(out[out.length - 1]));
  return out;
}
