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

/**
 * JSON as options take it: like {@link JsonValue}, but arrays may be readonly and an
 * object's properties may be `undefined` (an optional field left unset, as in
 * `{ level: cfg.level }`). Such properties are dropped when the value is stored
 * ({@link jsonFromInput}), so stored metadata is always plain `JsonValue`.
 */
export type JsonInput = null | boolean | number | bigint | string | readonly JsonInput[] | JsonInputObject;
/** A JSON object as options take it: properties may be `undefined` (dropped when stored). */
export interface JsonInputObject {
  readonly [key: string]: JsonInput | undefined;
}

/**
 * `value` as `JsonValue`: object properties whose value is `undefined` are dropped, at any
 * depth; objects and arrays are copied, so later changes to the input do not reach what
 * was stored. Anything else is returned as it is (checking it is the parser's job).
 *
 * @example
 * ```ts
 * jsonFromInput({ level: undefined, shuffle: "bitshuffle" }) // { shuffle: "bitshuffle" }
 * ```
 */
export function jsonFromInput(value: JsonInput): JsonValue;
export function jsonFromInput(value: JsonInput | undefined): JsonValue | undefined;
export function jsonFromInput(value: JsonInput | undefined): JsonValue | undefined {
  if (Array.isArray(value)) return value.map((item: JsonInput) => jsonFromInput(item));
  if (!isPlainObject(value)) return value as JsonValue | undefined;
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value as JsonInputObject)) {
    if (item !== undefined) out[key] = jsonFromInput(item);
  }
  return out;
}

/** True for object literals (not class instances such as a `Map`, which are left for the parser to reject). */
function isPlainObject(value: unknown): value is JsonInputObject {
  if (!isJsonObject(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** True for plain JSON objects (not arrays, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

// Integer literals of 16 or more digits may exceed 2^53; only then is the slow parser needed.
const LONG_INTEGER = /[-\d]\d{15,}/;

/**
 * Parses JSON text, keeping integers beyond ±(2^53−1) exact as `bigint`.
 * Throws a `MetadataError` naming `key` and the problem when the text is not JSON.
 *
 * @example
 * ```ts
 * parseJson('{"fill_value": 18446744073709551615}') // { fill_value: 18446744073709551615n }
 * ```
 */
export function parseJson(text: string, key?: string): JsonValue {
  let value: JsonValue;
  try {
    // JSON.parse validates; the exact pass below then reads text known to be JSON.
    value = JSON.parse(text) as JsonValue;
  } catch (error) {
    throw new MetadataError([], `not valid JSON (${(error as Error).message})`, { key, cause: error });
  }
  return LONG_INTEGER.test(text) ? parseExact(text) : value;
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

/** The tokens of JSON text that matter once it is known to be valid (`:` and `,` are implied). */
const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|true|false|null|[{}[\]]/g;

/** An object or array being filled, and for an object the key whose value comes next. */
interface Open {
  value: JsonObject | JsonValue[];
  key?: string;
}

/**
 * Parses valid JSON text (what JSON.parse accepted) keeping unsafe integers as `bigint`:
 * a token scan with a stack of open containers, no recursion.
 */
function parseExact(text: string): JsonValue {
  const stack: Open[] = [];
  let result: JsonValue = null;
  for (const [token] of text.matchAll(TOKEN)) {
    const c = token[0];
    let value: JsonValue;
    if (c === "{" || c === "[") {
      stack.push({ value: c === "{" ? {} : [] });
      continue;
    }
    const top = stack[stack.length - 1];
    if (c === "}" || c === "]") value = (stack.pop() as Open).value;
    else if (c === '"') {
      value = JSON.parse(token) as string;
      if (top !== undefined && !Array.isArray(top.value) && top.key === undefined) {
        top.key = value;
        continue;
      }
    } else if (c === "t" || c === "f" || c === "n") value = c === "t" ? true : c === "f" ? false : null;
    else {
      const n = Number(token);
      value = Number.isSafeInteger(n) || !/^-?\d+$/.test(token) ? n : BigInt(token);
    }
    const parent = stack[stack.length - 1];
    if (parent === undefined) result = value;
    else if (Array.isArray(parent.value)) parent.value.push(value);
    else {
      // defineProperty keeps a "__proto__" key as data instead of changing the prototype.
      Object.defineProperty(parent.value, parent.key as string, { value, enumerable: true, writable: true, configurable: true });
      parent.key = undefined;
    }
  }
  return result;
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
