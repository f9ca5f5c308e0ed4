/**
 * A kerchunk JSON document read from its UTF-8 bytes in place. Decoding a 100,000-chunk
 * document to text and `JSON.parse`-ing it makes a string copy and an object graph of
 * 100,000 arrays and 200,000 strings, all live at once, only to be copied into the table;
 * here the bytes are checked as JSON once, and then each member of the reference object is
 * read where it lies: a plain `["url", offset, length]` entry straight into the table (the
 * URL decoded once while it repeats), any other value parsed on its own with
 * `parseJsonBytes` and read exactly as a parsed document's would be (`readReferenceDocument`).
 */
import { type JsonValue, MetadataError, parseJsonBytes } from "@zarr/spec";
import { type DocumentView, type ReferenceDocumentOptions, readReferenceDocument } from "./document.js";
import type { ReferenceTable } from "./reference-table.js";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const ZERO = 0x30;
const NINE = 0x39;
/** Digits of a number that is surely below 2^53 (larger ones take the exact path). */
const SAFE_DIGITS = 15;

const decoder = new TextDecoder();
const encoder = new TextEncoder();

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** Where one member of an object lies: its key's bytes (inside the quotes) and its value's. */
interface Member {
  keyStart: number;
  keyEnd: number;
  /** True when the key has escapes (it is then decoded by `JSON.parse`). */
  keyEscaped: boolean;
  valueStart: number;
  valueEnd: number;
}

/** Strict JSON (RFC 8259) over UTF-8 bytes: checks values and finds where they end, without building them. */
class JsonBytes {
  readonly bytes: Uint8Array;
  readonly #where: string | undefined;
  /** Set by {@link string}: whether the last string had a backslash escape. */
  escaped = false;

  constructor(bytes: Uint8Array, key: string | undefined) {
    this.bytes = bytes;
    this.#where = key;
  }

  fail(at: number, problem?: string): never {
    const what = problem ?? (at >= this.bytes.length ? "the text ends early" : `unexpected byte 0x${this.bytes[at].toString(16).padStart(2, "0")}`);
    throw new MetadataError([], `not valid JSON (${what} at byte ${at})`, { key: this.#where });
  }

  /** The first byte at or after `at` that is not white space. */
  space(at: number): number {
    const b = this.bytes;
    while (at < b.length && isSpace(b[at])) at++;
    return at;
  }

  /** Checks the string starting at `at` (its opening quote); returns the index after its closing quote. */
  string(at: number): number {
    const b = this.bytes;
    this.escaped = false;
    for (let i = at + 1; i < b.length; ) {
      const c = b[i];
      if (c === QUOTE) return i + 1;
      if (c < 0x20) this.fail(i, "a control character in a string");
      if (c === BACKSLASH) {
        this.escaped = true;
        const e = b[i + 1];
        if (e === 0x75) {
          for (let k = 2; k < 6; k++) if (!isHex(b[i + k])) this.fail(i + k, "a bad \\u escape");
          i += 6;
        } else if (e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) i += 2;
        else this.fail(i + 1, "a bad escape");
      } else if (c < 0x80) i++;
      else i = this.#utf8(i);
    }
    return this.fail(b.length);
  }

  /** Checks the UTF-8 sequence at `at` (the lead byte is ≥ 0x80); returns the index after it. */
  #utf8(at: number): number {
    const b = this.bytes;
    const c = b[at];
    let n: number;
    let low = 0x80;
    let high = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      if (c === 0xe0) low = 0xa0;
      else if (c === 0xed) high = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      if (c === 0xf0) low = 0x90;
      else if (c === 0xf4) high = 0x8f;
    } else return this.fail(at, "invalid UTF-8");
    for (let k = 1; k <= n; k++) {
      const d = b[at + k];
      if (d === undefined || d < (k === 1 ? low : 0x80) || d > (k === 1 ? high : 0xbf)) this.fail(at + k, "invalid UTF-8");
    }
    return at + n + 1;
  }

  /** Checks the number at `at`; returns the index after it. */
  number(at: number): number {
    const b = this.bytes;
    let i = at;
    if (b[i] === 0x2d) i++;
    if (b[i] === ZERO) i++;
    else if (b[i] > ZERO && b[i] <= NINE) while (isDigit(b[i])) i++;
    else this.fail(i);
    if (b[i] === 0x2e) {
      if (!isDigit(b[++i])) this.fail(i);
      while (isDigit(b[i])) i++;
    }
    if (b[i] === 0x65 || b[i] === 0x45) {
      i++;
      if (b[i] === 0x2b || b[i] === 0x2d) i++;
      if (!isDigit(b[i])) this.fail(i);
      while (isDigit(b[i])) i++;
    }
    return i;
  }

