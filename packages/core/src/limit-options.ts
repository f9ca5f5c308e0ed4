/**
 * Checks of the memory-bound options (`maxChunkBytes`, `maxDecodeRatio`), apart from
 * limits.ts: loaded only when an app gives one (bundle size).
 */
import { DEFAULT_MAX_CHUNK_BYTES, ZarrError } from "@zarr/spec";
import { DEFAULT_MAX_DECODE_RATIO, type MemoryLimits } from "./limits.js";

/** `options`' memory bounds, each checked; undefined ones get the default. */
export function checkedLimits(options: Partial<MemoryLimits>): MemoryLimits {
  return { maxChunkBytes: checkMaxChunkBytes(options.maxChunkBytes), maxDecodeRatio: checkMaxDecodeRatio(options.maxDecodeRatio) };
}

/** Validates a `maxChunkBytes` option; undefined gives the default. */
export function checkMaxChunkBytes(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_CHUNK_BYTES;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw new ZarrError("INVALID_ARGUMENT", `maxChunkBytes must be a positive integer, got ${String(value)}`);
  }
  return value;
}

/** Validates a `maxDecodeRatio` option (a number ≥ 1; `Infinity` turns the bound off); undefined gives the default. */
export function checkMaxDecodeRatio(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_DECODE_RATIO;
  if (typeof value !== "number" || Number.isNaN(value) || value < 1) {
    throw new ZarrError("INVALID_ARGUMENT", `maxDecodeRatio must be a number of at least 1 (Infinity: no bound), got ${String(value)}`);
  }
  return value;
}
