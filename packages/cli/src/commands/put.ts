/** `zarr put STORE PATH --from FILE.npy [options]`. */
import { readFile } from "node:fs/promises";
import {
  type CreateArrayOptions,
  createArray,
  deleteNode,
  type ExtensionLike,
  normalizePath,
  type Registry,
  set,
} from "@zarr/core";
import { type DataType, isJsonObject, type JsonValue, MetadataError, ZarrError } from "@zarr/spec";
import { type CodecConfigV2, createArrayV2, dataTypeToDtype } from "@zarr/v2-compat";
import type { CliIO } from "../cli-io.js";
import { convertData } from "../convert.js";
import { dataTypeText, shapeText } from "../format.js";
import { decodeNpy } from "../npy.js";
import {
  parseAttrsOption,
  parseChunksOption,
  parseCodecsOption,
  parseDataTypeOption,
  parseDimensionNamesOption,
  parseFillValueOption,
  parseJsonOption,
} from "../put-options.js";
import { cliRegistry } from "../registry.js";
import { openStoreArg } from "../store-arg.js";
import { expectPositionals, parseCommandArgs, USAGE, UsageError } from "../usage.js";
import { withWorkerPool, workerCount } from "../workers.js";

/**
 * The codec chain when --codecs is not given: core's default, except that fixed-size
 * types always get `bytes` (core picks `vlen-utf8` for every string kind, including
 * the fixed-size `fixed_length_utf32`).
 */
function defaultCodecs(dataType: DataType, registry: Registry): ExtensionLike[] | undefined {
  if (dataType.byteSize === undefined) return undefined;
  const chain: ExtensionLike[] = [{ name: "bytes", configuration: { endian: "little" } }];
  if (registry.has("codec", "zstd")) chain.push({ name: "zstd", configuration: { level: 0, checksum: false } });
  return chain;
}

async function readInput(file: string): Promise<Uint8Array> {
  try {
    return await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (error as Error).message;
    throw new ZarrError("INVALID_ARGUMENT", `Cannot read "${file}": ${why}`, { cause: error });
  }
}

/** `--compressor`: a numcodecs configuration (`{"id": "zstd", "level": 3}`) or `null`. */
function parseCompressorOption(text: string): CodecConfigV2 | null {
  const json = parseJsonOption("--compressor", text);
  if (json === null) return null;
  if (!isJsonObject(json) || typeof json.id !== "string") {
    throw new ZarrError("INVALID_ARGUMENT", 'Invalid --compressor: expected a numcodecs configuration such as {"id": "zlib", "level": 1}, or null');
  }
  return json as CodecConfigV2;
}

/** `--filters`: a JSON list of numcodecs configurations, or `null`. */
function parseFiltersOption(text: string): CodecConfigV2[] | null {
  const json = parseJsonOption("--filters", text);
  if (json === null) return null;
  if (!Array.isArray(json) || !json.every((f) => isJsonObject(f) && typeof f.id === "string")) {
    throw new ZarrError("INVALID_ARGUMENT", 'Invalid --filters: expected a JSON list of numcodecs configurations such as [{"id": "delta", "dtype": "<i4"}]');
  }
  return json as CodecConfigV2[];
}

/** The v2-only options, checked before anything is read or written. */
function v2Options(values: Record<string, string | boolean | undefined>) {
  const format = values["zarr-format"] ?? "3";
  if (format !== "2" && format !== "3") throw new UsageError(`--zarr-format must be 2 or 3, got ${JSON.stringify(format)}`, "put");
  const v2Only = ["compressor", "filters", "order", "dimension-separator"].filter((k) => values[k] !== undefined);
  if (format === "3") {
    if (v2Only.length > 0) throw new UsageError(`--${v2Only[0]} needs --zarr-format 2 (use --codecs for Zarr v3)`, "put");
    return undefined;
  }
  if (values.codecs !== undefined) throw new UsageError("--codecs is for Zarr v3: use --compressor and --filters with --zarr-format 2", "put");
  const order = values.order ?? "C";
  if (order !== "C" && order !== "F") throw new UsageError(`--order must be C or F, got ${JSON.stringify(order)}`, "put");
  const sep = values["dimension-separator"] ?? ".";
  if (sep !== "." && sep !== "/") throw new UsageError(`--dimension-separator must be . or /, got ${JSON.stringify(sep)}`, "put");
  return {
    compressor: values.compressor === undefined ? undefined : parseCompressorOption(values.compressor as string),
    filters: values.filters === undefined ? undefined : parseFiltersOption(values.filters as string),
    order: order as "C" | "F",
    dimensionSeparator: sep as "." | "/",
  };
}