  /** Checks the literal `word` at `at`; returns the index after it. */
  #literal(at: number, word: string): number {
    for (let k = 0; k < word.length; k++) if (this.bytes[at + k] !== word.charCodeAt(k)) this.fail(at + k);
    return at + word.length;
  }

  /** Checks the object key at `at` and its colon; returns where its value starts. */
  #key(at: number): number {
    if (this.bytes[at] !== QUOTE) this.fail(at);
    const colon = this.space(this.string(at));
    if (this.bytes[colon] !== COLON) this.fail(colon);
    return this.space(colon + 1);
  }

  /**
   * Checks the value at `at` (any nesting depth: a stack of its own, no recursion); returns
   * the index after it.
   */
  value(at: number): number {
    const b = this.bytes;
    /** Open containers, innermost last: true for an object. */
    const open: boolean[] = [];
    let i = at;
    for (;;) {
      // A value starts at i.
      const c = b[i];
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        const inner = this.space(i + 1);
        if (b[inner] === (c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET)) i = inner + 1;
        else {
          open.push(c === OPEN_BRACE);
          i = c === OPEN_BRACE ? this.#key(inner) : inner;
          continue;
        }
      } else if (c === QUOTE) i = this.string(i);
      else if (c === 0x2d || isDigit(c)) i = this.number(i);
      else if (c === 0x74) i = this.#literal(i, "true");
      else if (c === 0x66) i = this.#literal(i, "false");
      else if (c === 0x6e) i = this.#literal(i, "null");
      else this.fail(i);
      // A value ended before i: close containers until one goes on.
      for (;;) {
        if (open.length === 0) return i;
        i = this.space(i);
        const object = open[open.length - 1];
        if (b[i] === COMMA) {
          i = this.space(i + 1);
          if (object) i = this.#key(i);
          break;
        }
        if (b[i] !== (object ? CLOSE_BRACE : CLOSE_BRACKET)) this.fail(i);
        open.pop();
        i++;
      }
    }
  }

  /** Calls `visit` with each member of the object at `at` (checked as it goes); returns the index after the object. */
  members(at: number, visit: (member: Member) => void): number {
    const b = this.bytes;
    let i = this.space(at + 1);
    if (b[i] === CLOSE_BRACE) return i + 1;
    const member: Member = { keyStart: 0, keyEnd: 0, keyEscaped: false, valueStart: 0, valueEnd: 0 };
    for (;;) {
      if (b[i] !== QUOTE) this.fail(i);
      member.keyStart = i + 1;
      const keyEnd = this.string(i);
      member.keyEnd = keyEnd - 1;
      member.keyEscaped = this.escaped;
      i = this.space(keyEnd);
      if (b[i] !== COLON) this.fail(i);
      member.valueStart = this.space(i + 1);
      member.valueEnd = this.value(member.valueStart);
      visit(member);
      i = this.space(member.valueEnd);
      if (b[i] === CLOSE_BRACE) return i + 1;
      if (b[i] !== COMMA) this.fail(i);
      i = this.space(i + 1);
    }
  }

  /** True when a member's key is `name` (ASCII), compared without decoding it. */
  keyIs(member: Member, name: string): boolean {
    if (member.keyEscaped) return this.keyOf(member) === name;
    if (member.keyEnd - member.keyStart !== name.length) return false;
    for (let k = 0; k < name.length; k++) if (this.bytes[member.keyStart + k] !== name.charCodeAt(k)) return false;
    return true;
  }

  /** The text of a member's key. */
  keyOf(member: Member): string {
    if (!member.keyEscaped) return decoder.decode(this.bytes.subarray(member.keyStart, member.keyEnd));
    return JSON.parse(decoder.decode(this.bytes.subarray(member.keyStart - 1, member.keyEnd + 1))) as string;
  }

  /** A plain non-negative integer below 2^53 at `at` (digits only, no leading zero) and the index after it; undefined otherwise. */
  plainCount(at: number): [number, number] | undefined {
    const b = this.bytes;
    let i = at;
    let n = 0;
    while (isDigit(b[i]) && i - at < SAFE_DIGITS + 1) n = n * 10 + (b[i++] - ZERO);
    const digits = i - at;
    if (digits === 0 || digits > SAFE_DIGITS || (digits > 1 && b[at] === ZERO)) return undefined;
    return [n, i];
  }
}

/** The names of the top-level members the reader asks for (version 1's parts). */
const NOTED = ["version", "templates", "refs", "gen"];

/**
 * A document's bytes as a {@link DocumentView}: checked as JSON when made (a `MetadataError`
 * naming `key` and the byte where it is not), then read member by member.
 */
