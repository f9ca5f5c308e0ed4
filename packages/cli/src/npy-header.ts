/**
 * The header of a NumPy `.npy` file: the magic string, the format version, and the
 * Python dict literal `{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }`.
 * Reading accepts versions 1.0, 2.0 and 3.0; writing produces 1.0, or 2.0 when the
 * header does not fit in the 65535 bytes version 1.0 allows.
 */
import { ZarrError } from "@zarr/spec";

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // "\x93NUMPY"
/** Headers (magic to final newline) are padded to a multiple of this, as NumPy does. */
const HEADER_ALIGNMENT = 64;
/** NumPy refuses headers beyond this size by default; so do we, before decoding one. */
const MAX_HEADER_BYTES = 1 << 20;

/** A Python literal as it may appear in a header. */
export type PyValue = string | number | boolean | null | PyValue[] | { [key: string]: PyValue };

/** What a header says. */
export interface NpyHeader {
  /** The dtype string (`"<f8"`, `"|S3"`, `"<M8[10s]"`), or the list of a structured dtype. */
  descr: PyValue;
  fortranOrder: boolean;
  shape: number[];
  /** Byte offset of the first data byte. */
  dataOffset: number;
}

/** Throws `INVALID_ARGUMENT` naming the file and the problem. */
export function malformed(fileName: string, problem: string): never {
  throw new ZarrError("INVALID_ARGUMENT", `Malformed .npy file "${fileName}": ${problem}`);
}

/** Bytes {@link npyHeaderExtent} needs: the magic, the version and the longest header length field. */
export const NPY_PROLOGUE_BYTES = 12;

/**
 * Checks the magic and version at the start of `bytes` (at least the first
 * {@link NPY_PROLOGUE_BYTES} of the file, or all of a shorter file) and returns where the
 * header dict starts and how long it claims to be (at most 1 MiB). Throws
 * `INVALID_ARGUMENT` naming the file otherwise: a reader calls this before reading more.
 */
export function npyHeaderExtent(bytes: Uint8Array, fileName: string): { start: number; headerLength: number } {
  if (bytes.length < 10 || MAGIC.some((b, i) => bytes[i] !== b)) {
    malformed(fileName, 'it does not start with the magic string "\\x93NUMPY"');
  }
  const major = bytes[6];
  const minor = bytes[7];
  if (major < 1 || major > 3 || minor !== 0) malformed(fileName, `unsupported format version ${major}.${minor}`);
  const lengthBytes = major === 1 ? 2 : 4;
  if (bytes.length < 8 + lengthBytes) malformed(fileName, "the file ends inside the header length");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  if (headerLength > MAX_HEADER_BYTES) malformed(fileName, `the header claims ${headerLength} bytes (more than 1 MiB)`);
  return { start: 8 + lengthBytes, headerLength };
}

/** Parses the magic, version and header dict at the start of `bytes`. */
export function parseNpyHeader(bytes: Uint8Array, fileName: string): NpyHeader {
  const { start, headerLength } = npyHeaderExtent(bytes, fileName);
  if (start + headerLength > bytes.length) {
    malformed(fileName, `the header claims ${headerLength} bytes but the file has only ${bytes.length - start} after it`);
  }
  const raw = bytes.subarray(start, start + headerLength);
  let text: string;
  try {
    text = new TextDecoder(bytes[6] === 3 ? "utf-8" : "latin1", { fatal: true }).decode(raw);
  } catch {
    malformed(fileName, "the header is not valid UTF-8 text");
  }
  let dict: PyValue;
  try {
    dict = new PyLiteralParser(text).parseDocument();
  } catch (error) {
    if (error instanceof HeaderSyntaxError) malformed(fileName, `the header is not a Python dict literal (${error.message})`);
    throw error;
  }
  if (dict === null || typeof dict !== "object" || Array.isArray(dict)) malformed(fileName, "the header is not a dict");
  const keys = Object.keys(dict).sort();
  if (keys.join(",") !== "descr,fortran_order,shape") {
    malformed(fileName, `the header must have exactly the keys 'descr', 'fortran_order' and 'shape', found ${keys.map((k) => `'${k}'`).join(", ") || "none"}`);
  }
  const { descr, fortran_order: fortranOrder, shape } = dict;
  if (typeof fortranOrder !== "boolean") malformed(fileName, "'fortran_order' must be True or False");
  if (!Array.isArray(shape)) malformed(fileName, "'shape' must be a tuple of integers");
  let size = 1;
  for (const n of shape) {
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) {
      malformed(fileName, `'shape' must hold non-negative integers, found ${JSON.stringify(n)}`);
    }
    size *= n;
  }
  if (size > Number.MAX_SAFE_INTEGER) malformed(fileName, `the shape (${shape.join(", ")}) is too large`);
  return { descr, fortranOrder, shape: shape as number[], dataOffset: start + headerLength };
}

/** Formats a shape as a Python tuple: `()`, `(3,)`, `(3, 4)`. */
function pythonTuple(shape: readonly number[]): string {
  if (shape.length === 1) return `(${shape[0]},)`;
  return `(${shape.join(", ")})`;
}

/**
 * Builds the magic, version, header length and padded header for a C-order array of
 * `shape` with dtype string `descr` (ASCII).
 */
