/**
 * Where xarray finds a variable's `_FillValue`. For Zarr v2 (xarray 2023.01 and later
 * with `use_zarr_fill_value_as_mask` left at its default) it is the array's own
 * `fill_value`, which replaces any `_FillValue` attribute; `fill_value: null` means none.
 * For Zarr v3, xarray ignores the array's `fill_value` and reads the `_FillValue`
 * attribute, which it writes for floats as base64 of a little-endian float64
 * (`FillValueCoder`) and for other types as the plain value.
 */
import type { ZarrArray } from "@zarr/core";
import { decodeBase64, encodeBase64 } from "@zarr/core/extensions";
import { isJsonObject, type JsonValue, type Store, ZarrError } from "@zarr/spec";

const textDecoder = new TextDecoder();

async function readJson(store: Store, key: string): Promise<JsonValue | undefined> {
  let bytes: Uint8Array | undefined;
  try {
    bytes = await store.get(key);
  } catch (error) {
    throw new ZarrError("STORE_FAILED", `Could not read "${key}"`, { key, cause: error });
  }
  if (bytes === undefined) return undefined;
  try {
    return JSON.parse(textDecoder.decode(bytes)) as JsonValue;
  } catch (error) {
    throw new ZarrError("METADATA_INVALID", `"${key}" is not valid JSON`, { key, cause: error });
  }
}

/**
 * The raw `fill_value` of the `.zarray` of every v2 array in `arrays` (children of the
 * group at `groupPath`): from the group's `.zmetadata` when it lists them, else from each
 * `.zarray`. The v3 model of a v2 array turns `null` into the type's zero, so this is the
 * only way to tell "no fill value" apart.
 */
export async function rawV2FillValues(store: Store, groupPath: string, arrays: readonly ZarrArray[]): Promise<Map<string, JsonValue>> {
  const out = new Map<string, JsonValue>();
  const v2 = arrays.filter((a) => a.zarrFormat === 2);
  if (v2.length === 0) return out;
  const prefix = groupPath === "" ? "" : `${groupPath}/`;
  const consolidated = await readJson(store, `${prefix}.zmetadata`).catch(() => undefined);
  const documents = isJsonObject(consolidated) && isJsonObject(consolidated.metadata) ? consolidated.metadata : {};
  for (const array of v2) {
    const relative = `${array.path.slice(prefix.length)}/.zarray`;
    const doc = documents[relative] ?? (await readJson(store, `${array.path}/.zarray`));
    if (isJsonObject(doc)) out.set(array.path, doc.fill_value ?? null);
  }
  return out;
}

/** A `_FillValue` attribute of a v3 array as xarray writes it: floats as base64 of a little-endian float64. */
export function parseFillValueAttribute(value: JsonValue, isFloat: boolean): JsonValue {
  if (isFloat && typeof value === "string") {
    if (value === "NaN") return Number.NaN;
    const bytes = decodeBase64(value);
    if (bytes?.length === 8) return new DataView(bytes.buffer, bytes.byteOffset, 8).getFloat64(0, true);
  }
  return value;
}

/** The `_FillValue` attribute xarray writes into a v3 array for a float fill value. */
export function floatFillValueAttribute(value: number): string {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setFloat64(0, value, true);
  return encodeBase64(bytes);
}
