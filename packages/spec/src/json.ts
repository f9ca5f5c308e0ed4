/**
 * JSON that keeps 64-bit integers exact. `JSON.parse` turns 18446744073709551615 into
 * 18446744073709552000; Zarr fill values of uint64/int64 arrays need every digit, so
 * integer literals outside the safe range are parsed as `bigint` instead.
 */
import { MetadataError, ZarrError } from "./errors.js";
import type { JsonInput, JsonInputObject, JsonObject, JsonValue } from "./json-value.js";
import { jsonText } from "./json-writer.js";

export type { JsonInput, JsonInputObject, JsonObject, JsonValue } from "./json-value.js";

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
  const root = emptyCopy(value);
  if (root === undefined) return value as JsonValue | undefined;
  // Depth-first with a stack of its own (attributes may nest deeper than the call stack
  // allows); `open` holds the containers being copied, to refuse one that contains itself.
  const stack: {
    source: readonly JsonInput[] | JsonInputObject;
    target: JsonValue[] | JsonObject;
    /** The object's keys; undefined for an array (walked by index). */
    keys: string[] | undefined;
    next: number;
  }[] = [];
  const open = new Set<object>();
  const enter = (source: JsonInput, target: JsonValue[] | JsonObject) => {
    if (open.has(source as object)) throw new ZarrError("INVALID_ARGUMENT", "A JSON value cannot contain itself");
    open.add(source as object);
    const keys = Array.isArray(source) ? undefined : Object.keys(source as object);
    stack.push({ source: source as JsonInputObject, target, keys, next: 0 });
  };
  enter(value as JsonInput, root);
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    const { keys } = top;
    if (top.next === (keys ?? (top.source as readonly JsonInput[])).length) {
      open.delete(top.source);
      stack.pop();
      continue;
    }
    const at = top.next++;
    const key = keys?.[at];
    const item = key === undefined ? (top.source as readonly JsonInput[])[at] : (top.source as JsonInputObject)[key];
    if (item === undefined && key !== undefined) continue;
    const copy = emptyCopy(item);
    const stored = copy ?? (item as JsonValue);
    if (key === undefined) (top.target as JsonValue[])[at] = stored;
    else if (key !== "__proto__") (top.target as JsonObject)[key] = stored;
    // defineProperty keeps a "__proto__" key as data instead of changing the prototype.
    else Object.defineProperty(top.target, key, { value: stored, enumerable: true, writable: true, configurable: true });
    if (copy !== undefined) enter(item as JsonInput, copy);
  }
  return root;
}

/** A new empty array or object to copy `value` into, or undefined when it is not an array or plain object. */
function emptyCopy(value: JsonInput | undefined): JsonValue[] | JsonObject | undefined {
  if (Array.isArray(value)) return new Array(value.length);
  return isPlainObject(value) ? {} : undefined;
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

/**
 * Decodes UTF-8 bytes and parses them with {@link parseJson}. Bytes that are not UTF-8,
 * and a document whose text is longer than a JavaScript string can be (about 512 Mi
 * characters in V8), fail with a `MetadataError` giving the decoder's reason.
 */
export function parseJsonBytes(bytes: Uint8Array, key?: string): JsonValue {
  return parseJson(decodeJsonBytes(bytes, key), key);
}

/**
 * The text of a JSON document's UTF-8 bytes (a byte order mark is dropped), failing as
 * {@link parseJsonBytes} does on bytes that are not UTF-8 or too long for a string.
 *
 * @example
 * ```ts
 * decodeJsonBytes(new TextEncoder().encode('{"a": 1}'), "zarr.json"); // '{"a": 1}'
 * ```
 */
export function decodeJsonBytes(bytes: Uint8Array, key?: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    // The decoder's own message says which: bytes that are not UTF-8, or text longer than a
    // JavaScript string can hold ("Cannot create a string longer than 0x1fffffe8
    // characters" in Node), which is a valid document too large to read, not bad UTF-8.
    throw new MetadataError([], (error as Error).message, { key, cause: error });
  }
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
 * spells them `"NaN"`, `"Infinity"` and `"-Infinity"`. Any nesting depth works (no
 * recursion); containers nested deeper than {@link JSON_INDENT_DEPTH} levels are written
 * compact, so the text grows linearly with the depth.
 *
 * @example
 * ```ts
 * stringifyJson({ fill_value: 18446744073709551615n }) // '{\n  "fill_value": 18446744073709551615\n}'
 * ```
 */
export function stringifyJson(value: JsonValue, indent = 2): string {
  return jsonText(value, { indent });
}

/** Serialises with {@link stringifyJson} and encodes as UTF-8 bytes. */
export function jsonToBytes(value: JsonValue, indent = 2): Uint8Array {
  return new TextEncoder().encode(stringifyJson(value, indent));
}
