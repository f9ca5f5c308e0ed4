/**
 * `zarr put STORE PATH --from FILE.npy [options]`. The array's metadata is written last
 * (metadata-last.ts), with a marker recording the put until then (interrupted-put.ts), so
 * an interrupted put never reads back as an array of fill values and `--resume` can
 * finish it.
 */
import {
  type CreateArrayOptions,
  createArray,
  deleteNode,
  type ExtensionLike,
  exists,
  normalizePath,
  type Registry,
  set,
  type ZarrArray,
} from "@zarr/core";
import { type DataType, isJsonObject, type JsonValue, MetadataError, type Store, ZarrError } from "@zarr/spec";
import { type CodecConfigV2, createArrayV2, dataTypeToDtype } from "@zarr/v2-compat";
import type { CliIO } from "../cli-io.js";
import { convertData } from "../convert.js";
import { dataTypeText, shapeText } from "../format.js";
import {
  metadataTexts,
  type PutRecord,
  readPutRecord,
  removePutRecord,
  removeStaleTempFiles,
  sameMetadata,
  writePutRecord,
} from "../interrupted-put.js";
import { MetadataLastStore } from "../metadata-last.js";
import { decodeNpy } from "../npy.js";
import { readNpyInput } from "../npy-input.js";
import { printable } from "../printable.js";
import {
  parseAttrsOption,
  parseChunksOption,
  parseCodecsOption,
  parseDataTypeOption,
  parseDimensionNamesOption,
  parseFillValueOption,
  parseJsonOption,
} from "../put-options.js";
import { readLimits } from "../read-limits.js";
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
function v2Options(values: Record<string, string | string[] | boolean | undefined>) {
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

/**
 * What is at PATH before the put: nothing, a complete node, or an interrupted put (its
 * record, and whether its metadata made it before the kill).
 */
async function findPrevious(store: Store, path: string): Promise<{ record: PutRecord | undefined; hasMetadata: boolean }> {
  const record = await readPutRecord(store, path);
  if (record === undefined) return { record, hasMetadata: false };
  // The document that makes the node (zarr.json, or .zarray) is the last one written.
  const nodeKey = Object.keys(record.metadata).find((key) => key.endsWith("zarr.json") || key.endsWith(".zarray"));
  const hasMetadata = nodeKey !== undefined && (await store.get(nodeKey)) !== undefined;
  return { record, hasMetadata };
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
    resume: { type: "boolean" },
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
  const limits = readLimits("put", values);
  expectPositionals("put", positionals, 2, 2);
  if (values.from === undefined) throw new UsageError("--from FILE.npy is required", "put");
  if (values.resume && values.overwrite) throw new UsageError("--resume finishes an interrupted put; it cannot be combined with --overwrite", "put");
  // Check every argument before touching the input file or the store. PATH is a node path
  // inside the store: a leading "/" means the store's root, as in zarr-python.
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
  const input = await readNpyInput(values.from);
  const npy = await decodeNpy(input.bytes, values.from, registry);
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

  const store = await openStoreArg(positionals[0], { writable: true, headers: values.header, limits });
  const shown = printable(path === "" ? "/" : path);
  // Temporary files of writers killed earlier (never a live writer's: see store-fs).
  await removeStaleTempFiles(store, path);
  const previous = await findPrevious(store, path);
  if (values.resume && previous.record === undefined) {
    if (await exists(store, path)) {
      // Killed after the put finished (or never interrupted): there is nothing left to do.
      await io.write(`Nothing to resume: "${shown}" is complete (no interrupted put is recorded there)\n`);
      return;
    }
    // Killed before the put wrote anything: resuming is putting.
  }
  if (values.resume && previous.record !== undefined) {
    if (previous.record.sha256 !== input.sha256) {
      throw new ZarrError(
        "INVALID_ARGUMENT",
        `Cannot resume the put at "${shown}": "${values.from}" is not the input of the interrupted put (its SHA-256 differs)`,
      );
    }
    if (previous.hasMetadata) {
      // Killed after the metadata was written: every chunk was in place.
      await removePutRecord(store, path);
      await io.write(`Resumed "${shown}": it was already complete\n`);
      return;
    }
  } else if (previous.record !== undefined) {
    if (!values.overwrite) {
      throw new ZarrError(
        "NODE_EXISTS",
        `"${shown}" holds an interrupted put: finish it with --resume (same input and options), or replace it with --overwrite`,
      );
    }
    await deleteNode(store, path);
  }

  const resuming = values.resume === true && previous.record !== undefined;
  const target = new MetadataLastStore(store, path, { skipUnchanged: resuming, hideExistingKeys: resuming });
  const overwrite = values.overwrite ?? false;
  let array: ZarrArray;
  let description: string;
  let typeText: string;
  if (v2 !== undefined) {
    // Zarr v2: the .npy dtype as it is (a --data-type in the .npy file's byte order).
    const dtype: JsonValue =
      dataTypeOption === undefined ? npy.descr : dataTypeToDtype(dataType.toJSON() as JsonValue, npy.descr.startsWith(">") ? "big" : "little");
    array = await createArrayV2(target, path, {
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
      overwrite,
      registry,
    });
    description = `Zarr v2 array "${shown}"`;
    typeText = `dtype ${JSON.stringify(dtype)}`;
  } else {
    const options: CreateArrayOptions = {
      shape: npy.shape,
      dataType: dataType.toJSON(),
      registry,
      ...chunks,
      codecs: codecs ?? defaultCodecs(dataType, registry),
      ...(fillValue === undefined ? {} : { fillValue }),
      ...(dimensionNames === undefined ? {} : { dimensionNames }),
      ...(attributes === undefined ? {} : { attributes }),
      overwrite,
    };
    array = await createArray(target, path, options);
    description = `array "${shown}"`;
    typeText = `data type ${dataTypeText(array.metadata.data_type)}`;
  }

  const metadata = metadataTexts(target.held());
  if (resuming && !sameMetadata((previous.record as PutRecord).metadata, metadata)) {
    throw new ZarrError(
      "INVALID_ARGUMENT",
      `Cannot resume the put at "${shown}": the options differ from the interrupted put's (give the same options, or start again with --overwrite)`,
    );
  }
  if (!resuming) await writePutRecord(store, path, { sha256: input.sha256, metadata });
  try {
    await withWorkerPool(poolSize, (workers) => set(array, null, { data, shape: npy.shape }, { workers }));
    await target.flush();
    await removePutRecord(store, path);
  } catch (error) {
    // A failed put (not a killed one) leaves nothing behind; a resume keeps what it had.
    if (!resuming) await deleteNode(store, path).catch(() => undefined);
    throw error;
  }
  const count = array.chunkGrid.gridShape.reduce((a, b) => a * b, 1);
  const resumed = resuming ? ` (resumed: ${target.skipped} chunks were already in place, ${target.written} written)` : "";
  await io.write(`Created ${description} in ${printable(positionals[0])}: shape ${shapeText(npy.shape)}, ${typeText}, ${count} chunks${resumed}\n`);
}
