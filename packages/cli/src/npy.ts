/**
 * Reading and writing NumPy `.npy` files as Zarr data: the header (npy-header.ts), the
 * dtype mapping (npy-dtypes.ts), and the element bytes, which go through the Zarr data
 * type's own `fromBytes`/`toBytes` so every bit (NaN payloads, -0, float16 patterns,
 * NaT) survives unchanged.
 */
import type { Registry } from "@zarr/core";
import { FixedLengthUtf32DataType } from "@zarr/core/extensions";
import {
  type DataArray,
  type DataType,
  type NdArray,
  shapeSize,
  toCContiguous,
  ZarrError,
} from "@zarr/spec";
import { dataTypeToDescr, descrToDataTypeDefinition, type NpyDescr, parseDescr } from "./npy-dtypes.js";
import { formatNpyHeader, malformed, parseNpyHeader } from "./npy-header.js";

/** The contents of a `.npy` file, in C order, as a Zarr data type and its storage. */
export interface NpyArray {
  shape: number[];
  dataType: DataType;
  /** Elements in C order, in the storage `dataType` uses. */
  data: DataArray;
  /** The dtype string from the header (`"<f8"`). */
  descr: string;
  /** The parsed dtype (kind `S` tells fixed bytes from `V` raw data). */
  npyDtype: NpyDescr;
}

/**
 * Decodes a `.npy` file (format versions 1.0, 2.0 and 3.0; either byte order; C or
 * Fortran order, returned in C order). `fileName` is named in errors: a malformed
 * file throws `INVALID_ARGUMENT`, a dtype without a Zarr equivalent `UNSUPPORTED`.
 *
 * @example
 * ```ts
 * const npy = await decodeNpy(await readFile("a.npy"), "a.npy", cliRegistry());
 * npy.shape; npy.dataType.name; npy.data;
 * ```
 */
export async function decodeNpy(input: Uint8Array, fileName: string, registry: Registry): Promise<NpyArray> {
  // A plain Uint8Array view: a Node Buffer would make byte-typed data arrays Buffers too,
  // which core does not take for its own Uint8Array storage.
  const bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  const header = parseNpyHeader(bytes, fileName);
  if (typeof header.descr !== "string") {
    throw new ZarrError("UNSUPPORTED", `Cannot read "${fileName}": structured dtypes are not supported`);
  }
  const descr = header.descr;
  const npyDtype = parseDescr(descr, fileName);
  const definition = descrToDataTypeDefinition(npyDtype, descr, fileName);
  let dataType: DataType;
  try {
    const entry = await registry.dataType(definition.name);
    dataType = entry.fromConfig(definition.name, definition.configuration, ["data_type"]);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ZarrError("UNSUPPORTED", `Cannot read "${fileName}": the dtype ${JSON.stringify(descr)} is not supported (${why})`, {
      cause: error,
    });
  }
  const { shape } = header;
  const count = shapeSize(shape);
  const need = count * npyDtype.itemSize;
  const available = bytes.length - header.dataOffset;
  if (need > available) {
    malformed(
      fileName,
      `shape (${shape.join(", ")}) of ${descr} needs ${need} data bytes, but the file holds only ${available}`,
    );
  }
  if (dataType.fromBytes === undefined) {
    throw new ZarrError("UNSUPPORTED", `Cannot read "${fileName}": data type ${dataType.name} has no binary form`);
  }
  const body = bytes.subarray(header.dataOffset, header.dataOffset + need);
  let data = dataType.fromBytes(body, count, npyDtype.byteOrder !== ">");
  if (header.fortranOrder && shape.length > 1) {
    // Fortran order: the first index varies fastest. View it with those strides, copy to C.
    const stride: number[] = [];
    let s = 1;
    for (const n of shape) {
      stride.push(s);
      s *= n;
    }
    const view: NdArray = { data, shape: shape.slice(), stride };
    data = toCContiguous(view, dataType).data;
  }
  return { shape: shape.slice(), dataType, data, descr, npyDtype };
}

/** Number of code points of `s` (a surrogate pair counts once). */
function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) i++;
    }
    n++;
  }
  return n;
}

/** An array to write: C-contiguous elements of `shape` in `dataType`'s storage (what `get` returns). */
export interface NpyInput {
  data: DataArray;
  shape: readonly number[];
  dataType: DataType;
}

/**
 * Encodes an array as a `.npy` file (format 1.0, or 2.0 for a header beyond 64 KiB),
 * little endian, C order. Variable-length `string` arrays become `<U<longest>` and
 * `bytes` arrays `|S<longest>` (at least 1, as NumPy does); raw `r<N>` becomes `|V<N/8>`.
 * Struct and object data types throw `UNSUPPORTED`.
 *
 * @example
 * ```ts
 * await writeFile("out.npy", encodeNpy(await get(array)));
 * ```
 */
export function encodeNpy(array: NpyInput): Uint8Array {
  const { header, body } = encodeNpyParts(array);
  const out = new Uint8Array(header.length + body.length);
  out.set(header, 0);
  out.set(body, header.length);
  return out;
}

/**
 * The two parts of {@link encodeNpy}'s file, to write one after the other: the header,
 * and the body, which for little-endian fixed-size data is a view of `array.data` itself
 * (no copy of a result that may be gigabytes).
 *
 * @example
 * ```ts
 * const { header, body } = encodeNpyParts(await get(array));
 * await file.writev([header, body]);
 * ```
 */
export function encodeNpyParts(array: NpyInput): { header: Uint8Array; body: Uint8Array } {
  const { dataType, shape } = array;
  const count = shapeSize(shape);
  let descr: string;
  let body: Uint8Array;
  if (dataType.kind === "string" && dataType.byteSize === undefined) {
    const strings = array.data as string[];
    let longest = 1;
    for (let i = 0; i < count; i++) longest = Math.max(longest, codePoints(strings[i]));
    body = new FixedLengthUtf32DataType("fixed_length_utf32", longest * 4).toBytes(strings.slice(0, count), true);
    descr = `<U${longest}`;
  } else if (dataType.kind === "bytes" && dataType.byteSize === undefined) {
    const items = array.data as Uint8Array[];
    let longest = 1;
    for (let i = 0; i < count; i++) longest = Math.max(longest, items[i].length);
    body = new Uint8Array(count * longest);
    for (let i = 0; i < count; i++) body.set(items[i], i * longest);
    descr = `|S${longest}`;
  } else {
    descr = dataTypeToDescr(dataType);
    if (dataType.toBytes === undefined) {
      throw new ZarrError("UNSUPPORTED", `Arrays of data type "${dataType.name}" cannot be written as .npy`);
    }
    body = dataType.toBytes(array.data, true);
    const expected = count * (dataType.byteSize ?? 0);
    if (body.length !== expected) body = body.subarray(0, expected);
  }
  return { header: formatNpyHeader(descr, shape), body };
}
