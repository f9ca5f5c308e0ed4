/**
 * The blosc codec configuration, in either of the two shapes found in metadata:
 * Zarr v3 (`shuffle` as "noshuffle" | "shuffle" | "bitshuffle") and numcodecs (`shuffle`
 * as 0 | 1 | 2 | −1, the last meaning AUTOSHUFFLE). Both are accepted under both names.
 */
import { type CodecBuildContext, describeJson, type JsonObject, type JsonPath, MetadataError } from "@zarr/spec";
import { type BloscCname, CNAMES } from "./constants.js";

/** A resolved blosc configuration: every parameter the codec uses. */
export interface BloscConfig {
  cname: BloscCname;
  clevel: number;
  shuffle: "noshuffle" | "shuffle" | "bitshuffle";
  typesize: number;
  blocksize: number;
  /** True when the configuration used numcodecs' numeric shuffle (it is written back that way). */
  numcodecsShape: boolean;
}

const KEYS = new Set(["cname", "clevel", "shuffle", "typesize", "blocksize"]);
const SHUFFLE_NAMES = ["noshuffle", "shuffle", "bitshuffle"] as const;

function integer(config: JsonObject, key: string, fallback: number | undefined, min: number, max: number, at: JsonPath): number {
  const value = config[key] ?? fallback;
  if (value === undefined) throw new MetadataError([...at, key], `required (an integer from ${min} to ${max})`);
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new MetadataError([...at, key], `expected an integer from ${min} to ${max}, got ${describeJson(value)}`);
  }
  return value;
}

/**
 * Validates a blosc configuration and resolves what it leaves out: missing fields take
 * numcodecs' defaults (lz4, clevel 5, byte shuffle, automatic block size), a missing
 * `typesize` comes from the array's data type (`context.spec.dataType.byteSize`, 1 for
 * variable-size types), and AUTOSHUFFLE (−1) becomes "shuffle" or "bitshuffle".
 * Problems throw a `MetadataError` at e.g. `$.codecs[1].configuration.clevel`.
 */
export function parseBloscConfig(configuration: JsonObject, context: Pick<CodecBuildContext, "path" | "spec">): BloscConfig {
  const at = [...context.path, "configuration"];
  for (const key of Object.keys(configuration)) {
    if (KEYS.has(key) || (key === "id" && configuration.id === "blosc")) continue;
    throw new MetadataError([...at, key], `unknown blosc configuration field "${key}"`);
  }
  const cname = configuration.cname ?? "lz4";
  if (typeof cname !== "string" || !(CNAMES as readonly string[]).includes(cname)) {
    throw new MetadataError([...at, "cname"], `expected one of ${CNAMES.map((c) => `"${c}"`).join(", ")}, got ${describeJson(cname)}`);
  }
  const clevel = integer(configuration, "clevel", 5, 0, 9, at);
  const blocksize = integer(configuration, "blocksize", 0, 0, 0x7fffffff, at);
  const byteSize = context.spec?.dataType?.byteSize;
  const typesize = integer(configuration, "typesize", byteSize !== undefined && byteSize > 0 ? byteSize : 1, 1, 0x7fffffff, at);
  const rawShuffle = configuration.shuffle ?? 1;
  let shuffle: BloscConfig["shuffle"];
  let numcodecsShape = false;
  if (typeof rawShuffle === "string" && (SHUFFLE_NAMES as readonly string[]).includes(rawShuffle)) {
    shuffle = rawShuffle as BloscConfig["shuffle"];
  } else if (rawShuffle === 0 || rawShuffle === 1 || rawShuffle === 2 || rawShuffle === -1) {
    numcodecsShape = configuration.shuffle !== undefined;
    shuffle = rawShuffle === -1 ? (typesize > 1 ? "shuffle" : "bitshuffle") : SHUFFLE_NAMES[rawShuffle];
  } else {
    throw new MetadataError(
      [...at, "shuffle"],
      `expected "noshuffle", "shuffle", "bitshuffle" (or numcodecs' 0, 1, 2, -1), got ${describeJson(rawShuffle)}`,
    );
  }
  return { cname: cname as BloscCname, clevel, shuffle, typesize, blocksize, numcodecsShape };
}
