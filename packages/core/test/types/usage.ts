/**
 * Expected uses of @zarr/core's types, as a user writes them. Compiled (never run) by
 * test/types.test.ts against the built package under `node16` and `bundler` module
 * resolution: every line must type-check, and every `@ts-expect-error` line must fail.
 */
import {
  type ArrayData,
  type ArrayOf,
  type Complex,
  createArray,
  createGroup,
  type DataArray,
  get,
  getCoordinates,
  getMask,
  type InputOf,
  MemoryStore,
  openArray,
  resize,
  type Scalar,
  type ScalarOf,
  type SetValue,
  type SetValueOf,
  type StructValue,
  set,
  setAttributes,
  setCoordinates,
  setMask,
  type ZarrArray,
} from "@zarr/core";

/** Compiles only when `A` and `B` are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<A, B>(_proof: Equal<A, B>): void {}
/** `check(value).is<T>(true)` compiles only when `value` has exactly type `T`. */
function check<A>(_value: A) {
  return { is<B>(_proof: Equal<A, B>): void {} };
}

const store = new MemoryStore();

export async function pointwiseAndNamed(): Promise<void> {
  const t2m = await openArray(store, "t2m", { dataType: "float32" });
  check((await getCoordinates(t2m, [[0, 1], { data: [2, 3], shape: [2] }])).data).is<Float32Array>(true);
  check((await getMask(t2m, { data: [true, false], shape: [2] })).data).is<Float32Array>(true);
  check((await get(t2m, { time: 0, lat: [1, 2] })).data).is<Float32Array>(true);
  await set(t2m, { time: 0 }, 1);
  // @ts-expect-error -- a dimension name holds a dimension's selection, not a string
  await get(t2m, { time: "0:2" });
}

export async function narrowedByOpen(): Promise<void> {
  const t2m = await openArray(store, "t2m", { dataType: "float32" });
  expectType<typeof t2m, ZarrArray<"float32">>(true);
  const { data } = await get(t2m);
  expectType<typeof data, Float32Array>(true);
  const first: number = data[0];
  // A typed array method, no cast: only a Float32Array has it with this signature.
  const copy: Float32Array = data.slice(0, 2);
  void first;
  void copy;
  expectType<typeof t2m.fillValue, number>(true);
}

export async function narrowedByGuard(): Promise<void> {
  const arr = await openArray(store, "a");
  const all = await get(arr);
  expectType<typeof all.data, DataArray>(true);
  // @ts-expect-error an unnarrowed array's data is the general union, not a Float32Array
  const notYet: Float32Array = all.data;
  void notYet;
  if (arr.is("int16")) {
    const result = await get(arr);
    check(result).is<ArrayData<Int16Array>>(true);
    check(result.data).is<Int16Array>(true);
  } else if (arr.is("int64")) {
    check((await get(arr)).data).is<BigInt64Array>(true);
    expectType<typeof arr.fillValue, bigint>(true);
  } else if (arr.is("bool")) {
    // bool arrays hold 0/1 bytes; dataType.getItem reads booleans.
    const { data } = await get(arr);
    expectType<typeof data, Uint8Array>(true);
    expectType<ReturnType<typeof arr.dataType.getItem>, boolean>(true);
  } else if (arr.is("string")) {
    check((await get(arr)).data).is<string[]>(true);
  }
}

