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
import { type DataType, MetadataError, ZarrError } from "@zarr/spec";
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
} from "../put-options.js";
import { cliRegistry } from "../registry.js";
import { openStoreArg } from "../store-arg.js";
import { expectPositionals, parseCommandArgs, UsageError, USAGE } from "../usage.js";

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
  try {
    await set(array, null, { data, shape: npy.shape });
  } catch (error) {
    // Do not leave a half-written array behind.
    await deleteNode(store, path).catch(() => undefined);
    throw error;
  }
  const gridSize = array.chunkGrid.gridShape.reduce((a, b) => a * b, 1);
  await io.write(
    `Created array "/${path}": shape ${shapeText(npy.shape)}, data type ${dataTypeText(array.metadata.data_type)}, ${gridSize} chunks\n`,
  );
}
