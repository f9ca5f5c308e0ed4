/**
 * C-contiguous views: telling one, and copying a strided array into one (what encoders
 * that need C order call; a module of its own, so readers leave it out of a bundle's first chunk).
 */
import type { DataArray, DataType, Scalar } from "./data-type.js";
import { cStrides, copyRegion, fullSelection, type NdArray, shapeSize } from "./ndarray.js";

/** True when the view is C-contiguous from offset 0 over the whole of `data`. */
export function isCContiguous(arr: NdArray, width = 1): boolean {
  if ((arr.offset ?? 0) !== 0) return false;
  const expected = cStrides(arr.shape);
  for (let d = 0; d < arr.shape.length; d++) {
    if (arr.shape[d] > 1 && arr.stride[d] !== expected[d]) return false;
  }
  return arr.data.length === shapeSize(arr.shape) * width;
}

/**
 * Returns a C-contiguous copy of `arr` (or `arr` itself when it already is one).
 */
export function toCContiguous<A extends DataArray>(arr: NdArray<A>, dataType: DataType<Scalar, A>): NdArray<A> {
  if (isCContiguous(arr, dataType.width)) return { data: arr.data, shape: arr.shape, stride: arr.stride };
  const out: NdArray<A> = {
    data: dataType.allocate(shapeSize(arr.shape)),
    shape: arr.shape.slice(),
    stride: cStrides(arr.shape),
  };
  copyRegion(arr, fullSelection(arr.shape), out, fullSelection(arr.shape), dataType.width);
  return out;
}