export async function setTypedByDataType(): Promise<void> {
  const t2m = await openArray(store, "t2m", { dataType: "float32" });
  // Elements, plain arrays of them, the storage class, and { data, shape } of either.
  await set(t2m, null, 1);
  await set(t2m, null, [1, 2.5]);
  await set(t2m, null, new Float32Array(24));
  await set(t2m, [0], { data: new Float32Array(4), shape: [1, 4] });
  await set(t2m, [0], { data: [1, 2, 3, 4], shape: [4], stride: [1] });
  // What get returns writes back.
  await set(t2m, null, await get(t2m));
  // @ts-expect-error an Int32Array is not float32's storage: it would be converted element by element
  await set(t2m, null, new Int32Array(24));
  // @ts-expect-error a Float64Array would be rounded silently: say Float32Array.from(values)
  await set(t2m, null, new Float64Array(24));
  // @ts-expect-error strings are not numbers (this failed only at run time)
  await set(t2m, null, ["a"]);
  // @ts-expect-error a string scalar either
  await set(t2m, [0], "1.5");
  // @ts-expect-error a foreign typed array inside { data, shape } too
  await set(t2m, [0], { data: new Int32Array(4), shape: [4] });
  // The pointwise writes take the same values.
  await setCoordinates(t2m, [[0, 1]], new Float32Array(2));
  await setMask(t2m, { data: [true, false], shape: [2] }, 0);
  // @ts-expect-error setCoordinates refuses what set refuses
  await setCoordinates(t2m, [[0, 1]], new Uint16Array(2));
  // @ts-expect-error setMask too
  await setMask(t2m, { data: [true, false], shape: [2] }, ["a"]);

  const counts = await createArray(store, "n", { shape: [2], dataType: "int64" });
  await set(counts, null, 0);
  await set(counts, null, [1n, 2]);
  await set(counts, null, new BigInt64Array(2));
  // @ts-expect-error uint64 storage is not int64's (values past 2^63 would not fit)
  await set(counts, null, new BigUint64Array(2));
  // @ts-expect-error nor is a Float64Array
  await set(counts, null, new Float64Array(2));

  const flags = await createArray(store, "b", { shape: [2], dataType: "bool" });
  await set(flags, null, true);
  await set(flags, null, [true, 0, 1]);
  await set(flags, null, new Uint8Array(2));
  // @ts-expect-error bool takes true, false, 0 or 1
  await set(flags, null, 2);

  const names = await createArray(store, "s", { shape: [2], dataType: "string" });
  await set(names, null, ["a", "b"]);
  await set(names, [0], "c");
  // @ts-expect-error numbers are not strings
  await set(names, null, [1, 2]);

  const pairs = await createArray(store, "c", { shape: [2], dataType: "complex64" });
  await set(pairs, null, [1, -1]); // one complex element, written to both
  await set(pairs, null, [[1, -1], 2]);
  await set(pairs, null, new Float32Array(4)); // interleaved [re, im]
  // @ts-expect-error complex64 is stored as a Float32Array
  await set(pairs, null, new Float64Array(4));

  const time = await createArray(store, "t", { shape: [2], dataType: { name: "numpy.datetime64", configuration: { unit: "s", scale_factor: 1 } } });
  await set(time, null, ["NaT", 0n, 1]);
  // @ts-expect-error a date text is not a datetime64 value
  await set(time, null, "2024-01-01");

  const raw = await createArray(store, "r", { shape: [2], dataType: "r16" });
  await set(raw, null, new Uint8Array(2));
  // @ts-expect-error raw bits take bytes
  await set(raw, null, 0);

  // An array whose data type is not known takes everything the data types convert.
  const any = await openArray(store, "a");
  await set(any, null, new Int32Array(24));
  await set(any, null, ["a"]);
  await set(any, null, { data: new Float64Array(2), shape: [2] });
  await setCoordinates(any, [[0]], "x");
  const other = await createArray(store, "o", { shape: [2], dataType: "my.thirdparty.type" });
  await set(other, null, new Int16Array(2));
}

expectType<SetValueOf<string>, SetValue>(true);
expectType<SetValueOf<"my.thirdparty.type">, SetValue>(true);
expectType<InputOf<"bool">, boolean | 0 | 1>(true);
expectType<InputOf<"uint64">, bigint | number>(true);
expectType<InputOf<"string">, string>(true);
expectType<InputOf<string>, Scalar>(true);

