/**
 * The entries of the data types whose configurations name other data types (`struct`,
 * zarrs' `optional`), built over every built-in type, for `@zarr/core/extensions`.
 * Registries load these types through lazy entries instead (builtin.ts, optional-lazy.ts),
 * which give them the other types' entries as those load (see load-entries.ts).
 */
import type { CodecEntry, DataTypeEntry } from "@zarr/spec";
import { optionalCodec } from "../codecs/optional.js";
import { builtinDataTypes } from "./index.js";
import { nullTerminatedBytesDataType } from "./null-terminated-bytes.js";
import { optionalEntry } from "./optional.js";
import { structEntry } from "./struct.js";

/** `struct` (alias `structured`): records of named fixed-size fields of the built-in types. */
export const structDataType: DataTypeEntry = /* @__PURE__ */ structEntry([...builtinDataTypes, nullTerminatedBytesDataType]);

/** `optional` (alias `zarrs.optional`): a built-in number or boolean, or missing. */
export const optionalDataType: DataTypeEntry = /* @__PURE__ */ optionalEntry(builtinDataTypes);

/**
 * The `optional` data type and codec entries: add them to a registry to read and write
 * zarrs' nullable arrays. They are not among a registry's built-in entries, so bundles
 * that never meet the type do not grow; @zarr/all's registries hold them (as lazy entries).
 *
 * @example
 * ```ts
 * import { optionalEntries } from "@zarr/core/extensions";
 * const registry = createRegistry([...optionalEntries]);
 * ```
 */
export const optionalEntries: readonly [DataTypeEntry, CodecEntry] = [optionalDataType, optionalCodec];