export function formatNpyHeader(descr: string, shape: readonly number[]): Uint8Array {
  const dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${pythonTuple(shape)}, }`;
  for (const [major, prefix] of [
    [1, 10],
    [2, 12],
  ] as const) {
    // Pad with spaces so magic + header ends on the alignment, newline last.
    const unpadded = prefix + dict.length + 1;
    const total = Math.ceil(unpadded / HEADER_ALIGNMENT) * HEADER_ALIGNMENT;
    const headerLength = total - prefix;
    if (major === 1 && headerLength > 0xffff) continue;
    const out = new Uint8Array(total);
    out.set(MAGIC, 0);
    out[6] = major;
    out[7] = 0;
    const view = new DataView(out.buffer);
    if (major === 1) view.setUint16(8, headerLength, true);
    else view.setUint32(8, headerLength, true);
    const text = dict + " ".repeat(headerLength - dict.length - 1) + "\n";
    for (let i = 0; i < text.length; i++) out[prefix + i] = text.charCodeAt(i);
    return out;
  }
  throw new ZarrError("INVALID_ARGUMENT", "The .npy header is too large"); // unreachable: 2.0 holds 4 GiB
}

class HeaderSyntaxError extends Error {}

/**
 * A parser for the Python literals NumPy writes in headers: dicts, tuples, lists,
 * strings, integers (with Python 2's `L` suffix), `True`, `False`, `None`.
 */
class PyLiteralParser {
  private pos = 0;
  constructor(private readonly text: string) {}

  parseDocument(): PyValue {
    const value = this.parseValue(0);
    this.skipSpace();
    if (this.pos !== this.text.length) this.fail("unexpected text after the dict");
    return value;
  }

  private fail(message: string): never {
    throw new HeaderSyntaxError(`${message} at position ${this.pos}`);
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++;
  }

  private parseValue(depth: number): PyValue {
    if (depth > 32) this.fail("nesting too deep");
    this.skipSpace();
    const c = this.text[this.pos];
    if (c === "{") return this.parseDict(depth);
    if (c === "(") return this.parseSequence(")", depth);
    if (c === "[") return this.parseSequence("]", depth);
    if (c === "'" || c === '"') return this.parseString();
    if (c !== undefined && /[-+0-9]/.test(c)) return this.parseInteger();
    for (const [word, value] of [
      ["True", true],
      ["False", false],
      ["None", null],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    return this.fail(c === undefined ? "unexpected end" : `unexpected character ${JSON.stringify(c)}`);
  }

  private parseDict(depth: number): { [key: string]: PyValue } {
    const out: { [key: string]: PyValue } = {};
    this.pos++;
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] === "}") {
        this.pos++;
        return out;
      }
      const key = this.parseValue(depth + 1);
      if (typeof key !== "string") this.fail("dict keys must be strings");
      this.skipSpace();
      if (this.text[this.pos] !== ":") this.fail('expected ":"');
      this.pos++;
      const value = this.parseValue(depth + 1);
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      this.skipSpace();
      const sep = this.text[this.pos];
      if (sep === ",") this.pos++;
      else if (sep !== "}") this.fail('expected "," or "}"');
    }
  }

  private parseSequence(close: string, depth: number): PyValue[] {
    const out: PyValue[] = [];
    this.pos++;
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] === close) {
        this.pos++;
        return out;
      }
      out.push(this.parseValue(depth + 1));
      this.skipSpace();
      const sep = this.text[this.pos];
      if (sep === ",") this.pos++;
      else if (sep !== close) this.fail(`expected "," or "${close}"`);
    }
  }

  private parseString(): string {
    const quote = this.text[this.pos++];
    let out = "";
    for (;;) {
      const c = this.text[this.pos++];
      if (c === undefined) this.fail("unterminated string");
      if (c === quote) return out;
      if (c !== "\\") {
        out += c;
        continue;
      }
      const e = this.text[this.pos++];
      const simple: Record<string, string> = { "\\": "\\", "'": "'", '"': '"', n: "\n", t: "\t", r: "\r", "0": "\0" };
      if (e !== undefined && Object.hasOwn(simple, e)) out += simple[e];
      else if (e === "x" || e === "u" || e === "U") {
        const digits = e === "x" ? 2 : e === "u" ? 4 : 8;
        const hex = this.text.slice(this.pos, this.pos + digits);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== digits) this.fail("invalid escape in a string");
        const cp = Number.parseInt(hex, 16);
        if (cp > 0x10ffff) this.fail("invalid code point in a string");
        out += String.fromCodePoint(cp);
        this.pos += digits;
      } else this.fail("unsupported escape in a string");
    }
  }

  private parseInteger(): number {
    const m = /^[-+]?\d+L?/.exec(this.text.slice(this.pos, this.pos + 40));
    if (!m) this.fail("invalid number");
    this.pos += m[0].length;
    if (/^[.eE]/.test(this.text.slice(this.pos, this.pos + 1))) this.fail("only integers are allowed");
    const n = Number(m[0].replace(/L$/, ""));
    if (!Number.isSafeInteger(n)) this.fail(`the integer ${m[0]} is too large`);
    return n;
  }
}
