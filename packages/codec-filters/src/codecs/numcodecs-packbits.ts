/**
 * `numcodecs.packbits` (no configuration): a bool chunk of n elements becomes a uint8
 * array of `1 + ceil(n / 8)` elements, as zarr-python 3 declares it: the first byte is the
 * number of padding bits in the last byte, then the bits in C order, the first element in
 * the most significant bit (NumPy's `packbits`).
 */
import {
  type ArrayToArrayCodec,
  type ChunkSpec,
  type CodecCallContext,
  type CodecEntry,
  type DataType,
  type ExtensionObject,
  type NdArray,
  shapeSize,
} from "@zarr/spec";
import { codecFailed, contiguous, elementsOf } from "../chunk.js";
import { ConfigReader } from "../config.js";

const NAME = "numcodecs.packbits";

/** Packs `n` bools (non-zero bytes) MSB-first after a padding-count header byte. */
export function packBitsNumcodecs(data: Uint8Array, n: number): Uint8Array {
  const full = n >>> 3;
  const rest = n & 7;
  const out = new Uint8Array(1 + full + (rest > 0 ? 1 : 0));
  out[0] = rest > 0 ? 8 - rest : 0;
  let i = 0;
  for (let k = 1; k <= full; k++, i += 8) {
    out[k] =
      (data[i] !== 0 ? 0x80 : 0) |
      (data[i + 1] !== 0 ? 0x40 : 0) |
      (data[i + 2] !== 0 ? 0x20 : 0) |
      (data[i + 3] !== 0 ? 0x10 : 0) |
      (data[i + 4] !== 0 ? 0x08 : 0) |
      (data[i + 5] !== 0 ? 0x04 : 0) |
      (data[i + 6] !== 0 ? 0x02 : 0) |
      (data[i + 7] !== 0 ? 0x01 : 0);
  }
  if (rest > 0) {
    let b = 0;
    for (let j = 0; j < rest; j++) if (data[i + j] !== 0) b |= 0x80 >>> j;
    out[full + 1] = b;
  }
  return out;
}

/** Unpacks `n` bools (0/1) from the packed bytes after the header. */
export function unpackBitsNumcodecs(packed: Uint8Array, n: number, out: Uint8Array): void {
  for (let i = 0; i < n; i++) out[i] = (packed[1 + (i >>> 3)] >>> (7 - (i & 7))) & 1;
}

class NumcodecsPackBitsCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array" as const;
  readonly name = NAME;

  constructor(private readonly uint8: DataType) {}

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    const n = shapeSize(spec.shape);
    return { shape: [1 + Math.ceil(n / 8)], dataType: this.uint8, fillValue: 0 };
  }

  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const n = shapeSize(spec.shape);
    const data = elementsOf(chunk, spec.dataType, spec.shape, NAME, ctx) as Uint8Array;
    const out = packBitsNumcodecs(data, n);
    return contiguous(out, [out.length]);
  }

  decode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const n = shapeSize(spec.shape);
    const expected = this.encodedSpec(spec).shape;
    const packed = elementsOf(chunk, this.uint8, expected, NAME, ctx) as Uint8Array;
    const padding = n % 8 === 0 ? 0 : 8 - (n % 8);
    if (packed[0] !== padding) {
      throw codecFailed(NAME, ctx, `the header says ${packed[0]} padding bits, but ${n} elements need ${padding}`);
    }
    const out = spec.dataType.allocate(n) as Uint8Array;
    unpackBitsNumcodecs(packed, n, out);
    return contiguous(out, spec.shape);
  }

  toJSON(): ExtensionObject {
    return { name: NAME, configuration: {} };
  }
}

/**
 * The `numcodecs.packbits` codec entry (array→array, bool data → uint8 of shape
 * `[1 + ceil(n / 8)]`).
 *
 * @example
 * ```ts
 * const codecs = [{ name: "numcodecs.packbits", configuration: {} }, "bytes"];
 * ```
 */
export const numcodecsPackBits: CodecEntry = {
  type: "codec",
  name: NAME,
  codecKind: "array_to_array",
  package: "@zarr/codec-filters",
  async fromConfig(configuration, context) {
    const r: ConfigReader = new ConfigReader(NAME, configuration, context.path, []);
    if (context.spec.dataType.kind !== "bool") {
      r.failCodec(`the codec "${NAME}" needs bool data, but the array entering it is ${context.spec.dataType.name}`);
    }
    return new NumcodecsPackBitsCodec(await context.resolveDataType("uint8"));
  },
};
