/** One codec step on one chunk, with the checks and the error every codec gives. */
import type { CodecCallContext } from "./codec.js";
import { asZarrError, throwIfAborted } from "./errors.js";

/**
 * Runs `step` (a codec's encode or decode of the chunk `ctx.key`): stops first when the
 * call was aborted, and turns anything but a `ZarrError` that `step` throws (a decoder's
 * RangeError, a failed allocation) into `CODEC_FAILED` naming the codec, the step and the
 * chunk, with the original as its cause.
 *
 * @example
 * ```ts
 * decode(bytes: Uint8Array, ctx: CodecCallContext): Uint8Array {
 *   return codecStep("lzw", "decode", ctx, () => lzwDecompress(bytes));
 * }
 * ```
 */
export function codecStep<T>(codec: string, step: "encode" | "decode", ctx: CodecCallContext, run: () => T): T {
  throwIfAborted(ctx.signal);
  try {
    return run();
  } catch (error) {
    throw asZarrError(error, "CODEC_FAILED", `${codec}: cannot ${step} chunk "${ctx.key}"`, ctx.key);
  }
}
