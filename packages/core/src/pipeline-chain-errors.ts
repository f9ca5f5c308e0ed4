/**
 * The errors of a malformed codec chain (codecs out of order, a second or missing
 * array→bytes codec, an entry that built another kind of codec). Loaded only when a chain
 * is malformed.
 */
import type { CodecEntry, JsonPath } from "@zarr/spec";
import { MetadataError, ZarrError } from "./up-front.js";

const KIND_TEXT = {
  array_to_array: "array→array",
  array_to_bytes: "array→bytes",
  bytes_to_bytes: "bytes→bytes",
} as const;

type Kind = keyof typeof KIND_TEXT;

/** Codec `name` (of kind `stage`) cannot come where it is; `arrayToBytes` is the chain's array→bytes codec so far. */
export function misplacedCodec(path: JsonPath, name: string, stage: Kind, arrayToBytes: string | undefined, key: string | undefined): MetadataError {
  const problem =
    stage === "array_to_array"
      ? `array→array codec "${name}" must come before the array→bytes codec`
      : stage === "array_to_bytes"
        ? `a second array→bytes codec "${name}" (the chain already has "${arrayToBytes}"; exactly one is allowed)`
        : `bytes→bytes codec "${name}" must come after an array→bytes codec such as "bytes"`;
  return new MetadataError(path, problem, { key });
}

/** The entry of codec `name` is registered as one kind but built a codec of another. */
export function wrongCodecKind(name: string, entry: CodecEntry, built: Kind): ZarrError {
  return new ZarrError(
    "METADATA_INVALID",
    `Codec "${name}" is registered as ${KIND_TEXT[entry.codecKind]} but built a ${KIND_TEXT[built]} codec`,
  );
}

/** The chain at `path` has no array→bytes codec. */
export function noArrayToBytes(path: JsonPath, key: string | undefined): MetadataError {
  return new MetadataError(path, 'the codec chain has no array→bytes codec (such as "bytes")', { key });
}
