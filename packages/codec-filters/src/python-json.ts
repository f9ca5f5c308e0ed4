/**
 * JSON as Python's `json` module writes and reads it, for numcodecs' `json2` codec:
 * the same escapes (`\uXXXX` in lowercase hex, surrogate pairs when `ensure_ascii`), the
 * same float text (`repr`: `1.0`, `1e-05`, `1e+16`), `NaN`/`Infinity`, separators, indent
 * and key sorting. The reader accepts Python's extensions (`NaN`, `Infinity`,
 * `-Infinity`, control characters when not strict), keeps integers beyond 2^53 exact as
 * bigints, and limits nesting depth so hostile input cannot exhaust the stack.
 */

/** A value the writer accepts (and the reader produces). */
export type PyJsonValue = null | boolean | number | bigint | string | PyJsonValue[] | { [key: string]: PyJsonValue };

/** Writer options, as numcodecs' JSON codec passes them to `json.JSONEncoder`. */
export interface PyJsonWriteOptions {
  ensureAscii: boolean;
  allowNan: boolean;
  sortKeys: boolean;
  /** `null`: one line; a number of spaces or a string: one item per line. */
  indent: number | string | null;
  itemSeparator: string;
  keySeparator: string;
}

/** Thrown for values Python's encoder would refuse, and for malformed text when reading. */
export class PyJsonError extends Error {}

const HEX = "0123456789abcdef";

function escapeUnit(code: number): string {
  return `\\u${HEX[(code >>> 12) & 15]}${HEX[(code >>> 8) & 15]}${HEX[(code >>> 4) & 15]}${HEX[code & 15]}`;
}

/** A string literal as `json.encoder` writes it. */
export function pyJsonString(s: string, ensureAscii: boolean): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let rep: string | undefined;
    if (c === 0x22) rep = '\\"';
    else if (c === 0x5c) rep = "\\\\";
    else if (c < 0x20) {
      rep = c === 0x0a ? "\\n" : c === 0x0d ? "\\r" : c === 0x09 ? "\\t" : c === 0x08 ? "\\b" : c === 0x0c ? "\\f" : escapeUnit(c);
    } else if (ensureAscii && c > 0x7e) rep = escapeUnit(c); // UTF-16 units: astral characters become surrogate pairs
    if (rep !== undefined) {
      out += s.slice(start, i) + rep;
      start = i + 1;
    }
  }
  return `${out + s.slice(start)}"`;
}

