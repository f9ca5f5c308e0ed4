/**
 * Parsing the option values of `zarr put`: chunk shapes, JSON documents, fill values,
 * dimension names and data types. Bad values throw `INVALID_ARGUMENT` naming the option.
 */
import type { ExtensionLike } from "@zarr/core";
import { isJsonObject, type JsonObject, type JsonValue, parseJson, ZarrError } from "@zarr/spec";

function invalid(option: string, message: string): never {
  throw new ZarrError("INVALID_ARGUMENT", `Invalid ${option}: ${message}`);
}

/** Parses JSON text given to `option` (64-bit integers kept exact). */
export function parseJsonOption(option: string, text: string): JsonValue {
  try {
    return parseJson(text);
  } catch (error) {
    const problem = error instanceof ZarrError ? error.message.replace(/^Invalid metadata at \$: /, "") : String(error);
    return invalid(option, `${JSON.stringify(text)} is ${problem}`);
  }
}

/**
 * What `--chunks` asks for: a regular chunk shape, or a rectilinear grid written as the
 * user gave it (so `[size, count]` runs stay runs in the metadata).
 */
export type ChunksOption = { chunkShape: number[] } | { chunkGrid: { name: "rectilinear"; configuration: JsonObject } };

function positive(option: string, v: JsonValue): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 1) {
    invalid(option, `expected positive integers, found ${JSON.stringify(typeof v === "bigint" ? String(v) : v)}`);
  }
  return v;
}

/**
 * `10,10` → a regular chunk shape; JSON such as `[[2, 3, 5], 4]` → a rectilinear grid,
 * where a dimension is a chunk size or a list of edge lengths (`[size, count]` pairs in
 * such a list are runs of equal edges). Whether the edges add up to the array's shape
 * is checked when the array is created.
 */
export function parseChunksOption(text: string): ChunksOption {
  const option = "--chunks";
  const t = text.trim();
  if (t === "") return { chunkShape: [] }; // a 0-d array has an empty chunk shape
  if (!t.startsWith("[")) {
    return { chunkShape: t.split(",").map((s) => positive(option, /^\s*\d+\s*$/.test(s) ? Number(s) : s.trim())) };
  }
  const json = parseJsonOption(option, t);
  if (!Array.isArray(json)) invalid(option, "expected a list with one entry per dimension");
  if (json.every((d) => !Array.isArray(d))) return { chunkShape: json.map((d) => positive(option, d)) };
  for (const d of json) {
    if (!Array.isArray(d)) positive(option, d);
    else {
      for (const e of d) {
        if (!Array.isArray(e)) positive(option, e);
        else if (e.length !== 2) invalid(option, "a run must be [edge length, count]");
        else for (const x of e) positive(option, x);
      }
    }
  }
  return { chunkGrid: { name: "rectilinear", configuration: { kind: "inline", chunk_shapes: json } } };
}

/** `--codecs`: a JSON list of codec definitions (names or `{name, configuration}`). */
export function parseCodecsOption(text: string): ExtensionLike[] {
  const json = parseJsonOption("--codecs", text);
  if (!Array.isArray(json)) invalid("--codecs", "expected a JSON list of codecs");
  return json.map((c, i) => {
    if (typeof c === "string") return c;
    if (isJsonObject(c) && typeof c.name === "string") {
      if (c.configuration !== undefined && !isJsonObject(c.configuration)) {
        invalid("--codecs", `the configuration of codec ${i} must be an object`);
      }
      return c as ExtensionLike;
    }
    return invalid("--codecs", `codec ${i} must be a name or an object with a "name"`);
  });
}

const BARE_FILL_WORDS: Record<string, string> = {
  nan: "NaN",
  infinity: "Infinity",
  "+infinity": "Infinity",
  inf: "Infinity",
  "+inf": "Infinity",
  "-infinity": "-Infinity",
  "-inf": "-Infinity",
  nat: "NaT",
};

/**
 * `--fill-value`: JSON text, or one of the bare words NaN, Infinity, -Infinity, inf,
 * NaT, or bare `0x…` raw bits (what is left of `"0x7fc00001"` after the shell's quoting).
 */
export function parseFillValueOption(text: string): JsonValue {
  const t = text.trim();
  const word = Object.hasOwn(BARE_FILL_WORDS, t.toLowerCase()) ? BARE_FILL_WORDS[t.toLowerCase()] : undefined;
  if (word !== undefined) return word;
  if (/^0x[0-9a-fA-F]+$/.test(t)) return t;
  try {
    return parseJson(text);
  } catch {
    return invalid(
      "--fill-value",
      `${JSON.stringify(text)} is neither JSON nor NaN/Infinity/-Infinity/NaT (write strings as JSON, e.g. '"text"')`,
    );
  }
}

/** `--dimension-names`: `x,y` or a JSON list of strings and nulls. */
export function parseDimensionNamesOption(text: string): (string | null)[] {
  const t = text.trim();
  if (!t.startsWith("[")) return t.split(",").map((s) => s.trim());
  const json = parseJsonOption("--dimension-names", t);
  if (!Array.isArray(json) || !json.every((n) => n === null || typeof n === "string")) {
    invalid("--dimension-names", "expected a JSON list of strings and nulls");
  }
  return json as (string | null)[];
}

/** `--attrs`: a JSON object. */
export function parseAttrsOption(text: string): JsonObject {
  const json = parseJsonOption("--attrs", text);
  if (!isJsonObject(json)) invalid("--attrs", "expected a JSON object");
  return json;
}

/** `--data-type`: a bare name (`string`, `int32`) or JSON (`{"name": …, "configuration": …}`). */
export function parseDataTypeOption(text: string): { name: string; configuration: JsonObject } {
  const t = text.trim();
  if (!t.startsWith("{") && !t.startsWith('"')) {
    if (!/^\S+$/.test(t)) invalid("--data-type", `${JSON.stringify(text)} is not a data type name`);
    return { name: t, configuration: {} };
  }
  const json = parseJsonOption("--data-type", t);
  if (typeof json === "string") return { name: json, configuration: {} };
  if (!isJsonObject(json) || typeof json.name !== "string") {
    invalid("--data-type", 'expected a name or a JSON object {"name", "configuration"}');
  }
  const configuration = json.configuration ?? {};
  if (!isJsonObject(configuration)) invalid("--data-type", "the configuration must be a JSON object");
  return { name: json.name, configuration };
}
