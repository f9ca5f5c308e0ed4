/**
 * JSON text of any size and nesting depth, written without recursion and handed out in
 * pieces of bounded length. Metadata documents can hold attributes nested hundreds of
 * thousands of levels deep (V8's `JSON.parse` reads them; a recursive writer, and
 * `JSON.stringify` itself, overflow the call stack at a few thousand) or millions of
 * keys (one output string would be copied again at every step on its way out).
 */
import { ZarrError } from "./errors.js";
import type { JsonObject, JsonValue } from "./json-value.js";

/** Levels indented by default; deeper containers are written compact (see {@link JsonTextOptions.indentDepth}). */
export const JSON_INDENT_DEPTH = 64;

/** Characters gathered before a piece is handed out, by default. */
export const JSON_TEXT_PIECE_CHARS = 1 << 16;

/** How {@link jsonTextPieces} writes a value. */
export interface JsonTextOptions {
  /** Spaces per nesting level; 0 (the default) writes compact JSON on one line. */
  indent?: number;
  /**
   * Nesting levels that get their own indented lines (default {@link JSON_INDENT_DEPTH}).
   * A container nested deeper is written compact on its parent's line: indenting every
   * level of a value nested N deep would take N² characters (80 GB for 200,000 levels).
   */
  indentDepth?: number;
  /** The text of a finite number (default {@link jsonNumberText}). */
  numberText?: (n: number) => string;
  /** Characters gathered before a piece is handed out (default {@link JSON_TEXT_PIECE_CHARS}). */
  pieceChars?: number;
}

/**
 * A finite number as JSON text; non-finite numbers are refused, since Zarr metadata spells
 * them `"NaN"`, `"Infinity"` and `"-Infinity"`.
 *
 * @example
 * ```ts
 * jsonNumberText(1.5); // "1.5"
 * ```
 */
export function jsonNumberText(n: number): string {
  if (!Number.isFinite(n)) throw new ZarrError("INVALID_ARGUMENT", `Cannot write the non-finite number ${n} as JSON`);
  return String(n);
}

/** An array or object being written: its members so far, and whether it is written on one line. */
interface Frame {
  readonly value: JsonValue[] | JsonObject;
  /** The object's keys; undefined for an array. */
  readonly keys: string[] | undefined;
  /** The next member to write. */
  next: number;
  /** Members written (object properties whose value is undefined are skipped). */
  written: number;
  readonly compact: boolean;
}

/** True for the first half of a UTF-16 surrogate pair, which a piece boundary must not split. */
function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** A string, boolean, null or bigint as JSON text (numbers go through `numberText`). */
function scalarText(v: JsonValue, numberText: (n: number) => string): string {
  if (v === null) return "null";
  switch (typeof v) {
    case "number":
      return numberText(v);
    case "bigint":
      return v.toString();
    case "string":
      return JSON.stringify(v);
    case "boolean":
      return v ? "true" : "false";
  }
  throw new ZarrError("INVALID_ARGUMENT", `Cannot write ${typeof v} as JSON`);
}

/**
 * The JSON text of `value` in pieces of about `pieceChars` characters (a string longer
 * than that is itself split), like `JSON.stringify(value, null, indent)` joined, except
 * that `bigint`s are written as exact integers, non-finite numbers are refused
 * (`INVALID_ARGUMENT`), containers nested deeper than `indentDepth` are written compact,
 * and any nesting depth works. A value that contains itself is refused rather than
 * written forever.
 *
 * @example
 * ```ts
 * for (const piece of jsonTextPieces({ a: [1, 2] }, { indent: 2 })) process.stdout.write(piece);
 * ```
 */