/** Runs `zarr put`. */
export async function putCommand(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseCommandArgs("put", args, {
    from: { type: "string" },
    chunks: { type: "string" },
    codecs: { type: "string" },
    "fill-value": { type: "string" },
    "dimension-names": { type: "string" },
    attrs: { type: "string" },
    "data-type": { type: "string" },
    overwrite: { type: "boolean" },
    "zarr-format": { type: "string" },
    compressor: { type: "string" },
    filters: { type: "string" },
    order: { type: "string" },
    "dimension-separator": { type: "string" },
    workers: { type: "string", short: "j" },
  });
  if (values.help) {
    await io.write(`${USAGE.put}\n`);
    return;
  }
  expectPositionals("put", positionals, 2, 2);
  if (values.from === undefined) throw new UsageError("--from FILE.npy is required", "put");
  // Check every argument before touching the input file or the store.
  const path = normalizePath(positionals[1]);
  const chunks = values.chunks === undefined ? {} : parseChunksOption(values.chunks);
  const codecs = values.codecs === undefined ? undefined : parseCodecsOption(values.codecs);
  const fillValue = values["fill-value"] === undefined ? undefined : parseFillValueOption(values["fill-value"]);
  const dimensionNames =
    values["dimension-names"] === undefined ? undefined : parseDimensionNamesOption(values["dimension-names"]);
  const attributes = values.attrs === undefined ? undefined : parseAttrsOption(values.attrs);
  const dataTypeOption = values["data-type"] === undefined ? undefined : parseDataTypeOption(values["data-type"]);
  const v2 = v2Options(values);
  const poolSize = workerCount("put", values.workers);
  if (v2 !== undefined && "chunkGrid" in chunks) throw new UsageError("Zarr v2 has regular chunks only (--chunks 10,10)", "put");
  const registry = cliRegistry();
  const npy = await decodeNpy(await readInput(values.from), values.from, registry);
  let dataType: DataType = npy.dataType;
  if (dataTypeOption !== undefined) {
    try {
      const entry = await registry.dataType(dataTypeOption.name);
      dataType = entry.fromConfig(dataTypeOption.name, dataTypeOption.configuration, ["data_type"]);
    } catch (error) {
      if (error instanceof MetadataError) {
        throw new ZarrError("INVALID_ARGUMENT", `Invalid --data-type: ${error.problem} (at ${error.jsonPath})`);
      }
      throw error;
    }
  }
  const data = convertData(npy, dataType, values.from);

  const store = await openStoreArg(positionals[0], { writable: true });
  /** Writes the values (with the worker pool), deleting the new array again if that fails. */
  const writeValues = async (array: Parameters<typeof set>[0]) => {
    try {
      await withWorkerPool(poolSize, (workers) => set(array, null, { data, shape: npy.shape }, { workers }));
    } catch (error) {
      // Do not leave a half-written array behind.
      await deleteNode(store, path).catch(() => undefined);
      throw error;
    }
  };
  if (v2 !== undefined) {
    // Zarr v2: the .npy dtype as it is (a --data-type in the .npy file's byte order).
    const dtype: JsonValue =
      dataTypeOption === undefined ? npy.descr : dataTypeToDtype(dataType.toJSON() as JsonValue, npy.descr.startsWith(">") ? "big" : "little");
    const array = await createArrayV2(store, path, {
      shape: npy.shape,
      dtype,
      ...(dataTypeOption === undefined ? {} : { dataType: dataType.toJSON() }),
      ...("chunkShape" in chunks ? { chunks: chunks.chunkShape as number[] } : {}),
      ...(v2.compressor === undefined ? {} : { compressor: v2.compressor }),
      ...(v2.filters === undefined ? {} : { filters: v2.filters }),
      order: v2.order,
      dimensionSeparator: v2.dimensionSeparator,
      ...(fillValue === undefined ? {} : { fillValue }),
      ...(dimensionNames === undefined ? {} : { dimensionNames: dimensionNames.map((n) => n ?? "") }),
      ...(attributes === undefined ? {} : { attributes }),
      overwrite: values.overwrite ?? false,
      registry,
    });
    await writeValues(array);
    const count = array.chunkGrid.gridShape.reduce((a, b) => a * b, 1);
    await io.write(`Created Zarr v2 array "/${path}": shape ${shapeText(npy.shape)}, dtype ${JSON.stringify(dtype)}, ${count} chunks\n`);
    return;
  }
  const options: CreateArrayOptions = {
    shape: npy.shape,
    dataType: dataType.toJSON(),
    registry,
    ...chunks,
    codecs: codecs ?? defaultCodecs(dataType, registry),
    ...(fillValue === undefined ? {} : { fillValue }),
    ...(dimensionNames === undefined ? {} : { dimensionNames }),
    ...(attributes === undefined ? {} : { attributes }),
    overwrite: values.overwrite ?? false,
  };
  const array = await createArray(store, path, options);
  await writeValues(array);
  const gridSize = array.chunkGrid.gridShape.reduce((a, b) => a * b, 1);
  await io.write(
    `Created array "/${path}": shape ${shapeText(npy.shape)}, data type ${dataTypeText(array.metadata.data_type)}, ${gridSize} chunks\n`,
  );
}
