/**
 * Checking JSON text without building its value. A metadata document of millions of
 * attribute keys costs JSON.parse about 150 bytes of heap a key; this scan checks the same
 * grammar JSON.parse accepts (strings with valid escapes and no raw control characters,
 * the number grammar, the three literals, the four whitespace characters, any nesting)
 * and holds nothing but a stack of the open containers, so the attributes can be kept as
 * text until someone uses them (see unparsed-attributes.ts).
 */
import { MetadataError } from "./errors.js";

/** Where a JSON value sits in a text: from `start` to just before `end`. */
export interface JsonSpan {
  start: number;
  end: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** A string's characters up to its end or the next escape (anything but `"`, `\` and raw control characters). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON strings may not hold raw control characters; this finds them.
const PLAIN_CHARS = /[^"\\\u0000-\u001f]*/y;

/** `\` followed by one of these is a one-character escape. */
const SHORT_ESCAPES = new Set([QUOTE, BACKSLASH, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** The index of the first character at or after `i` that is not JSON whitespace (space, tab, line feed, carriage return). */
function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

/** Throws the error of text that is not JSON: what is at `i`, and what was `expected` there. */
function fail(text: string, i: number, expected: string, key: string | undefined): never {
  const found = i >= text.length ? "the end of the text" : JSON.stringify(String.fromCodePoint(text.codePointAt(i) as number));
  throw new MetadataError([], `not valid JSON (unexpected ${found} at position ${i}, expected ${expected})`, { key });
}

/** The index just past the string that opens at `i` (a `"`). */
function scanString(text: string, i: number, key: string | undefined): number {
  let j = i + 1;
  for (;;) {
    PLAIN_CHARS.lastIndex = j;
    PLAIN_CHARS.test(text);
    j = PLAIN_CHARS.lastIndex;
    const c = text.charCodeAt(j);
    if (c === QUOTE) return j + 1;
    if (c !== BACKSLASH) fail(text, j, j >= text.length ? 'the string to end with "' : "no raw control character in a string", key);
    const e = text.charCodeAt(j + 1);
    if (SHORT_ESCAPES.has(e)) j += 2;
    else if (e === 0x75) {
      for (let k = j + 2; k < j + 6; k++) if (!isHexDigit(text.charCodeAt(k))) fail(text, k, "a hexadecimal digit of a \\u escape", key);
      j += 6;
    } else fail(text, j + 1, "an escape (one of \"\\/bfnrtu after \\)", key);
  }
}

/** The index of the first character at or after `i` that is not a decimal digit. */
function skipDigits(text: string, i: number): number {
  while (isDigit(text.charCodeAt(i))) i++;
  return i;
}

/** The index just past the number that starts at `i`: `-`, an integer without leading zeros, a fraction, an exponent. */
function scanNumber(text: string, i: number, key: string | undefined): number {
  if (text.charCodeAt(i) === MINUS) i++;
  const first = text.charCodeAt(i);
  if (first === ZERO) i++;
  else if (isDigit(first)) i = skipDigits(text, i + 1);
  else fail(text, i, "a digit", key);
  if (text.charCodeAt(i) === DOT) {
    if (!isDigit(text.charCodeAt(i + 1))) fail(text, i + 1, "a digit after the decimal point", key);
    i = skipDigits(text, i + 1);
  }
  const e = text.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const sign = text.charCodeAt(i);
    if (sign === 0x2b || sign === MINUS) i++;
    if (!isDigit(text.charCodeAt(i))) fail(text, i, "a digit of the exponent", key);
    i = skipDigits(text, i);
  }
  return i;
}

/** The index just past the scalar (string, number, true, false, null) that starts at `i`. */
function scanScalar(text: string, i: number, key: string | undefined): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return scanString(text, i, key);
  if (c === MINUS || isDigit(c)) return scanNumber(text, i, key);
  const literal = c === 0x74 ? "true" : c === 0x66 ? "false" : c === 0x6e ? "null" : undefined;
  if (literal !== undefined && text.startsWith(literal, i)) return i + literal.length;
  return fail(text, i, "a JSON value", key);
}

/** True when the string at `start`..`end` (quotes included) spells `name`, however it is escaped. */
function spells(text: string, start: number, end: number, name: string): boolean {
  const raw = text.slice(start + 1, end - 1);
  return raw === name || (raw.includes("\\") && JSON.parse(text.slice(start, end)) === name);
}

/**
 * Checks that `text` is JSON as `JSON.parse` accepts it, without building its value, and
 * returns where the value of the top-level object's member `member` is (the last one when
 * the name repeats, as `JSON.parse` keeps the last): undefined when the text is not an
 * object or has no such member. Text that is not JSON throws a `MetadataError` naming `key`
 * and the position, as `parseJson` does. Any nesting depth works (no recursion).
 *
 * @example
 * ```ts
 * const text = '{"zarr_format": 3, "attributes": {"a": [1, 2]}}';
 * const span = scanJson(text, "attributes"); // { start: 33, end: 46 }
 * text.slice(span.start, span.end); // '{"a": [1, 2]}'
 * ```
 */
export function scanJson(text: string, member: string, key?: string): JsonSpan | undefined {
  // Whether each open container is an object (true) or an array.
  const objects: boolean[] = [];
  let found: JsonSpan | undefined;
  // Where the value of a top-level member named `member` starts while it is being scanned.
  let memberStart = -1;
  let i = skipSpace(text, 0);
  let atName = false;
  for (;;) {
    if (atName) {
      // An object member's name, its colon and the spaces around it.
      if (text.charCodeAt(i) !== QUOTE) fail(text, i, "a string (a member name)", key);
      const nameStart = i;
      const nameEnd = scanString(text, i, key);
      i = skipSpace(text, nameEnd);
      if (text.charCodeAt(i) !== COLON) fail(text, i, '":" after the member name', key);
      i = skipSpace(text, i + 1);
      if (objects.length === 1 && spells(text, nameStart, nameEnd, member)) memberStart = i;
    }
    // A value starts at i.
    const c = text.charCodeAt(i);
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      atName = c === OPEN_OBJECT;
      i = skipSpace(text, i + 1);
      if (text.charCodeAt(i) !== (atName ? CLOSE_OBJECT : CLOSE_ARRAY)) {
        objects.push(atName);
        continue;
      }
      i++;
    } else i = scanScalar(text, i, key);
    // A value ended at i: close the containers it completes, then go on to the next value.
    for (;;) {
      if (memberStart >= 0 && objects.length === 1) {
        found = { start: memberStart, end: i };
        memberStart = -1;
      }
      i = skipSpace(text, i);
      if (objects.length === 0) {
        if (i < text.length) fail(text, i, "the end of the text after the JSON value", key);
        return found;
      }
      atName = objects[objects.length - 1];
      const d = text.charCodeAt(i);
      if (d === COMMA) {
        i = skipSpace(text, i + 1);
        break;
      }
      if (d !== (atName ? CLOSE_OBJECT : CLOSE_ARRAY)) fail(text, i, atName ? '"," or "}"' : '"," or "]"', key);
      objects.pop();
      i++;
    }
  }
}
