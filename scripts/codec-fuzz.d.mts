import type { Arbitrary } from "fast-check";

/** What the fuzz properties need of a codec (a `BytesToBytesCodec`). */
export interface FuzzedCodec {
  encode(bytes: Uint8Array, ctx: { key: string }): Uint8Array | Promise<Uint8Array>;
  decode(bytes: Uint8Array, ctx: { key: string; maxDecodedBytes?: number }): Uint8Array | Promise<Uint8Array>;
}
/** Runs per property: `FUZZ_RUNS` from the environment, else 100. */
export const FUZZ_RUNS: number;
/** Decoded data to encode: random bytes, or a short pattern repeated. */
export const chunkData: Arbitrary<Uint8Array>;
/** Registers the fuzz properties of one bytes→bytes codec (call inside a `describe`). */
export function codecFuzzProperties(codec: FuzzedCodec, options?: { honoursBound?: boolean; data?: Arbitrary<Uint8Array> }): void;
