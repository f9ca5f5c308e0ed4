/**
 * `numcodecs.json2` (array→bytes): the chunk as the JSON text numcodecs' `JSON` codec
 * writes, `json.dumps(arr.tolist() + [arr.dtype.str, arr.shape])` with the configured
 * encoder options, encoded in UTF-8. Defaults (numcodecs'): `encoding "utf-8"`,
 * `skipkeys false`, `ensure_ascii true`, `check_circular true`, `allow_nan true`,
 * `sort_keys true`, `indent null`, `separators [",", ":"]` (`[", ", ": "]` with an
 * indent), `strict true`.
 */
import type {
  ArrayToBytesCodec,
  ChunkSpec,
  CodecCallContext,
  CodecEntry,
  ExtensionObject,
  JsonValue,
  NdArray,
} from "@zarr/spec";
import { cannotEncode, codecFailed, elementsOf } from "../chunk.js";
import { ConfigReader } from "../config.js";
import { PyJsonError, type PyJsonValue, type PyJsonWriteOptions, pyJsonDecode, pyJsonEncode } from "../python-json.js";
import { fromItems, isObjectLike, itemsToChunk, toItems } from "./object-layout.js";

const NAME = "numcodecs.json2";
const UTF8_NAMES = ["utf-8", "utf8", "UTF-8", "UTF8", "utf_8", "U8"];
const ASCII_NAMES = ["ascii", "ASCII", "us-ascii", "646"];

interface Json2Options extends PyJsonWriteOptions {
  encoding: string;
  ascii: boolean;
  skipKeys: boolean;
  checkCircular: boolean;
  strict: boolean;
}

const utf8 = new TextEncoder();

/** Turns a scalar of the chunk into a JSON-writable value. */
function toJsonItem(s: unknown): PyJsonValue {
  if (s === null || typeof s === "string" || typeof s === "number" || typeof s === "boolean" || typeof s === "bigint") {
    return s;
  }
  if (Array.isArray(s)) return s.map(toJsonItem);
  if (s instanceof Uint8Array) throw new PyJsonError("bytes are not JSON serializable");
  if (typeof s === "object") {
    const out: { [key: string]: PyJsonValue } = {};
    for (const [k, v] of Object.entries(s)) out[k] = toJsonItem(v);
    return out;
  }
  throw new PyJsonError(`${typeof s} is not JSON serializable`);
}

class Json2Codec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes" as const;
  readonly name = NAME;
  private readonly decoder: TextDecoder;

  constructor(private readonly options: Json2Options) {
    this.decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  }

  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): Uint8Array {
    const data = elementsOf(chunk, spec.dataType, spec.shape, NAME, ctx);
    let text: string;
    try {
      text = pyJsonEncode(toItems(data, spec.dataType, spec.shape, toJsonItem) as PyJsonValue, this.options);
    } catch (error) {
      if (error instanceof PyJsonError) throw cannotEncode(NAME, ctx, error.message);
      throw error;
    }
    const bytes = utf8.encode(text);
    if (this.options.ascii && bytes.some((b) => b > 0x7f)) {
      throw cannotEncode(NAME, ctx, `non-ASCII text cannot be written in the ${this.options.encoding} encoding`);
    }
    return bytes;
  }

  decode(bytes: Uint8Array, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    if (this.options.ascii && bytes.some((b) => b > 0x7f)) {
      throw codecFailed(NAME, ctx, `non-ASCII bytes in ${this.options.encoding} text`);
    }
    let text: string;
    try {
      text = this.decoder.decode(bytes);
    } catch {
      throw codecFailed(NAME, ctx, "the bytes are not valid UTF-8");
    }
    let decoded: unknown;
    try {
      // string chunks: the native parser is much faster and agrees on everything it accepts
      decoded = spec.dataType.kind === "string" && this.options.strict ? JSON.parse(text) : pyJsonDecode(text, this.options.strict);
    } catch (error) {
      try {
        decoded = pyJsonDecode(text, this.options.strict); // NaN, Infinity, … or a real error
      } catch (inner) {
        throw codecFailed(NAME, ctx, `invalid JSON: ${inner instanceof Error ? inner.message : String(error)}`);
      }
    }
    return itemsToChunk(fromItems(decoded, spec, NAME, ctx), spec, NAME, ctx);
  }

  toJSON(): ExtensionObject {
    const o = this.options;
    return {
      name: NAME,
      configuration: {
        encoding: o.encoding,
        skipkeys: o.skipKeys,
        ensure_ascii: o.ensureAscii,
        check_circular: o.checkCircular,
        allow_nan: o.allowNan,
        indent: o.indent as JsonValue,
        separators: [o.itemSeparator, o.keySeparator],
        sort_keys: o.sortKeys,
        strict: o.strict,
      },
    };
  }
}

/**
 * The `numcodecs.json2` codec entry (array→bytes) for string arrays (and, later, object
 * arrays). Text encodings: UTF-8, or ASCII.
 *
 * @example
 * ```ts
 * const a = await createArray(store, "names", { shape: [3], dataType: "string",
 *   codecs: [{ name: "numcodecs.json2", configuration: {} }], registry: createRegistry(filterCodecs) });
 * ```
 */
export const json2: CodecEntry = {
  type: "codec",
  name: NAME,
  codecKind: "array_to_bytes",
  package: "@zarr/codec-filters",
  fromConfig(configuration, context) {
    const keys = ["encoding", "skipkeys", "ensure_ascii", "check_circular", "allow_nan", "sort_keys", "indent", "separators", "strict"];
    const r: ConfigReader = new ConfigReader(NAME, configuration, context.path, keys);
    if (!isObjectLike(context.spec.dataType)) {
      r.failCodec(`the codec "${NAME}" serialises string (or object) arrays, not ${context.spec.dataType.name}`);
    }
    const encoding = r.string("encoding", "utf-8");
    const ascii = ASCII_NAMES.includes(encoding);
    if (!ascii && !UTF8_NAMES.includes(encoding)) r.fail("encoding", `only UTF-8 and ASCII text is supported, not ${JSON.stringify(encoding)}`);
    const rawIndent = r.raw("indent");
    let indent: number | string | null = null;
    if (rawIndent !== undefined && rawIndent !== null) {
      if (typeof rawIndent === "string") indent = rawIndent;
      else indent = r.integer("indent", -1000, 1000);
    }
    const rawSeparators = r.raw("separators");
    let separators: [string, string] = indent === null ? [",", ":"] : [", ", ": "];
    if (rawSeparators !== undefined && rawSeparators !== null) {
      if (!Array.isArray(rawSeparators) || rawSeparators.length !== 2 || !rawSeparators.every((s) => typeof s === "string")) {
        r.fail("separators", "expected [item_separator, key_separator]");
      }
      separators = [rawSeparators[0] as string, rawSeparators[1] as string];
    }
    return new Json2Codec({
      encoding,
      ascii,
      skipKeys: r.boolean("skipkeys", false),
      ensureAscii: r.boolean("ensure_ascii", true),
      checkCircular: r.boolean("check_circular", true),
      allowNan: r.boolean("allow_nan", true),
      sortKeys: r.boolean("sort_keys", true),
      indent,
      itemSeparator: separators[0],
      keySeparator: separators[1],
      strict: r.boolean("strict", true),
    });
  },
};