function bytesDocumentView(bytes: Uint8Array, key: string | undefined): DocumentView {
  const json = new JsonBytes(bytes, key);
  // A byte order mark is dropped, as TextDecoder does.
  const start = json.space(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0);
  const isObject = bytes[start] === OPEN_BRACE;
  // The top-level members the reader asks for, by name (the last of a repeated name, as JSON.parse keeps).
  const noted = new Map<string, [number, number]>();
  const end = isObject
    ? json.members(start, (m) => {
        const name = NOTED.find((n) => json.keyIs(m, n));
        if (name !== undefined) noted.set(name, [m.valueStart, m.valueEnd]);
      })
    : json.value(start);
  if (json.space(end) !== bytes.length) json.fail(json.space(end));
  const parse = (from: number, to: number): JsonValue => parseJsonBytes(bytes.subarray(from, to), key);
  return {
    nonObject: () => (isObject ? undefined : { value: parse(start, end) }),
    member(name) {
      const extent = noted.get(name);
      return extent === undefined ? undefined : parse(extent[0], extent[1]);
    },
    isObjectMember: (name) => bytes[noted.get(name)?.[0] ?? -1] === OPEN_BRACE,
    eachMember(name, onValue, onRange) {
      const at = name === undefined ? start : noted.get(name)?.[0];
      if (at === undefined || bytes[at] !== OPEN_BRACE) return;
      const urls = new UrlReader(json);
      json.members(at, (m) => {
        if (bytes[m.valueStart] !== OPEN_BRACKET || !urls.plainRange(m.valueStart)) onValue(json.keyOf(m), parse(m.valueStart, m.valueEnd));
        else if (!m.keyEscaped) onRange(bytes, m.keyStart, m.keyEnd, urls.url, urls.offset, urls.length);
        else {
          const key = encoder.encode(json.keyOf(m));
          onRange(key, 0, key.length, urls.url, urls.offset, urls.length);
        }
      });
    },
  };
}

/**
 * Reads `["url" or null, offset, length]` entries whose URL has no escapes and whose numbers
 * are plain digits (what kerchunk writes); the URL is decoded once while it repeats.
 */
class UrlReader {
  readonly #json: JsonBytes;
  #start = 0;
  #end = 0;
  #text = "";
  /** The last entry read by {@link plainRange}. */
  url: string | null = null;
  offset = 0;
  length = 0;

  constructor(json: JsonBytes) {
    this.#json = json;
  }

  /** Reads the array at `at` (checked JSON) into `url`, `offset` and `length`; false when it is not such an entry. */
  plainRange(at: number): boolean {
    const json = this.#json;
    const b = json.bytes;
    let i = json.space(at + 1);
    if (b[i] === QUOTE) {
      const close = json.string(i);
      if (json.escaped) return false;
      if (!sameBytes(b, i + 1, close - 1, this.#start, this.#end)) {
        this.#start = i + 1;
        this.#end = close - 1;
        this.#text = decoder.decode(b.subarray(this.#start, this.#end));
      }
      this.url = this.#text;
      i = close;
    } else if (b[i] === 0x6e) {
      this.url = null;
      i += 4;
    } else return false;
    i = json.space(i);
    if (b[i] !== COMMA) return false;
    const offset = json.plainCount(json.space(i + 1));
    if (offset === undefined) return false;
    i = json.space(offset[1]);
    if (b[i] !== COMMA) return false;
    const length = json.plainCount(json.space(i + 1));
    if (length === undefined || b[json.space(length[1])] !== CLOSE_BRACKET) return false;
    this.offset = offset[0];
    this.length = length[0];
    return true;
  }
}

/** True when bytes `a`..`aEnd` equal bytes `b`..`bEnd`. */
function sameBytes(bytes: Uint8Array, a: number, aEnd: number, b: number, bEnd: number): boolean {
  if (aEnd - a !== bEnd - b) return false;
  for (let k = 0; k < aEnd - a; k++) if (bytes[a + k] !== bytes[b + k]) return false;
  return true;
}

/**
 * The references of a kerchunk JSON document (versions 0 and 1) given as its UTF-8 bytes:
 * the same table and the same errors as `parseReferenceDocument` of the parsed document,
 * without holding the parsed document. Bytes that are not JSON fail with `METADATA_INVALID`
 * naming `options.where` and the byte.
 *
 * @example
 * ```ts
 * const table = parseReferenceBytes(new TextEncoder().encode('{"a/0": ["s3://b/f.nc", 8, 100]}'), { where: "refs.json" });
 * table.get("a/0"); // { kind: "range", url: "s3://b/f.nc", offset: 8, length: 100 }
 * ```
 */
export function parseReferenceBytes(bytes: Uint8Array, options: ReferenceDocumentOptions = {}): ReferenceTable {
  return readReferenceDocument(bytesDocumentView(bytes, options.where), options);
}
