/**
 * JSON that keeps 64-bit integers exact. `JSON.parse` turns 18446744073709551615 into
 * 18446744073709552000; Zarr fill values of uint64/int64 arrays need every digit, so
 * integer literals outside the safe range are parsed as `bigint` instead.
 */
import { MetadataError, ZarrError } from "./errors.js";

/** Any JSON value; integers beyond ±(2^53−1) are `bigint`. */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | JsonObject;
/** A JSON object. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** True for plain JSON objects (not arrays, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

// Integer literals of 16 or more digits may exceed 2^53; only then is the slow parser needed.
const LONG_INTEGER = /[-\d]\d{15,}/;

/**
 * Parses JSON text, keeping integers beyond ±(2^53−1) exact as `bigint`.
 * Throws a `MetadataError` naming `key` and the position when the text is not JSON.
 *
 * @example
 * ```ts
 * parseJson('{"fill_value": 18446744073709551615}') // { fill_value: 18446744073709551615n }
 * ```
 */
export function parseJson(text: string, key?: string): JsonValue {
  if (!LONG_INTEGER.test(text)) {
    try {
      return JSON.parse(text) as JsonValue;
    } catch (error) {
      throw new MetadataError([], `not valid JSON (${(error as Error).message})`, { key, cause: error });
    }
  }
  return new ExactJsonParser(text, key).parseDocument();
}

/** Decodes UTF-8 bytes and parses them with {@link parseJson}. */
export function parseJsonBytes(bytes: Uint8Array, key?: string): JsonValue {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    throw new MetadataError([], "not valid UTF-8 text", { key, cause: error });
  }
  return parseJson(text, key);
}

class ExactJsonParser {
  private pos = 0;
  constructor(
    private readonly text: string,
    private readonly key: string | undefined,
  ) {}

  parseDocument(): JsonValue {
    this.skipWhitespace();
    const value = this.parseValue(0);
    this.skipWhitespace();
    if (this.pos !== this.text.length) this.fail("unexpected text after the JSON value");
    return value;
  }

  private fail(message: string): never {
    throw new MetadataError([], `not valid JSON (${message} at position ${this.pos})`, { key: this.key });
  }

  private skipWhitespace(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.pos++;
      else break;
    }
  }

  private parseValue(depth: number): JsonValue {
    if (depth > 512) this.fail("nesting too deep");
    const c = this.text[this.pos];
    if (c === "{") return this.parseObject(depth);
    if (c === "[") return this.parseArray(depth);
    if (c === '"') return this.parseString();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.parseNumber();
    if (this.text.startsWith("true", this.pos)) {
      this.pos += 4;
      return true;
    }
    if (this.text.startsWith("false", this.pos)) {
      this.pos += 5;
      return false;
    }
    if (this.text.startsWith("null", this.pos)) {
      this.pos += 4;
      return null;
    }
    return this.fail(c === undefined ? "unexpected end of text" : `unexpected character ${JSON.stringify(c)}`);
  }

  private parseObject(depth: number): JsonObject {
    const out: JsonObject = {};
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.pos] !== '"') this.fail("expected a string key");
      const k = this.parseString();
      this.skipWhitespace();
      if (this.text[this.pos] !== ":") this.fail('expected ":"');
      this.pos++;
      this.skipWhitespace();
      const v = this.parseValue(depth + 1);
      // defineProperty keeps a "__proto__" key as data instead of changing the prototype.
      Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      this.skipWhitespace();
      const sep = this.text[this.pos];
      this.pos++;
      if (sep === "}") return out;
      if (sep !== ",") this.fail('expected "," or "}"');
    }
  }

  private parseArray(depth: number): JsonValue[] {
    const out: JsonValue[] = [];
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipWhitespace();
      out.push(this.parseValue(depth + 1));
      this.skipWhitespace();
      const sep = this.text[this.pos];
      this.pos++;
      if (sep === "]") return out;
      if (sep !== ",") this.fail('expected "," or "]"');
    }
  }

  private parseString(): string {
    // Find the closing quote, then let JSON.parse handle escapes of this one token.
    const start = this.pos;
    let i = start + 1;
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(i);
      if (Number.isNaN(c)) {
        this.pos = i;
        this.fail("unterminated string");
      }
      if (c === 0x5c) i += 2;
      else if (c === 0x22) break;
      else i++;
    }
    this.pos = i + 1;
    try {
      return JSON.parse(t.slice(start, i + 1)) as string;
    } catch {
      this.pos = start;
      return this.fail("invalid string");
    }
  }

  private parseNumber(): number | bigint {
    const match = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/.exec(this.text.slice(this.pos, this.pos + 400));
    if (!match) this.fail("invalid number");
    const literal = match[0];
    this.pos += literal.length;
    if (match[1] === undefined && match[2] === undefined) {
      const n = Number(literal);
      if (!Number.isSafeInteger(n)) return BigInt(literal);
      return n;
    }
    return Number(literal);
  }
}

/**
 * Serialises a JSON value like `JSON.stringify(value, null, indent)`, writing `bigint`
 * values as exact integer literals. Non-finite numbers are refused: Zarr metadata
 * spells them `"NaN"`, `"Infinity"` and `"-Infinity"`.
 *
 * @example
 * ```ts
 * stringifyJson({ fill_value: 18446744073709551615n }) // '{\n  "fill_value": 18446744073709551615\n}'
 * ```
 */
export function stringifyJson(value: JsonValue, indent = 2): string {
  const pad = " ".repeat(indent);
  const write = (v: JsonValue, current: string): string => {
    if (v === null) return "null";
    switch (typeof v) {
      case "bigint":
        return v.toString();
      case "number":
        if (!Number.isFinite(v)) {
          throw new ZarrError("INVALID_ARGUMENT", `Cannot write the non-finite number ${v} as JSON`);
        }
        return JSON.stringify(v);
      case "string":
      case "boolean":
        return JSON.stringify(v);
    }
    const inner = current + pad;
    const nl = indent > 0 ? "\n" : "";
    const colon = indent > 0 ? ": " : ":";
    if (Array.isArray(v)) {
      if (v.length === 0) return "[]";
      return `[${nl}${v.map((x) => inner + write(x, inner)).join(`,${nl}`)}${nl}${current}]`;
    }
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    if (entries.length === 0) return "{}";
    return `{${nl}${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}${colon}${write(x, inner)}`).join(`,${nl}`)}${nl}${current}}`;
  };
  return write(value, "");
}

/** Serialises with {@link stringifyJson} and encodes as UTF-8 bytes. */
export function jsonToBytes(value: JsonValue, indent = 2): Uint8Array {
  return new TextEncoder().encode(stringifyJson(value, indent));
}
