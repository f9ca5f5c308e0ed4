/**
 * Validation of codec configurations: every problem becomes a `MetadataError` at the JSON
 * path of the offending value (`$.codecs[0].configuration.dtype`), never a bare TypeError.
 */
import { describeJson, type JsonObject, type JsonPath, type JsonValue, MetadataError } from "@zarr/spec";

/**
 * Reads the fields of one codec configuration. Unknown keys are rejected; a numcodecs `id`
 * key (which zarr-python never writes inside a v3 configuration, but v2-converted metadata
 * may carry) is accepted and ignored.
 */
export class ConfigReader {
  constructor(
    /** Codec name, for messages. */
    readonly codec: string,
    readonly config: JsonObject,
    /** JSON path of the codec entry (`["codecs", 0]`). */
    readonly path: JsonPath,
    allowed: readonly string[],
  ) {
    for (const key of Object.keys(config)) {
      if (key === "id" || allowed.includes(key)) continue;
      const known = allowed.length === 0 ? "it takes no configuration" : `known keys: ${allowed.join(", ")}`;
      throw new MetadataError(this.at(key), `unknown configuration key ${JSON.stringify(key)} for codec "${codec}" (${known})`);
    }
  }

  /** JSON path of `key` inside the configuration. */
  at(key: string): JsonPath {
    return [...this.path, "configuration", key];
  }

  /** True when `key` is present and not null. */
  has(key: string): boolean {
    return this.config[key] !== undefined && this.config[key] !== null;
  }

  /** Throws a `MetadataError` at `key`. */
  fail(key: string, problem: string): never {
    throw new MetadataError(this.at(key), problem);
  }

  /** Throws a `MetadataError` at the codec entry itself (for problems with no single key). */
  failCodec(problem: string): never {
    throw new MetadataError(this.path, problem);
  }

  private required(key: string): JsonValue {
    const v = this.config[key];
    if (v === undefined) this.fail(key, `the codec "${this.codec}" requires "${key}"`);
    return v;
  }

  /** An integer in `[min, max]`. */
  integer(key: string, min: number, max: number, fallback?: number): number {
    const v = fallback !== undefined && !this.has(key) ? fallback : this.required(key);
    if (typeof v === "number" && Number.isInteger(v) && v >= min && v <= max) return v;
    if (typeof v === "bigint" && v >= BigInt(min) && v <= BigInt(max)) return Number(v);
    return this.fail(key, `expected an integer from ${min} to ${max}, found ${describeJson(v)}`);
  }

  /** A string. */
  string(key: string, fallback?: string): string {
    const v = fallback !== undefined && !this.has(key) ? fallback : this.required(key);
    if (typeof v === "string") return v;
    return this.fail(key, `expected a string, found ${describeJson(v)}`);
  }

  /** A boolean. */
  boolean(key: string, fallback?: boolean): boolean {
    const v = fallback !== undefined && !this.has(key) ? fallback : this.required(key);
    if (typeof v === "boolean") return v;
    return this.fail(key, `expected true or false, found ${describeJson(v)}`);
  }

  /** One of a fixed set of strings. */
  oneOf<T extends string>(key: string, values: readonly T[], fallback?: T): T {
    const v = fallback !== undefined && !this.has(key) ? fallback : this.required(key);
    if (typeof v === "string" && (values as readonly string[]).includes(v)) return v as T;
    return this.fail(key, `expected one of ${values.map((s) => JSON.stringify(s)).join(", ")}, found ${describeJson(v)}`);
  }

  /** The raw value (undefined when absent). */
  raw(key: string): JsonValue | undefined {
    return this.config[key];
  }
}
