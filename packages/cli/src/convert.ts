/** Converting the elements of a .npy file to the data type `zarr put --data-type` asks for. */
import { type DataArray, type DataType, shapeSize, ZarrError } from "@zarr/spec";
import type { NpyArray } from "./npy.js";

function sameType(a: DataType, b: DataType): boolean {
  return a.name === b.name && JSON.stringify(a.configuration) === JSON.stringify(b.configuration);
}

function withoutTrailingNuls(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  return bytes.slice(0, end);
}

/**
 * The elements of `npy` in `target`'s storage: as they are when the types match,
 * otherwise element by element through `target.coerce` (a `<U` array to `string`, `|S`
 * to `bytes` without NumPy's trailing NUL padding, int64 to int32 with range checks, ...).
 * An element that does not fit throws `INVALID_ARGUMENT` naming its flat index.
 */
export function convertData(npy: NpyArray, target: DataType, fileName: string): DataArray {
  const from = npy.dataType;
  if (sameType(from, target)) return npy.data;
  const n = shapeSize(npy.shape);
  const out = target.allocate(n);
  const stripNuls = npy.npyDtype.kind === "S" && target.kind === "bytes";
  for (let i = 0; i < n; i++) {
    let value = from.getItem(npy.data, i);
    if (stripNuls) value = withoutTrailingNuls(value as Uint8Array);
    try {
      target.setItem(out, i, target.coerce(value));
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new ZarrError(
        "INVALID_ARGUMENT",
        `Element ${i} (C order) of "${fileName}" (${npy.descr}) cannot be stored as ${target.name}: ${why}`,
        { cause: error },
      );
    }
  }
  return out;
}
