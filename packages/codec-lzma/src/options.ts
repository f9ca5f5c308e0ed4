/**
 * The codec configuration, as numcodecs' `LZMA(format, check, preset, filters)` writes it,
 * parsed and validated into what the encoder and decoders need.
 */
import type { JsonPath, JsonValue } from "@zarr/spec";
import { isJsonObject } from "@zarr/spec";
import { presetSettings, type LzmaEncoderSettings, PRESET_EXTREME } from "./lzma/settings.js";
import { FILTER_DELTA, FILTER_LZMA1, FILTER_LZMA2, FILTER_X86 } from "./xz/format.js";

/** `lzma.FORMAT_AUTO`: decode .xz or .lzma (decoding only). */
export const FORMAT_AUTO = 0;
/** `lzma.FORMAT_XZ`: the .xz container (the default). */
export const FORMAT_XZ = 1;
/** `lzma.FORMAT_ALONE`: the legacy .lzma format. */
export const FORMAT_ALONE = 2;
/** `lzma.FORMAT_RAW`: a bare LZMA1/LZMA2 stream described by `filters`. */
export const FORMAT_RAW = 3;
/** `lzma.CHECK_UNKNOWN` as numcodecs uses it: the format's default check (CRC64 for .xz). */
export const CHECK_DEFAULT = -1;

/** A filter dict as numcodecs/Python's `lzma` take them, e.g. `{id: 33, preset: 1}`. */
export interface LzmaFilterSpec {
  /** Filter id: 3 delta, 4 x86 BCJ, 33 LZMA2, 2^62+1 LZMA1 (as a bigint, or the nearest double). */
  id: number | bigint;
  [option: string]: number | bigint | null | undefined;
}

/** Options of the compress/decompress functions, mirroring the codec configuration. */
export interface LzmaOptions {
  /** 1 = .xz (default), 2 = .lzma, 3 = raw; 0 = auto-detect (decompression only). */
  format?: number;
  /** -1 = default (CRC64 for .xz), 0 none, 1 CRC32, 4 CRC64, 10 SHA-256. */
  check?: number;
  /** 0-9, optionally | PRESET_EXTREME (2^31); null/undefined = 6. Not together with filters. */
  preset?: number | null;
  /** A filter chain (required for raw; otherwise replaces the preset when encoding). */
  filters?: readonly LzmaFilterSpec[] | null;
}

/** One parsed filter of a chain. */
export type FilterStep =
  | { kind: "delta"; distance: number }
  | { kind: "x86"; startOffset: number }
  | { kind: "lzma2"; settings: LzmaEncoderSettings }
  | { kind: "lzma1"; settings: LzmaEncoderSettings }
  | { kind: "unsupported"; id: number };

/** Reports an invalid option at a path relative to the configuration. */
export type OptionFailure = (path: JsonPath, problem: string) => never;

/** The configuration after validation. */
export interface ParsedOptions {
  format: number;
  check: number;
  preset: number | null;
  /** The filter chain as parsed, or null. */
  chain: FilterStep[] | null;
  /** The filters exactly as configured (for toJSON). */
  filtersJson: JsonValue[] | null;
}

const LZMA_KEYS = new Set(["id", "preset", "dict_size", "lc", "lp", "pb", "mode", "nice_len", "mf", "depth"]);
const MF_HC3 = 0x03;
const MF_HC4 = 0x04;
const MF_BT2 = 0x12;
const MF_BT3 = 0x13;
const MF_BT4 = 0x14;
/** liblzma's smallest dictionary, and the largest this encoder accepts (1.5 GiB, liblzma's limit). */
const DICT_MIN = 4096;
const DICT_MAX = 1536 * 1024 * 1024;

function isInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value);
}

/** True for a valid preset: 0..9, optionally with the extreme flag. */
export function isValidPreset(value: number): boolean {
  const level = value >= PRESET_EXTREME ? value - PRESET_EXTREME : value;
  return Number.isInteger(level) && level >= 0 && level <= 9;
}

/** Parses the configuration object (`format`, `check`, `preset`, `filters`). */
export function parseOptions(config: Record<string, unknown>, fail: OptionFailure): ParsedOptions {
  for (const key of Object.keys(config)) {
    if (key !== "format" && key !== "check" && key !== "preset" && key !== "filters" && key !== "id") {
      fail([key], `unknown lzma option "${key}"`);
    }
  }
  const format = config.format ?? FORMAT_XZ;
  if (!isInteger(format) || format < 0 || format > 3) {
    fail(["format"], `expected 1 (xz), 2 (alone), 3 (raw) or 0 (auto), got ${describe(format)}`);
  }
  const check = config.check ?? CHECK_DEFAULT;
  if (!isInteger(check) || ![-1, 0, 1, 4, 10].includes(check)) {
    fail(["check"], `expected -1, 0 (none), 1 (CRC32), 4 (CRC64) or 10 (SHA-256), got ${describe(check)}`);
  }
  const preset = config.preset ?? null;
  if (preset !== null && (!isInteger(preset) || !isValidPreset(preset))) {
    fail(["preset"], `expected null or an integer 0-9 (optionally | 2^31 for extreme), got ${describe(preset)}`);
  }
  const filters = config.filters ?? null;
  let chain: FilterStep[] | null = null;
  if (filters !== null) {
    if (!Array.isArray(filters) || filters.length < 1 || filters.length > 4) {
      fail(["filters"], `expected null or a list of 1 to 4 filter objects, got ${describe(filters)}`);
    }
    chain = filters.map((f, i) => parseFilter(f, ["filters", i], fail));
  }
  if (format === FORMAT_RAW) {
    if (chain === null) fail(["filters"], "format 3 (raw) needs a filter chain");
    validateChain(chain, FORMAT_RAW, fail);
  }
  return { format, check, preset, chain, filtersJson: filters as JsonValue[] | null };
}