/** Python's `repr(float)`. */
export function pyFloatRepr(x: number, allowNan: boolean): string {
  if (!Number.isFinite(x)) {
    if (!allowNan) throw new PyJsonError(`Out of range float values are not JSON compliant: ${x}`);
    return Number.isNaN(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity";
  }
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  // toExponential() without digits gives the shortest round-tripping digits, like repr
  const [mantissa, exp] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const decpt = Number(exp) + 1; // position of the decimal point after the first digit
  if (decpt > 16 || decpt < -3) {
    const e = decpt - 1;
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const es = Math.abs(e) < 10 ? `0${Math.abs(e)}` : String(Math.abs(e));
    return `${sign}${m}e${e < 0 ? "-" : "+"}${es}`;
  }
  if (decpt <= 0) return `${sign}0.${"0".repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return `${sign}${digits}${"0".repeat(decpt - digits.length)}.0`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

/** Orders strings by code point, as Python does. */
function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** Writes `value` as Python's `json.JSONEncoder(**options).encode(value)` would. */
export function pyJsonEncode(value: PyJsonValue, options: PyJsonWriteOptions): string {
  const indentUnit =
    options.indent === null ? null : typeof options.indent === "number" ? " ".repeat(Math.max(0, options.indent)) : options.indent;
  const parts: string[] = [];
  const write = (v: PyJsonValue, level: number): void => {
    if (v === null) parts.push("null");
    else if (v === true) parts.push("true");
    else if (v === false) parts.push("false");
    else if (typeof v === "string") parts.push(pyJsonString(v, options.ensureAscii));
    else if (typeof v === "bigint") parts.push(v.toString());
    else if (typeof v === "number") {
      // JSON numbers carry no int/float distinction: integral values are written as ints
      parts.push(Number.isInteger(v) && Math.abs(v) < 2 ** 53 ? String(v) : pyFloatRepr(v, options.allowNan));
    } else if (Array.isArray(v)) {
      if (v.length === 0) {
        parts.push("[]");
        return;
      }
      const inner = indentUnit === null ? "" : `\n${indentUnit.repeat(level + 1)}`;
      parts.push(`[${inner}`);
      v.forEach((item, i) => {
        if (i > 0) parts.push(options.itemSeparator + inner);
        write(item, level + 1);
      });
      parts.push(indentUnit === null ? "]" : `\n${indentUnit.repeat(level)}]`);
    } else {
      const keys = Object.keys(v);
      if (keys.length === 0) {
        parts.push("{}");
        return;
      }
      if (options.sortKeys) keys.sort(compareCodePoints);
      const inner = indentUnit === null ? "" : `\n${indentUnit.repeat(level + 1)}`;
      parts.push(`{${inner}`);
      keys.forEach((key, i) => {
        if (i > 0) parts.push(options.itemSeparator + inner);
        parts.push(pyJsonString(key, options.ensureAscii) + options.keySeparator);
        write(v[key], level + 1);
      });
      parts.push(indentUnit === null ? "}" : `\n${indentUnit.repeat(level)}}`);
    }
  };
  write(value, 0);
  return parts.join("");
}

const MAX_DEPTH = 512;

/** Adds a key to a parsed object without ever touching its prototype (`__proto__` keys). */
function defineKey(obj: { [key: string]: PyJsonValue }, key: string, value: PyJsonValue): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Reads JSON text as Python's `json.JSONDecoder(strict=strict)` does. Throws
 * `PyJsonError` with the position of the first problem.
 */
export function pyJsonDecode(text: string, strict: boolean): PyJsonValue {
  let pos = 0;
  const n = text.length;
  const fail = (what: string): never => {
    throw new PyJsonError(`${what} at character ${pos}`);
  };
  const skipWhitespace = (): void => {
    while (pos < n) {
      const c = text.charCodeAt(pos);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      pos++;
    }
  };
  const readString = (): string => {
    pos++; // opening quote
    let out = "";
    let start = pos;
    for (;;) {
      if (pos >= n) fail("unterminated string");
      const c = text.charCodeAt(pos);
      if (c === 0x22) {
        out += text.slice(start, pos);
        pos++;
        return out;
      }
      if (c === 0x5c) {
        out += text.slice(start, pos);
        const e = text[pos + 1];
        if (e === undefined) fail("unterminated escape");
        if (e === "u") {
          const hex = text.slice(pos + 2, pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("invalid \\u escape");
          out += String.fromCharCode(Number.parseInt(hex, 16));
          pos += 6;
        } else {
          const simple: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
          const r = simple[e];
          if (r === undefined) fail(`invalid escape \\${e}`);
          out += r;
          pos += 2;
        }
        start = pos;
        continue;
      }
      if (c < 0x20 && strict) fail("control character in string");
      pos++;
    }
  };
  const readNumber = (): number | bigint => {
    const m = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/.exec(text.slice(pos, pos + 400));
    if (m === null) return fail("invalid number");
    pos += m[0].length;
    if (m[1] === undefined && m[2] === undefined) {
      const v = Number(m[0]);
      return Number.isSafeInteger(v) ? v : BigInt(m[0]);
    }
    return Number(m[0]);
  };
  const readValue = (depth: number): PyJsonValue => {
    if (depth > MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH} levels`);
    skipWhitespace();
    if (pos >= n) fail("expected a value");
    const c = text[pos];
    if (c === '"') return readString();
    if (c === "[") {
      pos++;
      const arr: PyJsonValue[] = [];
      skipWhitespace();
      if (text[pos] === "]") {
        pos++;
        return arr;
      }
      for (;;) {
        arr.push(readValue(depth + 1));
        skipWhitespace();
        if (text[pos] === ",") pos++;
        else if (text[pos] === "]") {
          pos++;
          return arr;
        } else fail("expected ',' or ']'");
      }
    }
    if (c === "{") {
      pos++;
      const obj: { [key: string]: PyJsonValue } = {};
      skipWhitespace();
      if (text[pos] === "}") {
        pos++;
        return obj;
      }
      for (;;) {
        skipWhitespace();
        if (text[pos] !== '"') fail("expected a property name in double quotes");
        const key = readString();
        skipWhitespace();
        if (text[pos] !== ":") fail("expected ':'");
        pos++;
        defineKey(obj, key, readValue(depth + 1));
        skipWhitespace();
        if (text[pos] === ",") pos++;
        else if (text[pos] === "}") {
          pos++;
          return obj;
        } else fail("expected ',' or '}'");
      }
    }
    if (text.startsWith("null", pos)) {
      pos += 4;
      return null;
    }
    if (text.startsWith("true", pos)) {
      pos += 4;
      return true;
    }
    if (text.startsWith("false", pos)) {
      pos += 5;
      return false;
    }
    if (text.startsWith("NaN", pos)) {
      pos += 3;
      return Number.NaN;
    }
    if (text.startsWith("Infinity", pos)) {
      pos += 8;
      return Number.POSITIVE_INFINITY;
    }
    if (text.startsWith("-Infinity", pos)) {
      pos += 9;
      return Number.NEGATIVE_INFINITY;
    }
    return readNumber();
  };
  const value = readValue(0);
  skipWhitespace();
  if (pos !== n) fail("extra data");
  return value;
}