export async function narrowedByCreate(): Promise<void> {
  const a = await createArray(store, "c", { shape: [4], dataType: "uint64" });
  expectType<typeof a, ZarrArray<"uint64">>(true);
  check((await get(a)).data).is<BigUint64Array>(true);
  const t = await createArray(store, "t", {
    shape: [4],
    dataType: { name: "numpy.datetime64", configuration: { unit: "s", scale_factor: 1 } },
  });
  check((await get(t)).data).is<BigInt64Array>(true);
  // A data type name only known at run time: the general types.
  const name: string = process.argv[2] ?? "float64";
  const u = await createArray(store, "u", { shape: [4], dataType: name });
  expectType<typeof u, ZarrArray>(true);
  check((await get(u)).data).is<DataArray>(true);
}

export async function unions(): Promise<void> {
  const arr: ZarrArray<"float32" | "float64"> = await openArray(store, "f", { dataType: "float32" });
  check((await get(arr)).data).is<Float32Array | Float64Array>(true);
  // A narrowed array is still a ZarrArray: functions taking any array accept it.
  const any: ZarrArray = arr;
  void any;
  // Functions that take any array accept a narrowed one and keep its type.
  await set(arr, null, 0);
  check(await resize(arr, [8])).is<ZarrArray<"float32" | "float64">>(true);
  check(await setAttributes(arr, { units: "K" })).is<ZarrArray<"float32" | "float64">>(true);
  // @ts-expect-error a float array cannot be an int16 one
  arr.is("int16");
  // @ts-expect-error no narrowing without a check: ZarrArray is not a ZarrArray<"float32">
  const unchecked: ZarrArray<"float32"> = await openArray(store, "f");
  void unchecked;
}

// What each data type name maps to (a wrong entry in DataTypeMap breaks one of these).
expectType<ArrayOf<"int8">, Int8Array>(true);
expectType<ArrayOf<"uint8">, Uint8Array>(true);
expectType<ArrayOf<"uint16">, Uint16Array>(true);
expectType<ArrayOf<"int32">, Int32Array>(true);
expectType<ArrayOf<"uint32">, Uint32Array>(true);
expectType<ArrayOf<"float16">, Float32Array>(true);
expectType<ArrayOf<"float64">, Float64Array>(true);
expectType<ArrayOf<"complex64">, Float32Array>(true);
expectType<ScalarOf<"complex128">, Complex>(true);
expectType<ArrayOf<"r16">, Uint8Array>(true);
expectType<ArrayOf<"bytes">, Uint8Array[]>(true);
expectType<ArrayOf<"variable_length_bytes">, Uint8Array[]>(true);
expectType<ArrayOf<"fixed_length_utf32">, string[]>(true);
expectType<ArrayOf<"timedelta64">, BigInt64Array>(true);
expectType<ArrayOf<"struct">, StructValue[]>(true);
expectType<ArrayOf<"my.thirdparty.type">, DataArray>(true);
expectType<ArrayOf<string>, DataArray>(true);
// @ts-expect-error int16 is not stored as an Int32Array
expectType<ArrayOf<"int16">, Int32Array>(true);

/** Settings as an application holds them: optional fields, maps built from objects. */
interface Settings {
  level?: number;
  title?: string;
}

export async function optionsAsUsersWriteThem(cfg: Settings, extra: Record<string, number>): Promise<void> {
  await createArray(store, "z", {
    shape: [10],
    dataType: "float32",
    codecs: [{ name: "bytes" }, { name: "gzip", configuration: { level: cfg.level } }],
    attributes: { title: cfg.title, scale: [1, 2] as const, ...extra },
  });
  await createGroup(store, "g", { attributes: { nested: { maybe: cfg.title, list: [{ a: 1 }] } } });
  // An object spread from settings, and a map turned into an object.
  const levels = new Map<string, number>([["level", 1]]);
  await createArray(store, "y", {
    shape: [10],
    dataType: "int8",
    codecs: [{ name: "bytes" }, { name: "gzip", configuration: { ...cfg } }],
    attributes: Object.fromEntries(levels),
  });
  await createArray(store, "bad", {
    shape: [10],
    dataType: "float32",
    // @ts-expect-error a function is not JSON
    codecs: [{ name: "gzip", configuration: { level: () => 1 } }],
  });
  // @ts-expect-error undefined is allowed for a property, not as an array element
  await createGroup(store, "h", { attributes: { list: [1, undefined] } });
}
