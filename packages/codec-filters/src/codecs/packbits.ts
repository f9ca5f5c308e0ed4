/**
 * The registered `packbits` array→bytes codec `{padding_encoding?, first_bit?, last_bit?}`:
 * every element keeps bits `first_bit…last_bit` of each component of its little-endian
 * representation, packed into one bit stream in C order. Bit `j` of the stream is bit
 * `j % 8` (least significant first) of byte `j / 8`, as zarrs writes it. Decoding
 * sign-extends signed integers and zero-fills everything else.
 *
 * With `padding_encoding` `"first_byte"` or `"last_byte"` one byte holding the number of
 * padding bits is prepended or appended. Note: the registered spec calls `"first_byte"`
 * compatible with numcodecs' packbits, but numcodecs packs the first element into the
 * most significant bit; use `numcodecs.packbits` for numcodecs' layout.
 */
import {
  type ArrayToBytesCodec,
  type ChunkSpec,
  type CodecCallContext,
  type CodecEntry,
  type DataType,
  type ExtensionObject,
  type JsonObject,
  type NdArray,
  shapeSize,
} from "@zarr/spec";
import { cannotEncode, codecFailed, contiguous, elementsOf } from "../chunk.js";
import { ConfigReader } from "../config.js";

const NAME = "packbits";
const PADDINGS = ["none", "first_byte", "last_byte"] as const;
type PaddingEncoding = (typeof PADDINGS)[number];

/** How the elements of a data type are split into components. */
interface Components {
  /** Bits per component (N). */
  bits: number;
  /** Bytes a component occupies in the little-endian representation. */
  bytes: number;
  /** Components per element. */
  count: number;
  signed: boolean;
}

function componentsOf(dataType: DataType): Components | undefined {
  const size = dataType.byteSize;
  if (size === undefined || dataType.toBytes === undefined || dataType.fromBytes === undefined) return undefined;
  switch (dataType.kind) {
    case "bool":
      return { bits: 1, bytes: 1, count: 1, signed: false };
    case "int":
    case "uint":
      return size === 1 || size === 2 || size === 4 || size === 8
        ? { bits: size * 8, bytes: size, count: 1, signed: dataType.kind === "int" }
        : undefined;
    case "float":
      return size === 2 || size === 4 || size === 8 ? { bits: size * 8, bytes: size, count: 1, signed: false } : undefined;
    case "complex":
      return size === 8 || size === 16 ? { bits: size * 4, bytes: size / 2, count: 2, signed: false } : undefined;
    default:
      return undefined;
  }
}

/** Reads `count` ≤ 24 bits starting at bit `pos` (least significant bit first). */
function getBits(bytes: Uint8Array, pos: number, count: number): number {
  const p = pos >>> 3;
  // reads past the end give undefined, which the bitwise operators treat as 0
  const word = bytes[p] | (bytes[p + 1] << 8) | (bytes[p + 2] << 16) | (bytes[p + 3] << 24);
  return (word >>> (pos & 7)) & ((1 << count) - 1);
}

/** ORs `count` ≤ 24 bits of `value` in at bit `pos`. */
function orBits(bytes: Uint8Array, pos: number, value: number): void {
  const p = pos >>> 3;
  const v = value << (pos & 7);
  bytes[p] |= v & 0xff;
  bytes[p + 1] |= (v >>> 8) & 0xff; // writes past the end are ignored
  bytes[p + 2] |= (v >>> 16) & 0xff;
  bytes[p + 3] |= v >>> 24;
}

/** Copies `count` bits from `src` at `from` to (zeroed) `dst` at `to`. */
function copyBits(src: Uint8Array, from: number, dst: Uint8Array, to: number, count: number): void {
  while (count > 0) {
    const piece = Math.min(count, 24);
    orBits(dst, to, getBits(src, from, piece));
    from += piece;
    to += piece;
    count -= piece;
  }
}

