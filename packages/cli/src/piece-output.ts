/**
 * Command output of any size in pieces of bounded length: a metadata document with
 * millions of attribute keys, or one 100 MB string, is printed without building its whole
 * text (and copies of it: escaped, joined into lines, encoded) as one string first.
 */
import { isJsonObject, type JsonTextOptions, type JsonValue, jsonTextPieces, reformatJsonPieces } from "@zarr/spec";
import type { CliIO } from "./cli-io.js";
import { JSON_PIECE_CHARS } from "./json-stream.js";
import { cliNumberText } from "./json-text.js";
import { keptAttributesJsonPieces } from "./kept-attributes-json.js";

/**
 * A piece of a line: text, a value written as JSON, or JSON text (checked: attributes
 * kept unparsed) written as its value would be; JSON is compact unless `indent` is given.
 */
export type LinePart = string | { json: JsonValue; indent?: number } | { jsonText: string; indent?: number };

/** One line of output (without its newline): text, or parts of text and JSON values. */
export type Line = string | readonly LinePart[];

/**
 * Gathers output text and hands it to `io.write` in pieces of about `pieceChars`
 * characters. Text from a store passes through `escapeText` (`printable`, `printableJson`)
 * piece by piece, which is the same as escaping it whole, since both replace single
 * characters; line breaks the command itself writes are not escaped.
 *
 * @example
 * ```ts
 * const out = new PieceOutput(io, printable);
 * await out.lines(["path: /t2m", ["attributes: ", { json: meta.attributes }]]);
 * await out.end();
 * ```
 */
export class PieceOutput {
  private piece = "";

  constructor(
    private readonly io: CliIO,
    private readonly escapeText: (text: string) => string = (text) => text,
    private readonly pieceChars = JSON_PIECE_CHARS,
  ) {}

  /** Writes `text`, escaped. */
  async text(text: string): Promise<void> {
    await this.raw(this.escapeText(text));
  }

  /**
   * Writes `value` as JSON (numbers as the CLI writes them, `-0.0` for negative zero unless
   * `numberText` says otherwise), escaped. Attributes `value` keeps unparsed
   * (`unparsedAttributes`) are written from their text, never parsed.
   */
  async json(value: JsonValue, options: JsonTextOptions = {}): Promise<void> {
    const settings = { numberText: cliNumberText, pieceChars: this.pieceChars, ...options };
    const pieces = isJsonObject(value) ? keptAttributesJsonPieces(value, settings) : jsonTextPieces(value, settings);
    for (const piece of pieces) await this.text(piece);
  }

  /** Writes JSON text known to be valid as {@link json} writes its value, without parsing it. */
  async jsonText(text: string, options: JsonTextOptions = {}): Promise<void> {
    for (const piece of reformatJsonPieces(text, { numberText: cliNumberText, pieceChars: this.pieceChars, ...options })) await this.text(piece);
  }

  /** Writes each line and a newline after it. */
  async lines(lines: readonly Line[]): Promise<void> {
    for (const line of lines) {
      for (const part of typeof line === "string" ? [line] : line) {
        if (typeof part === "string") await this.text(part);
        else if ("jsonText" in part) await this.jsonText(part.jsonText, { indent: part.indent });
        else await this.json(part.json, { indent: part.indent });
      }
      await this.raw("\n");
    }
  }

  /** Hands out what is gathered. */
  async end(): Promise<void> {
    if (this.piece.length === 0) return;
    const piece = this.piece;
    this.piece = "";
    await this.io.write(piece);
  }

  /** Writes `text` as it is. */
  private async raw(text: string): Promise<void> {
    this.piece += text;
    if (this.piece.length >= this.pieceChars) await this.end();
  }
}
