/**
 * The limits of what one `zarr` command reads: `--max-chunk-bytes`, `--max-value-bytes`,
 * `--timeout` and `--max-ratio`, each also from a `ZARR_*` environment variable (the flag
 * wins), with defaults chosen for an interactive tool rather than the library's (which
 * must not refuse what a server process might legitimately hold):
 *
 * - a decoded chunk may take 512 MiB (the library: 2 GiB): a chunk larger than that is rare
 *   and usually a mistake or an attack; one command reading it at once would need as much;
 * - a stored value read from a remote store (HTTP, S3, GCS, Azure) may be 1 GiB: an
 *   endless or bloated body stops there;
 * - a request fails after 30 s without a byte (a stall), however long a steady body takes;
 * - a variable-length chunk may decode to 1000 times its stored size (at least 64 MiB).
 */
import { UsageError } from "./usage-error.js";

/** What the options give: resolved limits, in bytes and milliseconds. */
export interface ReadLimits {
  /** `maxChunkBytes` of every array opened. */
  maxChunkBytes: number;
  /** `maxValueBytes` of remote stores. */
  maxValueBytes: number;
  /** Inactivity limit of a request in ms (`Infinity`: none). */
  timeoutMs: number;
  /** `maxDecodeRatio` of every array opened (`Infinity`: none). */
  maxDecodeRatio: number;
}

const MiB = 2 ** 20;

/** The defaults (stated in `zarr --help`). */
export const DEFAULT_READ_LIMITS: Readonly<ReadLimits> = {
  maxChunkBytes: 512 * MiB,
  maxValueBytes: 1024 * MiB,
  timeoutMs: 30_000,
  maxDecodeRatio: 1000,
};

/** The options every command takes for its limits (added by `parseCommandArgs`). */
export const LIMIT_OPTIONS = {
  "max-chunk-bytes": { type: "string" },
  "max-value-bytes": { type: "string" },
  timeout: { type: "string" },
  "max-ratio": { type: "string" },
} as const;

/** The parsed option values the limits come from (a type, not an interface: option records index it). */
export type LimitOptionValues = {
  "max-chunk-bytes"?: string;
  "max-value-bytes"?: string;
  timeout?: string;
  "max-ratio"?: string;
};

const SIZE_UNITS: Record<string, number> = {
  "": 1,
  b: 1,
  k: 2 ** 10,
  kib: 2 ** 10,
  kb: 1e3,
  m: 2 ** 20,
  mib: 2 ** 20,
  mb: 1e6,
  g: 2 ** 30,
  gib: 2 ** 30,
  gb: 1e9,
  t: 2 ** 40,
  tib: 2 ** 40,
  tb: 1e12,
};

const DURATION_UNITS: Record<string, number> = { "": 1000, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Where a value came from, for the message: the flag, or the environment variable. */
type Source = { flag: string; env: string; from: "flag" | "env" };

function bad(source: Source, expected: string, text: string, command: string): never {
  const where = source.from === "flag" ? source.flag : `${source.env} (environment)`;
  throw new UsageError(`${where} must be ${expected}, got ${JSON.stringify(text)}`, command);
}

/**
 * A size in bytes: a plain number of bytes, or a number with a unit (`K`/`KiB`, `M`/`MiB`,
 * `G`/`GiB`, `T`/`TiB` are powers of 1024; `KB`, `MB`, `GB`, `TB` powers of 1000), case
 * insensitive, e.g. `256MiB`, `1.5G`, `1GB`. Positive, whole bytes.
 */
export function parseSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m === null ? undefined : SIZE_UNITS[m[2].toLowerCase()];
  if (m === null || unit === undefined) return undefined;
  const bytes = Number(m[1]) * unit;
  return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : undefined;
}

/** A duration in ms: `500ms`, `30s`, `2m`, `1h`, or a plain number of seconds; `0` is none (`Infinity`). */
export function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m === null ? undefined : DURATION_UNITS[m[2].toLowerCase()];
  if (m === null || unit === undefined) return undefined;
  const ms = Number(m[1]) * unit;
  if (ms === 0) return Number.POSITIVE_INFINITY;
  // Timers take whole milliseconds up to about 24.8 days.
  return ms >= 1 && ms <= 2 ** 31 - 1 ? Math.round(ms) : undefined;
}

