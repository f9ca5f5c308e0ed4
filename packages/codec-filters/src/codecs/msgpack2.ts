/**
 * `numcodecs.msgpack2` (array→bytes) `{use_single_float?, use_bin_type?, raw?}`: the chunk
 * as `msgpack.packb(arr.tolist() + [arr.dtype.str, arr.shape])`, exactly as numcodecs'
 * `MsgPack` codec writes it (defaults: `use_single_float false`, `use_bin_type true`,
 * `raw false`).
 */
import type {
  ArrayToBytesCodec,
  ChunkSpec,
  CodecCallContext,
  CodecEntry,
  ExtensionObject,
  NdArray,
} from "@zarr/spec";
import { cannotEncode, codecFailed, elementsOf } from "../chunk.js";
import { ConfigReader } from "../config.js";
import { MsgpackError, type MsgpackValue, msgpackDecode, msgpackEncode } from "../msgpack.js";
import { fromItems, isObjectLike, itemsToChunk, toItems } from "./object-layout.js";

const NAME = "numcodecs.msgpack2";

/** Turns a scalar of the chunk into a packable value. */
function toMsgpackItem(s: unknown): MsgpackValue {
  if (
    s === null ||
    typeof s === "string" ||
    typeof s === "number" ||
    typeof s === "boolean" ||
    typeof s === "bigint" ||
    s instanceof Uint8Array
  ) {
    return s;
  }
  if (Array.isArray(s)) return s.map(toMsgpackItem);
  if (typeof s === "object") {
    const out: { [key: string]: MsgpackValue } = {};
    for (const [k, v] of Object.entries(s)) out[k] = toMsgpackItem(v);
    return out;
  }
  throw new MsgpackError(`${typeof s} cannot be packed`);
}

class Msgpack2Codec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes" as const;
  readonly name = NAME;

  constructor(
    private readonly useSingleFloat: boolean,
    private readonly useBinType: boolean,
    private readonly raw: boolean,
  ) {}

  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): Uint8Array {
    const data = elementsOf(chunk, spec.dataType, spec.shape, NAME, ctx);
    try {
      const items = toItems(data, spec.dataType, spec.shape, toMsgpackItem) as MsgpackValue;
      return msgpackEncode(items, { useBinType: this.useBinType, useSingleFloat: this.useSingleFloat });
    } catch (error) {
      if (error instanceof MsgpackError) throw cannotEncode(NAME, ctx, error.message);
      throw error;
    }
  }

  decode(bytes: Uint8Array, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    let decoded: MsgpackValue;
    try {
      decoded = msgpackDecode(bytes, this.raw);
    } catch (error) {
      if (error instanceof MsgpackError) throw codecFailed(NAME, ctx, `invalid MessagePack: ${error.message}`);
      throw error;
    }
    // With raw=true, strings (the dtype too) arrive as bytes: read them as UTF-8.
    if (this.raw && Array.isArray(decoded) && decoded.length >= 2) {
      const dtype = decoded[decoded.length - 2];
      if (dtype instanceof Uint8Array) decoded[decoded.length - 2] = rawText(dtype);
    }
    const values = fromItems(decoded, spec, NAME, ctx);
    const texts = this.raw && spec.dataType.kind === "string" ? values.map((v) => (v instanceof Uint8Array ? rawText(v) : v)) : values;
    return itemsToChunk(texts, spec, NAME, ctx);
  }

  toJSON(): ExtensionObject {
    return {
      name: NAME,
      configuration: { raw: this.raw, use_single_float: this.useSingleFloat, use_bin_type: this.useBinType },
    };
  }
}

const rawDecoder = new TextDecoder("utf-8");
const rawText = (b: Uint8Array): string => rawDecoder.decode(b);

/**
 * The `numcodecs.msgpack2` codec entry (array→bytes) for string arrays (and, later,
 * object arrays).
 *
 * @example
 * ```ts
 * const codecs = [{ name: "numcodecs.msgpack2", configuration: {} }];
 * ```
 */
export const msgpack2: CodecEntry = {
  type: "codec",
  name: NAME,
  codecKind: "array_to_bytes",
  package: "@zarr/codec-filters",
  fromConfig(configuration, context) {
    const r: ConfigReader = new ConfigReader(NAME, configuration, context.path, ["use_single_float", "use_bin_type", "raw"]);
    if (!isObjectLike(context.spec.dataType)) {
      r.failCodec(`the codec "${NAME}" serialises string (or object) arrays, not ${context.spec.dataType.name}`);
    }
    return new Msgpack2Codec(r.boolean("use_single_float", false), r.boolean("use_bin_type", true), r.boolean("raw", false));
  },
};
