/**
 * The error model shared by every @zarr package: one `ZarrError` class with a stable
 * machine-readable `code`, and a message that says what was wrong and where.
 */

/** Stable error codes. Match on `error.code`, never on the message text. */
export type ZarrErrorCode =
  | "NODE_NOT_FOUND"
  | "NODE_EXISTS"
  | "METADATA_INVALID"
  | "CODEC_UNKNOWN"
  | "CODEC_FAILED"
  | "CHECKSUM_MISMATCH"
  | "STORE_FAILED"
  | "STORE_READ_ONLY"
  /** A stored value changed while a read needed one version of it (see `ReadableStore.getVersioned`). */
  | "STORE_CHANGED"
  /** A stored value (or a response) is larger than the read accepts (a metadata size cap, a range). */
  | "STORE_TOO_LARGE"
  | "KEY_INVALID"
  | "OUT_OF_BOUNDS"
  | "INVALID_SELECTION"
  | "INVALID_ARGUMENT"
  | "UNSUPPORTED"
  /** A partitioned job cannot be finalized yet: some parts have not finished (no marker under `.zarr-jobs/`). */
  | "JOB_INCOMPLETE"
  | "ABORTED";

/** Where an error happened, as far as it is known. */
export interface ZarrErrorContext {
  /** Store key involved (metadata document or chunk). */
  key?: string;
  /** JSON path inside a metadata document, e.g. `$.codecs[1].configuration.endian`. */
  jsonPath?: string;
  /** The underlying error, if this one wraps another. */
  cause?: unknown;
}

/**
 * Marks the prototype of every copy of `ZarrError`: an app can load two copies of
 * @zarr/spec (a codec package built against another version, a bundled worker beside a
 * package's own modules), and an error thrown by one copy must still be a ZarrError to the other.
 */
const ZARR_ERROR = Symbol.for("zarr.error");

/**
 * The base class of every error thrown by @zarr packages. `instanceof ZarrError` holds for
 * ZarrErrors of any copy of @zarr/spec loaded in the same realm; `instanceof` a subclass
 * (`MetadataError`) is the ordinary prototype check.
 *
 * @example
 * ```ts
 * try { await open(store, "missing"); }
 * catch (e) { if (e instanceof ZarrError && e.code === "NODE_NOT_FOUND") console.log(e.message); }
 * ```
 */
export class ZarrError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    // `this` is the class on the right of `instanceof`: ZarrError checks the mark, a subclass
    // takes the ordinary prototype check.
    // biome-ignore lint/complexity/noThisInStatic: the dispatch above needs the receiver
    return this === ZarrError ? (value as { [ZARR_ERROR]?: unknown } | null | undefined)?.[ZARR_ERROR] === true : super[Symbol.hasInstance](value);
  }

  /** The mark of every copy's ZarrErrors (on the prototype: out of own keys and printed errors). */
  get [ZARR_ERROR](): true {
    return true;
  }

  /** Stable machine-readable code. */
  readonly code: ZarrErrorCode;
  /** Store key involved, if any. */
  readonly key: string | undefined;
  /** JSON path involved, if any. */
  readonly jsonPath: string | undefined;

  constructor(code: ZarrErrorCode, message: string, context: ZarrErrorContext = {}) {
    super(message, context.cause === undefined ? undefined : { cause: context.cause });
    this.name = "ZarrError";
    this.code = code;
    this.key = context.key;
    this.jsonPath = context.jsonPath;
  }
}

/** A path into a JSON document, as a list of object keys and array indices. */
export type JsonPath = ReadonlyArray<string | number>;

/** Formats a JSON path as `$.a.b[0]["odd key"]`. */
export function formatJsonPath(path: JsonPath): string {
  let out = "$";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(part)) out += `.${part}`;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out;
}

/**
 * A metadata document is malformed. The message names the document's store key (when
 * known), the JSON path of the bad value, what was expected and what was found.
 */
export class MetadataError extends ZarrError {
  /** The JSON path as a list of keys and indices. */
  readonly path: JsonPath;
  /** What was wrong, without the location. */
  readonly problem: string;

  constructor(path: JsonPath, problem: string, context: { key?: string; cause?: unknown } = {}) {
    const where = context.key === undefined ? "" : ` in "${context.key}"`;
    const jsonPath = formatJsonPath(path);
    super("METADATA_INVALID", `Invalid metadata${where} at ${jsonPath}: ${problem}`, {
      key: context.key,
      jsonPath,
      cause: context.cause,
    });
    this.name = "MetadataError";
    this.path = path;
    this.problem = problem;
  }
}

/** Describes a JSON value briefly for error messages ("the string \"x\"", "null", ...). */
export function describeJson(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  switch (typeof value) {
    case "string": {
      const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
      return `the string ${JSON.stringify(shown)}`;
    }
    case "number":
    case "bigint":
      return `the number ${String(value)}`;
    case "boolean":
      return String(value);
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}

/** Throws `ABORTED` if the signal has been aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw new ZarrError("ABORTED", "The operation was aborted", { cause: signal.reason });
  }
}

/**
 * Wraps an unknown thrown value into a `ZarrError` with the given code, keeping
 * `ZarrError`s (which already say what and where) as they are.
 */
export function asZarrError(error: unknown, code: ZarrErrorCode, message: string, key?: string): ZarrError {
  if (error instanceof ZarrError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new ZarrError(code, `${message}: ${detail}`, { key, cause: error });
}