/** A decompression ratio: a number ≥ 1, or `0` for none (`Infinity`). */
export function parseRatio(text: string): number | undefined {
  if (!/^\s*\d+(?:\.\d+)?\s*$/.test(text)) return undefined;
  const n = Number(text);
  if (n === 0) return Number.POSITIVE_INFINITY;
  return n >= 1 ? n : undefined;
}

/** One limit: the flag's value, else the environment variable's, else the default; a bad one is a usage error naming its source. */
function limit(
  command: string,
  flag: string,
  env: string,
  value: string | undefined,
  parse: (text: string) => number | undefined,
  expected: string,
  fallback: number,
): number {
  const fromEnv = process.env[env];
  const source: Source = { flag, env, from: value !== undefined ? "flag" : "env" };
  const text = value ?? (fromEnv === undefined || fromEnv === "" ? undefined : fromEnv);
  if (text === undefined) return fallback;
  return parse(text) ?? bad(source, expected, text, command);
}

/**
 * The limits of `command` from its parsed options and the environment
 * (`ZARR_MAX_CHUNK_BYTES`, `ZARR_MAX_VALUE_BYTES`, `ZARR_TIMEOUT`, `ZARR_MAX_RATIO`).
 *
 * @example
 * ```ts
 * readLimits("get", { "max-chunk-bytes": "64MiB", timeout: "5s" }); // { maxChunkBytes: 67108864, timeoutMs: 5000, ... }
 * ```
 */
export function readLimits(command: string, values: LimitOptionValues): ReadLimits {
  const size = "a size in bytes (e.g. 1048576, 256MiB, 1GB)";
  const d = DEFAULT_READ_LIMITS;
  return {
    maxChunkBytes: limit(command, "--max-chunk-bytes", "ZARR_MAX_CHUNK_BYTES", values["max-chunk-bytes"], parseSize, size, d.maxChunkBytes),
    maxValueBytes: limit(command, "--max-value-bytes", "ZARR_MAX_VALUE_BYTES", values["max-value-bytes"], parseSize, size, d.maxValueBytes),
    timeoutMs: limit(command, "--timeout", "ZARR_TIMEOUT", values.timeout, parseDuration, "a duration (e.g. 500ms, 30s, 2m; 0: none)", d.timeoutMs),
    maxDecodeRatio: limit(command, "--max-ratio", "ZARR_MAX_RATIO", values["max-ratio"], parseRatio, "a number of at least 1 (0: none)", d.maxDecodeRatio),
  };
}

/** The open options of arrays under `limits` (for `open`/`openArray`). */
export function arrayLimits(limits: ReadLimits): { maxChunkBytes: number; maxDecodeRatio: number } {
  return { maxChunkBytes: limits.maxChunkBytes, maxDecodeRatio: limits.maxDecodeRatio };
}

/**
 * The `openStore` settings that carry `limits` to the store adapter of `scheme`: HTTP gets
 * an inactivity limit (and no whole-request limit, so a long steady download is fine); S3
 * its SDK's socket inactivity and connection limits; GCS and Azure a per-attempt limit.
 * Local files have nothing to bound (their sizes are known before they are read).
 */
export function storeLimitSettings(scheme: string, limits: ReadLimits): Record<string, unknown> {
  const ms = limits.timeoutMs;
  const finite = Number.isFinite(ms);
  switch (scheme) {
    case "http":
    case "https":
      return { maxValueBytes: limits.maxValueBytes, idleTimeout: ms, timeout: 0 };
    case "s3":
      return {
        maxValueBytes: limits.maxValueBytes,
        // The SDK's socketTimeout is the inactivity limit (mid-body too); its requestTimeout is not.
        ...(finite ? { clientConfig: { requestHandler: { socketTimeout: ms, connectionTimeout: ms } } } : {}),
      };
    case "gs":
    case "az":
    case "abfs":
    case "abfss":
    case "azure+https":
    case "azure+http":
      return { maxValueBytes: limits.maxValueBytes, timeout: finite ? ms : 0 };
    default:
      return {};
  }
}