export function* jsonTextPieces(value: JsonValue, options: JsonTextOptions = {}): Generator<string, void, undefined> {
  const indent = options.indent ?? 0;
  const indentDepth = indent > 0 ? (options.indentDepth ?? JSON_INDENT_DEPTH) : 0;
  const numberText = options.numberText ?? jsonNumberText;
  const pieceChars = Math.max(1, options.pieceChars ?? JSON_TEXT_PIECE_CHARS);
  const pad = " ".repeat(indent);
  // "\n" plus the indentation of each level, made once per level.
  const newlines: string[] = [];
  const newline = (level: number) => {
    newlines[level] ??= `\n${pad.repeat(level)}`;
    return newlines[level];
  };
  const stack: Frame[] = [];
  // The containers being written, to refuse a value that contains itself.
  const open = new Set<object>();
  let piece = "";
  let pending: JsonValue | undefined = value;
  let hasPending = true;
  for (;;) {
    if (hasPending) {
      hasPending = false;
      const v = pending as JsonValue;
      if (v !== null && typeof v === "object") {
        if (open.has(v)) throw new ZarrError("INVALID_ARGUMENT", "Cannot write a value that contains itself as JSON");
        open.add(v);
        const parent = stack[stack.length - 1];
        const compact = indentDepth <= stack.length || parent?.compact === true;
        const isArray = Array.isArray(v);
        piece += isArray ? "[" : "{";
        stack.push({ value: v, keys: isArray ? undefined : Object.keys(v), next: 0, written: 0, compact });
      } else if (typeof v === "string" && v.length > pieceChars) {
        // A long string in slices of its own, each escaped alone (none splits a surrogate pair).
        piece += '"';
        for (let at = 0; at < v.length; ) {
          let end = Math.min(v.length, at + pieceChars);
          // Cut before the pair, or after it when the slice would be empty.
          if (end < v.length && isHighSurrogate(v.charCodeAt(end - 1))) end += end - 1 > at ? -1 : 1;
          piece += JSON.stringify(v.slice(at, end)).slice(1, -1);
          at = end;
          yield piece;
          piece = "";
        }
        piece += '"';
      } else {
        piece += scalarText(v, numberText);
      }
      if (piece.length >= pieceChars) {
        yield piece;
        piece = "";
      }
    }
    const top = stack[stack.length - 1];
    if (top === undefined) break;
    const { keys } = top;
    let member: JsonValue | undefined;
    let key: string | undefined;
    let hasMember = false;
    if (keys === undefined) {
      const items = top.value as JsonValue[];
      hasMember = top.next < items.length;
      if (hasMember) member = items[top.next++];
    } else {
      const object = top.value as JsonObject;
      // Properties whose value is undefined are left out, as JSON.stringify does.
      while (!hasMember && top.next < keys.length) {
        key = keys[top.next++];
        member = object[key];
        hasMember = member !== undefined;
      }
    }
    if (!hasMember) {
      stack.pop();
      open.delete(top.value);
      if (top.written > 0 && !top.compact) piece += newline(stack.length);
      piece += keys === undefined ? "]" : "}";
      continue;
    }
    if (top.written > 0) piece += ",";
    if (!top.compact) piece += newline(stack.length);
    if (key !== undefined) piece += JSON.stringify(key) + (top.compact ? ":" : ": ");
    top.written++;
    pending = member;
    hasPending = true;
  }
  if (piece.length > 0) yield piece;
}

/**
 * The JSON text of `value` as one string (see {@link jsonTextPieces}).
 *
 * @example
 * ```ts
 * jsonText({ fill_value: 18446744073709551615n }); // '{"fill_value":18446744073709551615}'
 * ```
 */
export function jsonText(value: JsonValue, options: Omit<JsonTextOptions, "pieceChars"> = {}): string {
  // Scalars directly: callers write arrays of them one value at a time.
  if (value === null || typeof value !== "object") {
    if (typeof value !== "string" || value.length <= JSON_TEXT_PIECE_CHARS) return scalarText(value, options.numberText ?? jsonNumberText);
  }
  const pieces: string[] = [];
  for (const piece of jsonTextPieces(value, options)) pieces.push(piece);
  return pieces.join("");
}
