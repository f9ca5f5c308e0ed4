/**
 * `numcodecs.shuffle` `{elementsize}` (bytes→bytes, as in zarr-python 3): byte `j` of
 * element `i` moves to position `j * count + i`, grouping the first bytes of all elements,
 * then the second bytes, …. numcodecs rejects input that is not a whole number of
 * elements; so do we.
 */
import {
  type BytesToBytesCodec,
  type CodecCallContext,
  type CodecEntry,
  type ExtensionObject,
  ZarrError,
} from "@zarr/spec";
import { codecFailed } from "../chunk.js";
import { ConfigReader } from "../config.js";

const NAME = "numcodecs.shuffle";

/** Shuffles whole elements of `elementSize` bytes. */
export function shuffleBytes(src: Uint8Array, elementSize: number): Uint8Array {
  const out = new Uint8Array(src.length);
  const count = src.length / elementSize;
  for (let j = 0; j < elementSize; j++) {
    const base = j * count;
    for (let i = 0, s = j; i < count; i++, s += elementSize) out[base + i] = src[s];
  }
  return out;
}

/** Inverse of {@link shuffleBytes}. */
export function unshuffleBytes(src: Uint8Array, elementSize: number): Uint8Array {
  const out = new Uint8Array(src.length);
  const count = src.length / elementSize;
  for (let j = 0; j < elementSize; j++) {
    const base = j * count;
    for (let i = 0, d = j; i < count; i++, d += elementSize) out[d] = src[base + i];
  }
  return out;
}

class ShuffleCodec implements BytesToBytesCodec {
  readonly kind = "bytes_to_bytes" as const;
  readonly name = NAME;

  constructor(private readonly elementSize: number) {}

  encode(bytes: Uint8Array, ctx: CodecCallContext): Uint8Array {
    if (this.elementSize <= 1) return bytes;
    if (bytes.length % this.elementSize !== 0) {
      throw new ZarrError(
        "INVALID_ARGUMENT",
        `${NAME}: cannot encode chunk "${ctx.key}": ${bytes.length} bytes are not a multiple of elementsize ${this.elementSize}`,
        { key: ctx.key },
      );
    }
    return shuffleBytes(bytes, this.elementSize);
  }

  decode(bytes: Uint8Array, ctx: CodecCallContext): Uint8Array {
    if (this.elementSize <= 1) return bytes;
    if (bytes.length % this.elementSize !== 0) {
      throw codecFailed(NAME, ctx, `${bytes.length} bytes are not a multiple of elementsize ${this.elementSize}`);
    }
    return unshuffleBytes(bytes, this.elementSize);
  }

  computeEncodedSize(decodedSize: number): number {
    return decodedSize;
  }

  toJSON(): ExtensionObject {
    return { name: NAME, configuration: { elementsize: this.elementSize } };
  }
}

/**
 * The `numcodecs.shuffle` codec entry (bytes→bytes). Without `elementsize` the item size
 * of the data type before the array→bytes codec is used, as zarr-python 3 does (numcodecs
 * alone would default to 4).
 *
 * @example
 * ```ts
 * const codecs = ["bytes", { name: "numcodecs.shuffle", configuration: { elementsize: 4 } }];
 * ```
 */
export const shuffle: CodecEntry = {
  type: "codec",
  name: NAME,
  codecKind: "bytes_to_bytes",
  package: "@zarr/codec-filters",
  fromConfig(configuration, context) {
    const r: ConfigReader = new ConfigReader(NAME, configuration, context.path, ["elementsize"]);
    const fallback = context.spec?.dataType?.byteSize ?? 4;
    return new ShuffleCodec(r.integer("elementsize", 0, 2 ** 31 - 1, fallback));
  },
};
