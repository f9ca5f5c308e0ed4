/**
 * Integer data types. Up to 32 bits the scalar is a JS number; `int64`/`uint64` use
 * bigint scalars and `BigInt64Array`/`BigUint64Array` storage so every value is exact.
 */
import { type DataType, describeJson, type ExtensionObject, type JsonPath, type JsonValue, MetadataError } from "@zarr/spec";
import { checkByteLength, typedFromBytes, typedToBytes, type ViewConstructor } from "./byte-order.js";
import { bigIntToJson, cannotHold, jsonIntegerToBigInt } from "./shared.js";

/** Storage arrays of the integer types up to 32 bits. */
export type SmallIntArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array;

/** An integer type of at most 32 bits: `int8` … `uint32`. */
export class SmallIntDataType<A extends SmallIntArray> implements DataType<number, A> {
  readonly configuration = {};
  readonly kind: "int" | "uint";
  readonly byteSize: number;
  readonly componentSize: number;
  readonly width = 1;
  readonly bytesAreMemory = true;
  readonly min: number;
  readonly max: number;

  constructor(
    readonly name: string,
    private readonly Ctor: ViewConstructor<A>,
    signed: boolean,
  ) {
    const bits = Ctor.BYTES_PER_ELEMENT * 8;
    this.kind = signed ? "int" : "uint";
    this.byteSize = Ctor.BYTES_PER_ELEMENT;
    this.componentSize = Ctor.BYTES_PER_ELEMENT;
    this.min = signed ? -(2 ** (bits - 1)) : 0;
    this.max = signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
  }

  allocate(length: number): A {
    return new this.Ctor(length);
  }

  fill(target: A, value: number, start: number, end: number): void {
    target.fill(value, start, end);
  }

  getItem(source: A, index: number): number {
    return source[index];
  }

  setItem(target: A, index: number, value: number): void {
    target[index] = value;
  }

  allEqual(source: A, value: number, start: number, end: number): boolean {
    for (let i = start; i < end; i++) if (source[i] !== value) return false;
    return true;
  }

  coerce(value: unknown): number {
    let n: number;
    if (typeof value === "number") n = value;
    else if (typeof value === "bigint") n = Number(value);
    else throw cannotHold(this.name, value, "expected an integer");
    if (!Number.isInteger(n) || n < this.min || n > this.max) {
      throw cannotHold(this.name, value, `expected an integer from ${this.min} to ${this.max}`);
    }
    return n;
  }

  parseFillValue(json: JsonValue, path: JsonPath): number {
    const n = typeof json === "bigint" ? Number(json) : json;
    if (typeof n !== "number" || !Number.isInteger(n) || n < this.min || n > this.max) {
      throw new MetadataError(
        path,
        `expected an integer from ${this.min} to ${this.max} for a ${this.name} fill value, got ${describeJson(json)}`,
      );
    }
    return n;
  }

  fillValueToJson(value: number): JsonValue {
    return value;
  }

  fromBytes(bytes: Uint8Array, length: number, littleEndian: boolean): A {
    checkByteLength(bytes, length, this.byteSize, this.name);
    return typedFromBytes(this.Ctor, bytes, length, littleEndian);
  }

  toBytes(data: A, littleEndian: boolean): Uint8Array {
    return typedToBytes(data, this.byteSize, littleEndian);
  }

  toJSON(): string | ExtensionObject {
    return this.name;
  }
}

/** Storage arrays of the 64-bit integer types. */
export type BigIntArray = BigInt64Array | BigUint64Array;

/**
 * A 64-bit integer type with exact bigint scalars: `int64`, `uint64`, and (through
 * the same storage) the NumPy datetime types.
 */
export class BigIntDataType<A extends BigIntArray> implements DataType<bigint, A> {
  readonly configuration: { readonly [key: string]: JsonValue } = {};
  readonly kind: "int" | "uint" | "datetime" | "timedelta";
  readonly byteSize = 8;
  readonly componentSize = 8;
  readonly width = 1;
  readonly bytesAreMemory = true;
  readonly min: bigint;
  readonly max: bigint;

  constructor(
    readonly name: string,
    private readonly Ctor: ViewConstructor<A>,
    signed: boolean,
    kind?: "datetime" | "timedelta",
  ) {
    this.kind = kind ?? (signed ? "int" : "uint");
    this.min = signed ? -(2n ** 63n) : 0n;
    this.max = signed ? 2n ** 63n - 1n : 2n ** 64n - 1n;
  }

  allocate(length: number): A {
    return new this.Ctor(length);
  }

  fill(target: A, value: bigint, start: number, end: number): void {
    target.fill(value, start, end);
  }

  getItem(source: A, index: number): bigint {
    return source[index];
  }

  setItem(target: A, index: number, value: bigint): void {
    target[index] = value;
  }

  allEqual(source: A, value: bigint, start: number, end: number): boolean {
    for (let i = start; i < end; i++) if (source[i] !== value) return false;
    return true;
  }

  coerce(value: unknown): bigint {
    let n: bigint;
    if (typeof value === "bigint") n = value;
    else if (typeof value === "number" && Number.isInteger(value)) n = BigInt(value);
    else throw cannotHold(this.name, value, "expected an integer (number or bigint)");
    if (n < this.min || n > this.max) {
      throw cannotHold(this.name, value, `expected an integer from ${this.min} to ${this.max}`);
    }
    return n;
  }

  parseFillValue(json: JsonValue, path: JsonPath): bigint {
    const n = jsonIntegerToBigInt(json);
    if (n === undefined || n < this.min || n > this.max) {
      throw new MetadataError(
        path,
        `expected an integer from ${this.min} to ${this.max} for a ${this.name} fill value, got ${describeJson(json)}`,
      );
    }
    return n;
  }

  fillValueToJson(value: bigint): JsonValue {
    return bigIntToJson(value);
  }

  fromBytes(bytes: Uint8Array, length: number, littleEndian: boolean): A {
    checkByteLength(bytes, length, 8, this.name);
    return typedFromBytes(this.Ctor, bytes, length, littleEndian);
  }

  toBytes(data: A, littleEndian: boolean): Uint8Array {
    return typedToBytes(data, 8, littleEndian);
  }

  toJSON(): string | ExtensionObject {
    return this.name;
  }
}
