/**
 * The item layout numcodecs' `json2` and `msgpack2` share: `arr.tolist()` (nested lists,
 * one level per dimension, C order) followed by `arr.dtype.str` and `arr.shape`, all in
 * one list. Used for string arrays now (and object arrays once a data type of kind
 * "object" exists).
 */
import {
  type ChunkSpec,
  type CodecCallContext,
  type DataArray,
  type DataType,
  type NdArray,
  type Scalar,
  shapeSize,
} from "@zarr/spec";
import { codecFailed, contiguous } from "../chunk.js";

/** NumPy's `dtype.str` of the array a codec sees: `|O` for variable-length strings and objects. */
export function dtypeStrOf(dataType: DataType): string {
  if (dataType.kind === "string" && dataType.byteSize !== undefined) return `<U${dataType.byteSize / 4}`;
  return "|O";
}

/** True for the data types the object codecs handle. */
export function isObjectLike(dataType: DataType): boolean {
  return dataType.kind === "string" || dataType.kind === "object";
}

/** `arr.tolist()` + `[dtype.str, shape]` for a C-contiguous chunk. */
export function toItems<T>(data: DataArray, dataType: DataType, shape: readonly number[], convert: (s: Scalar) => T): unknown[] {
  const n = shapeSize(shape);
  const flat = new Array<T>(n);
  for (let i = 0; i < n; i++) flat[i] = convert(dataType.getItem(data, i));
  let items: unknown[];
  if (shape.length <= 1) items = flat;
  else {
    // nest from the innermost dimension outwards
    let level: unknown[] = flat;
    for (let d = shape.length - 1; d >= 1; d--) {
      const size = shape[d];
      const next: unknown[] = new Array(shapeSize(shape.slice(0, d)));
      for (let k = 0; k < next.length; k++) next[k] = level.slice(k * size, (k + 1) * size);
      level = next;
    }
    items = level;
  }
  items.push(dtypeStrOf(dataType), shape.slice());
  return items;
}

/**
 * Splits decoded items into values and header, checks the stored shape against the chunk
 * and flattens nested lists (which must match the stored shape level by level).
 */
export function fromItems(decoded: unknown, spec: ChunkSpec, codec: string, ctx: CodecCallContext): unknown[] {
  if (!Array.isArray(decoded) || decoded.length < 2) {
    throw codecFailed(codec, ctx, "expected a list of items followed by the dtype and the shape");
  }
  const shape = decoded[decoded.length - 1];
  const dtype = decoded[decoded.length - 2];
  if (typeof dtype !== "string") throw codecFailed(codec, ctx, "the second-to-last item (the dtype) is not a string");
  if (!Array.isArray(shape) || !shape.every((s) => typeof s === "number" && Number.isSafeInteger(s) && s >= 0)) {
    throw codecFailed(codec, ctx, "the last item (the shape) is not a list of sizes");
  }
  const n = shapeSize(spec.shape);
  if (shapeSize(shape as number[]) !== n) {
    throw codecFailed(codec, ctx, `the stored shape [${shape}] does not have the ${n} elements of the chunk [${spec.shape}]`);
  }
  const values = decoded.slice(0, -2);
  if (shape.length <= 1) {
    const expected = shape.length === 0 ? 1 : n;
    if (values.length !== expected) throw codecFailed(codec, ctx, `${values.length} items for ${expected} elements`);
    return values;
  }
  const flat: unknown[] = [];
  const walk = (list: unknown, d: number): void => {
    if (!Array.isArray(list) || list.length !== shape[d]) {
      throw codecFailed(codec, ctx, `the items do not form nested lists of shape [${shape}]`);
    }
    if (d === shape.length - 1) for (const v of list) flat.push(v);
    else for (const v of list) walk(v, d + 1);
  };
  walk(values, 0);
  return flat;
}

/** Stores decoded values in a chunk of `spec`: strings for string types, anything for objects. */
export function itemsToChunk(values: readonly unknown[], spec: ChunkSpec, codec: string, ctx: CodecCallContext): NdArray {
  const dataType = spec.dataType;
  const out = dataType.allocate(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (dataType.kind === "string" && typeof v !== "string") {
      const what = v === null ? "null" : Array.isArray(v) ? "a list" : v instanceof Uint8Array ? "bytes" : typeof v;
      throw codecFailed(codec, ctx, `item ${i} is ${what}, not a string (${dataType.name} arrays hold strings only)`);
    }
    try {
      dataType.setItem(out, i, v as Scalar);
    } catch (error) {
      throw codecFailed(codec, ctx, `item ${i} does not fit ${dataType.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return contiguous(out, spec.shape);
}
