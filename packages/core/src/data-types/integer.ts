/**
 * Integer data types. Up to 32 bits the scalar is a JS number; `int64`/`uint64` use
 * bigint scalars and `BigInt64Array`/`BigUint64Array` storage so every value is exact.
 */
import { type DataType, describeJson, type ExtensionObject, type JsonPath, type JsonValue, MetadataError } from "@zarr/spec";
import { bigIntToJson, cannotHold, checkByteLength, jsonIntegerToBigInt, typedFromBytes, typedToBytes, type ViewConstructor } from "./numeric-parts.js";

/** Storage arrays of the integer types up to 32 bits. */
export type SmallIntArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array;

/** Storage arrays of the 64-bit integer types. */
export type BigIntArray = BigInt64Array | BigUint64Array;

/** What the integer types share: one typed array slot per element, bounds `[min, max]`. */
abstract class IntegerDataType<T extends number | bigint, A extends SmallIntArray | BigIntArray> implements DataType<T, A> {
  readonly configuration: { readonly [key: string]: JsonValue } = {};
  readonly byteSize: number;
  readonly componentSize: number;
  readonly width = 1;
  readonly bytesAreMemory = true;

  constructor(
    readonly name: string,
    protected readonly Ctor: ViewConstructor<A>,
    readonly kind: "int" | "uint" | "datetime" | "timedelta",
    readonly min: T,
    readonly max: T,
    /** What `coerce` accepts, for its error message. */
    private readonly accepts: string,
  ) {
    this.byteSize = this.componentSize = Ctor.BYTES_PER_ELEMENT;
  }

  /** The integer a JS value or JSON value stands for (range not checked), or undefined. */
  protected abstract integer(value: unknown): T | undefined;

  allocate(length: number): A {
    return new this.Ctor(length);
  }

  fill(target: A, value: T, start: number, end: number): void {
    (target as { fill(v: T, s: number, e: number): unknown }).fill(value, start, end);
  }

  getItem(source: A, index: number): T {
    return source[index] as T;
  }

  setItem(target: A, index: number, value: T): void {
    (target as unknown as T[])[index] = value;
  }

  allEqual(source: A, value: T, start: number, end: number): boolean {
    for (let i = start; i < end; i++) if (source[i] !== value) return false;
    return true;
  }

  private inRange(n: T | undefined): n is T {
    return n !== undefined && (typeof n === "bigint" || Number.isInteger(n)) && n >= this.min && n <= this.max;
  }

  coerce(value: unknown): T {
    const n = this.integer(value);
    if (n === undefined) throw cannotHold(this.name, value, this.accepts);
    if (!this.inRange(n)) throw cannotHold(this.name, value, `expected an integer from ${this.min} to ${this.max}`);
    return n;
  }

  parseFillValue(json: JsonValue, path: JsonPath): T {
    const n = this.integer(json);
    if (!this.inRange(n)) {
      throw new MetadataError(path, `expected an integer from ${this.min} to ${this.max} for a ${this.name} fill value, got ${describeJson(json)}`);
    }
    return n;
  }

  abstract fillValueToJson(value: T): JsonValue;

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

/** An integer type of at most 32 bits: `int8` … `uint32`. */
export class SmallIntDataType<A extends SmallIntArray> extends IntegerDataType<number, A> {
  declare readonly kind: "int" | "uint";

  constructor(name: string, Ctor: ViewConstructor<A>, signed: boolean) {
    const bits = Ctor.BYTES_PER_ELEMENT * 8;
    super(name, Ctor, signed ? "int" : "uint", signed ? -(2 ** (bits - 1)) : 0, signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1, "expected an integer");
  }

  protected integer(value: unknown): number | undefined {
    return typeof value === "number" ? value : typeof value === "bigint" ? Number(value) : undefined;
  }

  fillValueToJson(value: number): JsonValue {
    return value;
  }
}

/**
 * A 64-bit integer type with exact bigint scalars: `int64`, `uint64`, and (through
 * the same storage) the NumPy datetime types.
 */
export class BigIntDataType<A extends BigIntArray> extends IntegerDataType<bigint, A> {
  constructor(name: string, Ctor: ViewConstructor<A>, signed: boolean, kind?: "datetime" | "timedelta") {
    super(
      name,
      Ctor,
      kind ?? (signed ? "int" : "uint"),
      signed ? -(2n ** 63n) : 0n,
      signed ? 2n ** 63n - 1n : 2n ** 64n - 1n,
      "expected an integer (number or bigint)",
    );
  }

  protected integer(value: unknown): bigint | undefined {
    return jsonIntegerToBigInt(value as JsonValue);
  }

  fillValueToJson(value: bigint): JsonValue {
    return bigIntToJson(value);
  }
}
