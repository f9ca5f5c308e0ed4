/**
 * pcodec's number types: the byte that names each in a standalone stream, its width,
 * and how its latents (order-preserving unsigned integers) map back to values.
 */

/** A pcodec number type, named as pcodec names it. */
export type PcoNumberType = "u8" | "i8" | "u16" | "i16" | "f16" | "u32" | "i32" | "f32" | "u64" | "i64" | "f64";

/** How a number type behaves. */
export interface NumberTypeInfo {
  readonly name: PcoNumberType;
  /** The standalone format's byte for the type. */
  readonly byte: number;
  /** Bits per number, and so per latent. */
  readonly bits: 8 | 16 | 32 | 64;
  readonly kind: "uint" | "int" | "float";
  /** For floats: mantissa bits without the implicit one (10, 23, 52). */
  readonly precisionBits: number;
}

const TYPES: readonly NumberTypeInfo[] = [
  { name: "u32", byte: 1, bits: 32, kind: "uint", precisionBits: 0 },
  { name: "u64", byte: 2, bits: 64, kind: "uint", precisionBits: 0 },
  { name: "i32", byte: 3, bits: 32, kind: "int", precisionBits: 0 },
  { name: "i64", byte: 4, bits: 64, kind: "int", precisionBits: 0 },
  { name: "f32", byte: 5, bits: 32, kind: "float", precisionBits: 23 },
  { name: "f64", byte: 6, bits: 64, kind: "float", precisionBits: 52 },
  { name: "u16", byte: 7, bits: 16, kind: "uint", precisionBits: 0 },
  { name: "i16", byte: 8, bits: 16, kind: "int", precisionBits: 0 },
  { name: "f16", byte: 9, bits: 16, kind: "float", precisionBits: 10 },
  { name: "u8", byte: 10, bits: 8, kind: "uint", precisionBits: 0 },
  { name: "i8", byte: 11, bits: 8, kind: "int", precisionBits: 0 },
];

/** The type a standalone stream names with `byte`, or `undefined` for an unknown byte. */
export function numberTypeFromByte(byte: number): NumberTypeInfo | undefined {
  return TYPES.find((t) => t.byte === byte);
}

/** The type called `name`. */
export function numberTypeInfo(name: PcoNumberType): NumberTypeInfo {
  const info = TYPES.find((t) => t.name === name);
  if (!info) throw new Error(`unknown pcodec number type ${name}`);
  return info;
}

/** The Zarr data type names that pcodec can hold, with their pcodec number type. */
export const ZARR_DATA_TYPES: Readonly<Record<string, PcoNumberType>> = {
  uint8: "u8",
  int8: "i8",
  uint16: "u16",
  int16: "i16",
  float16: "f16",
  uint32: "u32",
  int32: "i32",
  float32: "f32",
  uint64: "u64",
  int64: "i64",
  float64: "f64",
};