class PackBitsCodec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes" as const;
  readonly name = NAME;
  private readonly width: number;

  constructor(
    private readonly padding: PaddingEncoding,
    private readonly firstBit: number,
    lastBit: number,
    private readonly components: Components,
    private readonly json: JsonObject,
  ) {
    this.width = lastBit - firstBit + 1;
  }

  private get fullWidth(): boolean {
    return this.firstBit === 0 && this.width === this.components.bits;
  }

  /** Bytes of packed bits for `n` elements, and the padding bits in the last one. */
  private packedSize(n: number): { bytes: number; padding: number } {
    const bits = n * this.components.count * this.width;
    const bytes = Math.ceil(bits / 8);
    return { bytes, padding: bytes * 8 - bits };
  }

  computeEncodedSize(spec: ChunkSpec): number {
    return this.packedSize(shapeSize(spec.shape)).bytes + (this.padding === "none" ? 0 : 1);
  }

  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): Uint8Array {
    const n = shapeSize(spec.shape);
    const { bytes: packedBytes, padding } = this.packedSize(n);
    const extra = this.padding === "none" ? 0 : 1;
    const out = new Uint8Array(packedBytes + extra);
    const packed = this.padding === "first_byte" ? out.subarray(1) : out.subarray(0, packedBytes);
    if (this.padding === "first_byte") out[0] = padding;
    else if (this.padding === "last_byte") out[packedBytes] = padding;
    const data = elementsOf(chunk, spec.dataType, spec.shape, NAME, ctx);
    const { bits, bytes, count } = this.components;
    if (bits === 1) {
      const b = data as Uint8Array;
      for (let i = 0; i < n; i++) if (b[i] !== 0) packed[i >>> 3] |= 1 << (i & 7);
      return out;
    }
    const toBytes = spec.dataType.toBytes;
    if (toBytes === undefined) throw cannotEncode(NAME, ctx, `${spec.dataType.name} has no binary representation`);
    const le = toBytes.call(spec.dataType, data, true);
    if (this.fullWidth) {
      packed.set(le.subarray(0, packedBytes));
      return out;
    }
    const stride = bytes * 8;
    const components = n * count;
    for (let c = 0; c < components; c++) copyBits(le, c * stride + this.firstBit, packed, c * this.width, this.width);
    return out;
  }

  decode(encoded: Uint8Array, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const n = shapeSize(spec.shape);
    const { bytes: packedBytes, padding } = this.packedSize(n);
    const extra = this.padding === "none" ? 0 : 1;
    if (encoded.length !== packedBytes + extra) {
      throw codecFailed(NAME, ctx, `expected ${packedBytes + extra} bytes for ${n} elements, got ${encoded.length}`);
    }
    if (extra === 1) {
      const stored = this.padding === "first_byte" ? encoded[0] : encoded[packedBytes];
      if (stored !== padding) {
        throw codecFailed(NAME, ctx, `the padding byte says ${stored} padding bits, ${n} elements need ${padding}`);
      }
    }
    const packed = this.padding === "first_byte" ? encoded.subarray(1) : encoded.subarray(0, packedBytes);
    const { bits, bytes, count, signed } = this.components;
    const dataType = spec.dataType;
    if (bits === 1) {
      const out = dataType.allocate(n) as Uint8Array;
      for (let i = 0; i < n; i++) out[i] = (packed[i >>> 3] >>> (i & 7)) & 1;
      return contiguous(out, spec.shape);
    }
    const fromBytes = dataType.fromBytes;
    if (fromBytes === undefined) throw codecFailed(NAME, ctx, `${dataType.name} has no binary representation`);
    let le: Uint8Array;
    if (this.fullWidth) le = packed.slice();
    else {
      le = new Uint8Array(n * count * bytes);
      const stride = bytes * 8;
      const components = n * count;
      const top = this.firstBit + this.width; // first bit above the stored ones
      for (let c = 0; c < components; c++) {
        const base = c * stride;
        copyBits(packed, c * this.width, le, base + this.firstBit, this.width);
        if (signed && top < bits && getBits(le, base + top - 1, 1) === 1) {
          // sign-extend: set every bit above the stored ones
          for (let pos = top; pos < bits; pos += 24) {
            const piece = Math.min(24, bits - pos);
            orBits(le, base + pos, (1 << piece) - 1);
          }
        }
      }
    }
    return contiguous(fromBytes.call(dataType, le, n, true), spec.shape);
  }

  toJSON(): ExtensionObject {
    return { name: NAME, configuration: { ...this.json } };
  }
}

/**
 * The registered `packbits` codec entry (array→bytes) for bool, integer, float and complex
 * data.
 *
 * @example
 * ```ts
 * const codecs = [{ name: "packbits", configuration: { padding_encoding: "first_byte" } }];
 * ```
 */
export const packBits: CodecEntry = {
  type: "codec",
  name: NAME,
  codecKind: "array_to_bytes",
  package: "@zarr/codec-filters",
  fromConfig(configuration, context) {
    const r: ConfigReader = new ConfigReader(NAME, configuration, context.path, ["padding_encoding", "first_bit", "last_bit"]);
    const padding = r.oneOf("padding_encoding", PADDINGS, "none");
    const components = componentsOf(context.spec.dataType);
    if (components === undefined) {
      r.failCodec(`the codec "${NAME}" does not support the data type ${context.spec.dataType.name}`);
    }
    const last = components.bits - 1;
    const firstBit = r.has("first_bit") ? r.integer("first_bit", 0, last) : 0;
    const lastBit = r.has("last_bit") ? r.integer("last_bit", 0, last) : last;
    if (lastBit < firstBit) r.fail("last_bit", `last_bit (${lastBit}) is less than first_bit (${firstBit})`);
    const json: JsonObject = { padding_encoding: padding };
    if (r.has("first_bit")) json.first_bit = firstBit;
    if (r.has("last_bit")) json.last_bit = lastBit;
    return new PackBitsCodec(padding, firstBit, lastBit, components, json);
  },
};
