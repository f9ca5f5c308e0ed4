/** The `vlen-utf8` and `vlen-bytes` array→bytes codecs and their registry entries. */
import {
  type ArrayToBytesCodec,
  type ChunkSpec,
  type CodecBuildContext,
  type CodecCallContext,
  type CodecEntry,
  cStrides,
  type DataTypeKind,
  type ExtensionObject,
  MetadataError,
  type NdArray,
  shapeSize,
  toCContiguous,
  ZarrError,
} from "@zarr/spec";
import { HEADER_BYTES, indexFrame, writeU32 } from "./frame.js";
import { decodeUtf8Items, encodeUtf8Frame, NotAString } from "./utf8.js";

const PACKAGE = "@zarr/codec-vlen";

/** Checks the data type the codec is configured for: a variable-length type of `kind`. */
function checkDataType(codec: string, kind: DataTypeKind, typeName: string, context: CodecBuildContext): void {
  const dataType = context.spec.dataType;
  if (dataType.kind !== kind || dataType.byteSize !== undefined) {
    throw new MetadataError(
      context.path,
      `the ${codec} codec needs the variable-length "${typeName}" data type, got "${dataType.name}"`,
    );
  }
}

/** The elements of a chunk in C order. */
function elementsOf(chunk: NdArray, spec: ChunkSpec): { data: ArrayLike<unknown>; n: number } {
  const c = toCContiguous(chunk, spec.dataType);
  return { data: c.data as ArrayLike<unknown>, n: shapeSize(c.shape) };
}

/** `vlen-utf8`: strings as UTF-8 in the numcodecs VLenUTF8 layout. */
export class VlenUtf8Codec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes";
  readonly name = "vlen-utf8";

  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): Uint8Array {
    const { data, n } = elementsOf(chunk, spec);
    try {
      return encodeUtf8Frame(data, n);
    } catch (error) {
      if (error instanceof NotAString) {
        throw new ZarrError(
          "INVALID_ARGUMENT",
          `Cannot encode chunk "${ctx.key}" with vlen-utf8: element ${error.index} is not a string`,
          { key: ctx.key },
        );
      }
      throw error;
    }
  }

  decode(bytes: Uint8Array, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const frame = indexFrame(bytes, shapeSize(spec.shape), this.name, ctx.key);
    const data = decodeUtf8Items(bytes, frame, this.name, ctx.key);
    return { data, shape: spec.shape.slice(), stride: cStrides(spec.shape) };
  }

  toJSON(): ExtensionObject {
    return { name: this.name, configuration: {} };
  }
}

/** `vlen-bytes`: byte strings in the numcodecs VLenBytes layout. */
export class VlenBytesCodec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes";
  readonly name = "vlen-bytes";

  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): Uint8Array {
    const { data, n } = elementsOf(chunk, spec);
    let size = HEADER_BYTES * (n + 1);
    for (let i = 0; i < n; i++) {
      const item = data[i];
      if (!(item instanceof Uint8Array)) {
        throw new ZarrError(
          "INVALID_ARGUMENT",
          `Cannot encode chunk "${ctx.key}" with vlen-bytes: element ${i} is not a Uint8Array`,
          { key: ctx.key },
        );
      }
      size += item.length;
    }
    const out = new Uint8Array(size);
    writeU32(out, 0, n);
    let pos = HEADER_BYTES;
    for (let i = 0; i < n; i++) {
      const item = data[i] as Uint8Array;
      writeU32(out, pos, item.length);
      pos += HEADER_BYTES;
      if (item.length < 16) for (let j = 0; j < item.length; j++) out[pos + j] = item[j];
      else out.set(item, pos);
      pos += item.length;
    }
    return out;
  }

  /** Items are views into one fresh buffer holding all of them (never into `bytes`). */
  decode(bytes: Uint8Array, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const frame = indexFrame(bytes, shapeSize(spec.shape), this.name, ctx.key);
    const { starts, lengths } = frame;
    const payload = new Uint8Array(frame.payloadBytes);
    const data = new Array<Uint8Array>(starts.length);
    let o = 0;
    for (let i = 0; i < starts.length; i++) {
      const a = starts[i];
      const len = lengths[i];
      if (len < 16) for (let j = 0; j < len; j++) payload[o + j] = bytes[a + j];
      else payload.set(bytes.subarray(a, a + len), o);
      data[i] = payload.subarray(o, o + len);
      o += len;
    }
    return { data, shape: spec.shape.slice(), stride: cStrides(spec.shape) };
  }

  toJSON(): ExtensionObject {
    return { name: this.name, configuration: {} };
  }
}

// Both codecs are stateless: one instance serves every array.
const utf8Codec = new VlenUtf8Codec();
const bytesCodec = new VlenBytesCodec();

/**
 * The `vlen-utf8` codec entry (alias `numcodecs.vlen-utf8`), for arrays of the
 * `string` data type. No configuration.
 *
 * @example
 * ```ts
 * const registry = createRegistry([vlenUtf8, vlenBytes]);
 * ```
 */
export const vlenUtf8: CodecEntry = {
  type: "codec",
  name: "vlen-utf8",
  aliases: ["numcodecs.vlen-utf8"],
  codecKind: "array_to_bytes",
  package: PACKAGE,
  fromConfig(_configuration, context) {
    checkDataType("vlen-utf8", "string", "string", context);
    return utf8Codec;
  },
};

/**
 * The `vlen-bytes` codec entry (alias `numcodecs.vlen-bytes`), for arrays of the
 * `bytes` (`variable_length_bytes`) data type. No configuration.
 */
export const vlenBytes: CodecEntry = {
  type: "codec",
  name: "vlen-bytes",
  aliases: ["numcodecs.vlen-bytes"],
  codecKind: "array_to_bytes",
  package: PACKAGE,
  fromConfig(_configuration, context) {
    checkDataType("vlen-bytes", "bytes", "bytes", context);
    return bytesCodec;
  },
};

