/**
 * @zarr/cli: the `zarr` command-line tool (info, tree, get, put) and the pieces it is
 * made of: NumPy `.npy` reading and writing, and the store argument.
 */
export { main, run } from "./main.js";
export { type CliIO, processIO } from "./cli-io.js";
export { cliRegistry } from "./registry.js";
export { openStoreArg, type OpenStoreArgOptions } from "./store-arg.js";
export { decodeNpy, encodeNpy, encodeNpyParts, type NpyArray, type NpyInput } from "./npy.js";
export { parseDescr, descrToDataTypeDefinition, dataTypeToDescr, type NpyDescr } from "./npy-dtypes.js";
