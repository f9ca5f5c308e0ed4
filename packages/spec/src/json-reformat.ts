/**
 * Writing JSON text that is kept unparsed (attributes of a big document, see
 * unparsed-attributes.ts) the way `jsonTextPieces` writes its parsed value, without
 * parsing it: the text is walked token by token and handed out in pieces of bounded
 * length, so printing a document of millions of keys never holds more than the text.
 */
import { ZarrError } from "./errors.js";
import { JSON_INDENT_DEPTH, JSON_TEXT_PIECE_CHARS, type JsonTextOptions, jsonNumberText } from "./json-writer.js";

/** How {@link reformatJsonPieces} writes: as {@link JsonTextOptions}, plus the level the value sits at. */
export interface JsonReformatOptions extends JsonTextOptions {
  /**
   * How many containers the value is nested in within the text written around it (default
   * 0): its lines are indented from there, and it is compact when this reaches `indentDepth`,
   * as `jsonTextPieces` would write it at that depth.
   */
  level?: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** A string's characters up to its end, an escape or a surrogate (which may need escaping). */
const PLAIN_RUN = /[^"\\\ud800-\udfff]*/y;

/** The characters a number token is made of (the text is known to be JSON). */
const NUMBER_CHARS = /[-+.eE\d]*/y;

/** Refuses text that is not JSON after all (it should have been checked): never loops on it. */
function notJson(at: number): never {
  throw new ZarrError("INVALID_ARGUMENT", `Cannot re-format text that is not JSON (at position ${at}; check it with scanJson first)`);
}

/** True for the first half of a UTF-16 surrogate pair. */
function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** True when the `\uXXXX` escape ending at `end` writes the first half of a surrogate pair. */
function escapesHighSurrogate(text: string, end: number): boolean {
  return text.charCodeAt(end - 5) === 0x75 && isHighSurrogate(Number.parseInt(text.slice(end - 4, end), 16));
}

/** A number token as `jsonTextPieces` writes the value `parseJson` reads from it: integers beyond 2^53 exact, as their digits. */
function numberTokenText(token: string, numberText: (n: number) => string): string {
  const n = Number(token);
  return Number.isSafeInteger(n) || !/^-?\d+$/.test(token) ? numberText(n) : token;
}

/** The walk through the text: where it is, what is open, and the piece being gathered. */
class Reformatter {
  piece = "";
  private i = 0;
  /** Whether each open container is written compact. */
  private readonly compact: boolean[] = [];
  /** Inside a string's characters (they are written a window at a time). */
  private inString = false;
  /**
   * Where the last run of plain characters found ends: a long string's run is found once,
   * not again for each window of it.
   */
  private plainUntil = 0;
  private readonly newlines: string[] = [];

  constructor(
    private readonly text: string,
    private readonly indent: number,
    private readonly indentDepth: number,
    private readonly level: number,
    private readonly numberText: (n: number) => string,
    private readonly pieceChars: number,
  ) {}

  /** "\n" and the indentation of `level`, made once per level. */
  private newline(level: number): string {
    this.newlines[level] ??= `\n${" ".repeat(this.indent * level)}`;
    return this.newlines[level];
  }

  /** The level members of the innermost open container are written at. */
  private get depth(): number {
    return this.level + this.compact.length;
  }

  private skipSpace(): number {
    const { text } = this;
    let c = text.charCodeAt(this.i);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++this.i);
    return c;
  }

  /** Writes the next token (or window of a string's characters); false at the end of the text. */
  step(): boolean {
    if (this.inString) {
      this.stringWindow();
      return true;
    }
    const c = this.skipSpace();
    const { text, compact } = this;
    // The innermost container's (the text is one value: a comma or colon is always inside one).
    const inCompact = compact[compact.length - 1];
    if (c === 0x7b || c === 0x5b) {
      this.i++;
      const close = c === 0x7b ? 0x7d : 0x5d;
      if (this.skipSpace() === close) {
        this.i++;
        this.piece += c === 0x7b ? "{}" : "[]";
        return true;
      }
      const isCompact = this.indentDepth <= this.depth;
      compact.push(isCompact);
      this.piece += (c === 0x7b ? "{" : "[") + (isCompact ? "" : this.newline(this.depth));
    } else if (c === 0x7d || c === 0x5d) {
      this.i++;
      const wasCompact = compact.pop() as boolean;
      this.piece += (wasCompact ? "" : this.newline(this.depth)) + (c === 0x7d ? "}" : "]");
    } else if (c === 0x2c) {
      this.i++;
      this.piece += inCompact ? "," : `,${this.newline(this.depth)}`;
    } else if (c === 0x3a) {
      this.i++;
      this.piece += inCompact ? ":" : ": ";
    } else if (c === QUOTE) {
      this.i++;
      this.piece += '"';
      this.inString = true;
      this.stringWindow();
    } else if (c === 0x74 || c === 0x6e || c === 0x66) {
      const literal = c === 0x74 ? "true" : c === 0x6e ? "null" : "false";
      this.i += literal.length;
      this.piece += literal;
    } else if (this.i < text.length) {
      NUMBER_CHARS.lastIndex = this.i;
      NUMBER_CHARS.test(text);
      if (NUMBER_CHARS.lastIndex === this.i) notJson(this.i);
      this.piece += numberTokenText(text.slice(this.i, NUMBER_CHARS.lastIndex), this.numberText);
      this.i = NUMBER_CHARS.lastIndex;
    } else return false;
    return true;
  }

  /**
   * Writes a string's characters from `i`, up to its closing quote or about `pieceChars`
   * of them (never between the halves of a surrogate pair). Characters without escapes or
   * surrogates are copied; others are re-escaped as `JSON.stringify` escapes them, which is
   * what `jsonTextPieces` writes for the parsed string.
   */
  private stringWindow(): void {
    const { text, pieceChars } = this;
    const start = this.i;
    let i = start;
    let copy = true;
    let ended = false;
    for (;;) {
      const run = i;
      if (this.plainUntil <= i) {
        PLAIN_RUN.lastIndex = i;
        PLAIN_RUN.test(text);
        this.plainUntil = PLAIN_RUN.lastIndex;
      }
      i = this.plainUntil;
      if (i > run && i - start >= pieceChars) {
        // In a run of plain characters, any place after its first is a place to cut (even
        // after a high surrogate, which is then a lone one).
        i = Math.max(start + pieceChars, run + 1);
        break;
      }
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        ended = true;
        break;
      }
      if (i >= text.length) notJson(i);
      copy = false;
      let high: boolean;
      if (c === BACKSLASH) {
        i += text.charCodeAt(i + 1) === 0x75 ? 6 : 2;
        high = escapesHighSurrogate(text, i);
      } else {
        i++;
        high = isHighSurrogate(c);
      }
      if (i - start >= pieceChars && !high) break;
    }
    const chars = text.slice(start, i);
    this.piece += copy ? chars : JSON.stringify(JSON.parse(`"${chars}"`)).slice(1, -1);
    this.i = ended ? i + 1 : i;
    if (ended) {
      this.piece += '"';
      this.inString = false;
    }
  }
}

