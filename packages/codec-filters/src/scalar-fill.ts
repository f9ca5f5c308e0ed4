/** Carrying a fill value through an elementwise transformation. */
import type { DataType, Scalar, TypedArray } from "@zarr/spec";

/**
 * Applies an elementwise array transformation to one value: the fill value of the
 * representation a codec produces is the codec applied to the fill value it receives.
 */
export function transformScalar(
  value: Scalar,
  from: DataType,
  to: DataType,
  transform: (data: TypedArray, n: number) => TypedArray,
): Scalar {
  const src = from.allocate(1);
  from.setItem(src, 0, value);
  return to.getItem(transform(src as TypedArray, 1), 0);
}
