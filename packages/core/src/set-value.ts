/**
 * The values `set`, `setCoordinates` and `setMask` write, typed by the array's data type
 * as `get`'s result is: a `ZarrArray<"float32">` takes numbers, a `Float32Array` or
 * `{ data, shape }` holding either, and refuses an `Int32Array` or strings at compile time.
 */
import type { DataArray, Scalar } from "@zarr/spec";
import type { ArrayOf, DataTypeMap, InputOf, RawBitsName } from "./data-type-map.js";

/**
 * An N-dimensional input: `stride` defaults to C order, `offset` to 0. `A` is what `data`
 * may be (any `DataArray` unless the array's data type is known, see {@link SetValueOf}).
 * A `stride` other than C order needs `data` in the data type's own storage class.
 */
export interface InputArray<A extends DataArray = DataArray> {
  data: A;
  shape: number[];
  stride?: number[];
  offset?: number;
}

/**
 * A value for `set` on an array whose data type the type checker does not know: a scalar,
 * a flat array in C order, or an N-dimensional array to broadcast. Everything the data
 * type can convert is accepted; what it cannot is refused at run time (`INVALID_ARGUMENT`).
 */
export type SetValue = Scalar | DataArray | InputArray;

/**
 * A value for `set` on a `ZarrArray<N>`: one element (`InputOf<N>`: a number, or a bigint
 * the data type converts, for the numeric types, datetimes also `"NaT"`; `true`, `false`,
 * `0` or `1` for `bool`; a `string` for strings; `[re, im]` or a number for complex), a flat array in C
 * order of such elements, the data type's own storage array (`ArrayOf<N>`, what `get`
 * returns: a `Float32Array` for `"float32"`), or `{ data, shape }` holding either.
 *
 * Of the typed arrays only the storage class itself is accepted, not every typed array of
 * the same kind: an `Int32Array` or a `Float64Array` written to a float32 array would be
 * converted element by element, silently rounding (2^24 + 1 in an int32, 0.1 in a
 * float64) or failing at run time (a fraction into an integer type). Say so instead:
 * `Float32Array.from(values)`, or a plain `number[]`. The storage class is also what is
 * written without a copy or a conversion.
 *
 * For a union of names (`ZarrArray<"int16" | "float32">`) a value of any of them compiles.
 * For an array whose data type is not known (`N` is `string`, or a name `DataTypeMap`
 * does not list) this is {@link SetValue}: everything the data type can convert at run time.
 */
export type SetValueOf<N extends string> = N extends keyof DataTypeMap | RawBitsName
  ? InputOf<N> | InputOf<N>[] | ArrayOf<N> | InputArray<ArrayOf<N> | InputOf<N>[]>
  : SetValue;