/**
 * The JSON text `text` (known to be valid JSON: see `scanJson`) written as
 * `jsonTextPieces` writes the value `parseJson(text)`, in pieces of about `pieceChars`
 * characters, without parsing it: the same indentation, compact levels beyond
 * `indentDepth`, `numberText` for numbers (integers beyond 2^53 keep their digits), and
 * strings as `JSON.stringify` escapes them. Unlike the parsed value's text, object members
 * keep the order of the text (`JSON.parse` puts integer-like keys first) and a member
 * whose name repeats is written every time it appears.
 *
 * @example
 * ```ts
 * [...reformatJsonPieces('{"a":[1,2.50]}', { indent: 2 })].join(""); // '{\n  "a": [\n    1,\n    2.5\n  ]\n}'
 * ```
 */
export function* reformatJsonPieces(text: string, options: JsonReformatOptions = {}): Generator<string, void, undefined> {
  const indent = options.indent ?? 0;
  const pieceChars = Math.max(1, options.pieceChars ?? JSON_TEXT_PIECE_CHARS);
  const walk = new Reformatter(
    text,
    indent,
    indent > 0 ? (options.indentDepth ?? JSON_INDENT_DEPTH) : 0,
    options.level ?? 0,
    options.numberText ?? jsonNumberText,
    pieceChars,
  );
  while (walk.step()) {
    if (walk.piece.length >= pieceChars) {
      yield walk.piece;
      walk.piece = "";
    }
  }
  if (walk.piece.length > 0) yield walk.piece;
}
