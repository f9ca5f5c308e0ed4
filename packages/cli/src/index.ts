/**
 * @zarr/cli: the `zarr` command-line tool (info, tree, get, put) and the pieces it is
 * made of: NumPy `.npy` reading and writing, and the store argument.
 */

export { type CliIO, processIO } from "./cli-io.js";
export { main, run } from "./main.js";
export { decodeNpy, encodeNpy, encodeNpyParts, type NpyArray, type NpyInput } from "./npy.js";
export { dataTypeToDescr, descrToDataTypeDefinition, type NpyDescr, parseDescr } from "./npy-dtypes.js";
export { cliRegistry } from "./registry.js";
export { type OpenStoreArgOptions, openStoreArg } from "./store-arg.js";
