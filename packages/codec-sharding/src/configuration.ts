/**
 * Parsing the `sharding_indexed` configuration from untrusted metadata. Every problem
 * is a `MetadataError` naming the JSON path of the bad value.
 */
import {
  describeJson,
  type ExtensionObject,
  isJsonObject,
  type JsonObject,
  type JsonPath,
  type JsonValue,
  MetadataError,
} from "@zarr/spec";

/** Where the index sits in a shard. */
export type IndexLocation = "start" | "end";

/** A validated `sharding_indexed` configuration. */
export interface ShardingConfiguration {
  /** Shape of an inner chunk. */
  chunkShape: number[];
  /** The inner chunks' codec chain. */
  codecs: ExtensionObject[];
  /** The index's codec chain (must have a fixed encoded size). */
  indexCodecs: ExtensionObject[];
  indexLocation: IndexLocation;
}

/** The index codecs used when the configuration has none: little-endian bytes, then crc32c. */
export const DEFAULT_INDEX_CODECS: readonly ExtensionObject[] = Object.freeze([
  { name: "bytes", configuration: { endian: "little" } } as ExtensionObject,
  { name: "crc32c", configuration: {} } as ExtensionObject,
]);

/** Most inner chunks one shard may have (the decoded index then takes 1 GiB). */
export const MAX_INNER_CHUNKS = 2 ** 26;

const FIELDS = new Set(["chunk_shape", "codecs", "index_codecs", "index_location"]);

function parseCodecList(value: JsonValue | undefined, path: JsonPath): ExtensionObject[] {
  if (!Array.isArray(value)) throw new MetadataError(path, `expected an array of codecs, got ${describeJson(value)}`);
  return value.map((item, i) => {
    // Zarr 3.1 allows a bare name for a codec without configuration.
    if (typeof item === "string") return { name: item, configuration: {} };
    if (!isJsonObject(item)) throw new MetadataError([...path, i], `expected a codec object, got ${describeJson(item)}`);
    const { name, configuration, must_understand } = item;
    if (typeof name !== "string" || name === "") {
      throw new MetadataError([...path, i, "name"], `expected a codec name, got ${describeJson(name)}`);
    }
    if (configuration !== undefined && !isJsonObject(configuration)) {
      throw new MetadataError([...path, i, "configuration"], `expected an object, got ${describeJson(configuration)}`);
    }
    if (must_understand !== undefined && typeof must_understand !== "boolean") {
      throw new MetadataError([...path, i, "must_understand"], `expected a boolean, got ${describeJson(must_understand)}`);
    }
    const out: ExtensionObject = { name, configuration: (configuration as JsonObject | undefined) ?? {} };
    if (must_understand !== undefined) out.must_understand = must_understand;
    return out;
  });
}

/**
 * Validates `configuration` for shards of `shardShape`. `path` is the JSON path of the
 * codec entry; problems are reported under `[...path, "configuration", field]`.
 */
export function parseShardingConfiguration(
  configuration: JsonObject,
  shardShape: readonly number[],
  path: JsonPath,
): ShardingConfiguration {
  const at = (...rest: (string | number)[]): JsonPath => [...path, "configuration", ...rest];
  for (const key of Object.keys(configuration)) {
    if (!FIELDS.has(key)) throw new MetadataError(at(key), `unknown configuration field "${key}"`);
  }
  const cs = configuration.chunk_shape;
  if (!Array.isArray(cs)) throw new MetadataError(at("chunk_shape"), `expected an array of integers, got ${describeJson(cs)}`);
  if (cs.length !== shardShape.length) {
    throw new MetadataError(
      at("chunk_shape"),
      `has ${cs.length} dimensions, but the shards have ${shardShape.length} (shard shape ${JSON.stringify(shardShape)})`,
    );
  }
  const chunkShape = cs.map((v, d) => {
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 1) {
      throw new MetadataError(at("chunk_shape", d), `expected a positive integer, got ${describeJson(v)}`);
    }
    return v;
  });
  checkDivides(chunkShape, shardShape, (problem) => new MetadataError(at("chunk_shape"), problem));
  const codecs = parseCodecList(configuration.codecs, at("codecs"));
  const indexCodecs =
    configuration.index_codecs === undefined
      ? DEFAULT_INDEX_CODECS.map((c) => ({ name: c.name, configuration: { ...c.configuration } }))
      : parseCodecList(configuration.index_codecs, at("index_codecs"));
  const loc = configuration.index_location ?? "end";
  if (loc !== "start" && loc !== "end") {
    throw new MetadataError(at("index_location"), `expected "start" or "end", got ${describeJson(loc)}`);
  }
  return { chunkShape, codecs, indexCodecs, indexLocation: loc };
}

/**
 * Checks that `chunkShape` divides `shardShape` evenly and that the shard does not hold
 * an implausible number of inner chunks; reports a problem through `fail`.
 */
export function checkDivides(
  chunkShape: readonly number[],
  shardShape: readonly number[],
  fail: (problem: string) => Error,
): void {
  let count = 1;
  for (let d = 0; d < chunkShape.length; d++) {
    if (shardShape[d] % chunkShape[d] !== 0) {
      throw fail(
        `the inner chunk shape ${JSON.stringify(chunkShape)} does not evenly divide the shard shape ${JSON.stringify(shardShape)} (dimension ${d})`,
      );
    }
    count *= shardShape[d] / chunkShape[d];
  }
  if (count > MAX_INNER_CHUNKS) {
    throw fail(
      `a shard of shape ${JSON.stringify(shardShape)} would hold ${count} inner chunks of shape ${JSON.stringify(chunkShape)} (at most ${MAX_INNER_CHUNKS} are supported)`,
    );
  }
}