/** Checks that a chain fits a format (liblzma's rules); reports through `fail`. */
export function validateChain(chain: FilterStep[], format: number, fail: OptionFailure): void {
  const last = chain[chain.length - 1];
  const lastPath = ["filters", chain.length - 1];
  if (format === FORMAT_ALONE) {
    if (chain.length !== 1 || last.kind !== "lzma1") fail(["filters"], "format 2 (alone) needs exactly one LZMA1 filter");
    return;
  }
  if (format === FORMAT_XZ && last.kind !== "lzma2") fail(lastPath, "an .xz filter chain must end with LZMA2 (id 33)");
  if (last.kind !== "lzma2" && last.kind !== "lzma1") fail(lastPath, "the filter chain must end with LZMA1 or LZMA2");
  for (let i = 0; i < chain.length - 1; i++) {
    const k = chain[i].kind;
    if (k === "lzma1" || k === "lzma2") fail(["filters", i], "LZMA1/LZMA2 may only be the last filter");
  }
}

function parseFilter(value: unknown, path: JsonPath, fail: OptionFailure): FilterStep {
  if (!isJsonObject(value)) fail(path, `expected a filter object, got ${describe(value)}`);
  const obj = value as Record<string, unknown>;
  const id = obj.id;
  const get = (key: string): number | undefined => {
    const v = obj[key];
    if (v === undefined || v === null) return undefined;
    if (!isInteger(v)) fail([...path, key], `expected an integer, got ${describe(v)}`);
    return v;
  };
  const onlyKeys = (allowed: Set<string>): void => {
    for (const key of Object.keys(obj)) {
      if (!allowed.has(key)) fail([...path, key], `unknown option "${key}" for this filter`);
    }
  };
  if (id === FILTER_LZMA2 || isLzma1Id(id)) {
    onlyKeys(LZMA_KEYS);
    return { kind: id === FILTER_LZMA2 ? "lzma2" : "lzma1", settings: parseLzmaSettings(get, path, fail) };
  }
  if (id === FILTER_DELTA) {
    onlyKeys(new Set(["id", "dist"]));
    const distance = get("dist") ?? 1;
    if (distance < 1 || distance > 256) fail([...path, "dist"], `expected 1..256, got ${distance}`);
    return { kind: "delta", distance };
  }
  if (id === FILTER_X86) {
    onlyKeys(new Set(["id", "start_offset"]));
    const startOffset = get("start_offset") ?? 0;
    if (startOffset < 0 || startOffset > 0xffffffff) fail([...path, "start_offset"], "expected a 32-bit unsigned integer");
    return { kind: "x86", startOffset };
  }
  if (isInteger(id) && id >= 5 && id <= 11) {
    onlyKeys(new Set(["id", "start_offset"]));
    return { kind: "unsupported", id };
  }
  return fail([...path, "id"], `unknown filter id ${describe(id)}`);
}

/** LZMA1's id is 2^62 + 1; JSON parsed without bigints gives the nearest double, 2^62. */
function isLzma1Id(id: unknown): boolean {
  return id === FILTER_LZMA1 || id === Number(FILTER_LZMA1);
}

function parseLzmaSettings(
  get: (key: string) => number | undefined,
  path: JsonPath,
  fail: OptionFailure,
): LzmaEncoderSettings {
  const preset = get("preset") ?? 6;
  if (!isValidPreset(preset)) fail([...path, "preset"], `expected 0-9, got ${preset}`);
  const s = presetSettings(preset);
  const dictSize = get("dict_size");
  if (dictSize !== undefined) {
    if (dictSize < DICT_MIN || dictSize > DICT_MAX) fail([...path, "dict_size"], `expected ${DICT_MIN}..${DICT_MAX}`);
    s.dictSize = dictSize;
  }
  for (const key of ["lc", "lp", "pb"] as const) {
    const v = get(key);
    if (v === undefined) continue;
    if (v < 0 || v > 4) fail([...path, key], `expected 0..4, got ${v}`);
    s[key] = v;
  }
  if (s.lc + s.lp > 4) fail([...path, "lc"], "lc + lp must not exceed 4");
  const mode = get("mode");
  if (mode !== undefined) {
    if (mode !== 1 && mode !== 2) fail([...path, "mode"], `expected 1 (fast) or 2 (normal), got ${mode}`);
    s.mode = mode === 1 ? "fast" : "normal";
  }
  const nice = get("nice_len");
  if (nice !== undefined) {
    if (nice < 2 || nice > 273) fail([...path, "nice_len"], `expected 2..273, got ${nice}`);
    s.niceLen = nice;
  }
  const mf = get("mf");
  if (mf !== undefined) {
    if (mf === MF_HC3 || mf === MF_HC4) s.matchFinder = "hc";
    else if (mf === MF_BT2 || mf === MF_BT3 || mf === MF_BT4) s.matchFinder = "bt";
    else fail([...path, "mf"], `expected 0x03, 0x04, 0x12, 0x13 or 0x14, got ${mf}`);
  }
  const depth = get("depth");
  if (depth !== undefined) {
    if (depth < 0) fail([...path, "depth"], `expected a non-negative integer, got ${depth}`);
    s.depth = depth;
  }
  return s;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (typeof value === "bigint") return `${value}`;
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (typeof value === "object") return "an object";
  return JSON.stringify(value);
}
