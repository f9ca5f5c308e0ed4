/**
 * Checks of the memory-bound options (`maxChunkBytes`, `maxDecodeRatio`), apart from
 * limits.ts: loaded only when an app gives one (bundle size).
 */
// From spec-shared.ts, not up-front.ts (which re-exports limits.ts, which loads this module).
import { ZarrError } from "./spec-shared.js";

/** The memory bounds of an array. */
export interface MemoryLimits {
  maxChunkBytes: number;
  maxDecodeRatio: number;
}

/** `limits` (options given, or their defaults: limits.ts `memoryLimits`), each checked. */
export function checkedLimits(limits: MemoryLimits): MemoryLimits {
  return { maxChunkBytes: checkMaxChunkBytes(limits.maxChunkBytes), maxDecodeRatio: checkMaxDecodeRatio(limits.maxDecodeRatio) };
}

/** Validates a `maxChunkBytes` option. */
export function checkMaxChunkBytes(value: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw new ZarrError("INVALID_ARGUMENT", `maxChunkBytes must be a positive integer, got ${String(value)}`);
  }
  return value;
}

/** Validates a `maxDecodeRatio` option (a number ≥ 1; `Infinity` turns the bound off). */
export function checkMaxDecodeRatio(value: number): number {
  if (typeof value !== "number" || Number.isNaN(value) || value < 1) {
    throw new ZarrError("INVALID_ARGUMENT", `maxDecodeRatio must be a number of at least 1 (Infinity: no bound), got ${String(value)}`);
  }
  return value;
}
