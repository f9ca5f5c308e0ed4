/**
 * NumPy dtype strings (`<f8`, `|S3`, `<M8[10s]`) and the Zarr v3 data types they map to.
 *
 * | npy | Zarr v3 |
 * |---|---|
 * | `|b1` | `bool` |
 * | `i1` `i2` `i4` `i8`, `u1` … `u8` (either byte order) | `int8` … `int64`, `uint8` … `uint64` |
 * | `f2` `f4` `f8` | `float16` `float32` `float64` |
 * | `c8` `c16` | `complex64` `complex128` |
 * | `M8[<scale><unit>]`, `m8[…]` | `numpy.datetime64` / `numpy.timedelta64` `{unit, scale_factor}` |
 * | `U<n>` | `fixed_length_utf32 {length_bytes: 4n}` |
 * | `S<n>`, `V<n>` | `r<8n>` |
 */
import { type DataType, type ExtensionObject, ZarrError } from "@zarr/spec";

/** A parsed dtype string. */
export interface NpyDescr {
  /** `<`, `>` or `|` (`=` is read as the machine order, little endian). */
  byteOrder: "<" | ">" | "|";
  /** NumPy kind character: b i u f c M m U S V. */
  kind: string;
  /** The number after the kind: bytes per element, or characters for `U`. */
  count: number;
  /** Time unit of `M`/`m` (`"generic"` when absent). */
  unit?: string;
  /** Time scale factor of `M`/`m` (the 10 of `M8[10s]`). */
  scale?: number;
  /** Bytes per element. */
  itemSize: number;
}

const DESCR = /^([<>|=])([biufcMmUSaVO])(\d+)(?:\[(\d*)([A-Za-zμ]+)\])?$/;

function unsupported(fileName: string, message: string): never {
  throw new ZarrError("UNSUPPORTED", `Cannot read "${fileName}": ${message}`);
}

/** Parses a dtype string, or throws naming the file. */
export function parseDescr(descr: string, fileName: string): NpyDescr {
  const m = DESCR.exec(descr);
  if (m === null) {
    if (/^[<>|=]?O/.test(descr)) unsupported(fileName, "object arrays (pickled Python objects) are not supported");
    throw new ZarrError("INVALID_ARGUMENT", `Malformed .npy file "${fileName}": unknown dtype ${JSON.stringify(descr)}`);
  }
  const order = m[1] === "=" ? "<" : (m[1] as "<" | ">" | "|");
  const kind = m[2] === "a" ? "S" : m[2];
  const count = Number(m[3]);
  if (kind === "O") unsupported(fileName, "object arrays (pickled Python objects) are not supported");
  const hasUnit = m[5] !== undefined;
  if (hasUnit && kind !== "M" && kind !== "m") {
    throw new ZarrError("INVALID_ARGUMENT", `Malformed .npy file "${fileName}": unknown dtype ${JSON.stringify(descr)}`);
  }
  const out: NpyDescr = { byteOrder: order, kind, count, itemSize: kind === "U" ? count * 4 : count };
  if (kind === "M" || kind === "m") {
    out.unit = m[5] ?? "generic";
    out.scale = m[4] === undefined || m[4] === "" ? 1 : Number(m[4]);
  }
  return out;
}

const INT_NAMES: Record<string, Record<number, string>> = {
  i: { 1: "int8", 2: "int16", 4: "int32", 8: "int64" },
  u: { 1: "uint8", 2: "uint16", 4: "uint32", 8: "uint64" },
  f: { 2: "float16", 4: "float32", 8: "float64" },
  c: { 8: "complex64", 16: "complex128" },
};

/** The Zarr v3 data type (as metadata) a dtype maps to; throws `UNSUPPORTED` for the rest. */
export function descrToDataTypeDefinition(d: NpyDescr, descr: string, fileName: string): ExtensionObject {
  const bad = (why: string): never => unsupported(fileName, `the dtype ${JSON.stringify(descr)} ${why}`);
  switch (d.kind) {
    case "b":
      if (d.count !== 1) bad("is not a 1-byte boolean");
      return { name: "bool", configuration: {} };
    case "i":
    case "u":
    case "f":
    case "c": {
      const name = INT_NAMES[d.kind][d.count];
      if (name === undefined) bad("has no Zarr v3 equivalent");
      return { name, configuration: {} };
    }
    case "M":
    case "m":
      if (d.count !== 8) bad("is not an 8-byte time type");
      return {
        name: d.kind === "M" ? "numpy.datetime64" : "numpy.timedelta64",
        configuration: { unit: d.unit as string, scale_factor: d.scale as number },
      };
    case "U":
      return { name: "fixed_length_utf32", configuration: { length_bytes: d.count * 4 } };
    case "S":
    case "V":
      if (d.count === 0) bad("has zero-size elements (Zarr raw types need at least one byte)");
      return { name: `r${d.count * 8}`, configuration: {} };
  }
  return bad("is not supported");
}

/**
 * The dtype string a Zarr data type is written as (little endian, C order), for types
 * with a fixed size. `string` and `bytes` arrays depend on their contents and are
 * handled by the writer; other types throw `UNSUPPORTED`.
 */
export function dataTypeToDescr(dataType: DataType): string {
  const { name, kind } = dataType;
  const size = dataType.byteSize;
  switch (kind) {
    case "bool":
      return "|b1";
    case "int":
    case "uint":
    case "float":
    case "complex": {
      const letter = kind === "int" ? "i" : kind === "uint" ? "u" : kind === "float" ? "f" : "c";
      if (size === undefined || INT_NAMES[letter][size] === undefined) break;
      return `${size === 1 ? "|" : "<"}${letter}${size}`;
    }
    case "datetime":
    case "timedelta": {
      const letter = kind === "datetime" ? "M" : "m";
      const unit = String(dataType.configuration.unit);
      const scale = Number(dataType.configuration.scale_factor ?? 1);
      if (unit === "generic") return `<${letter}8`;
      return `<${letter}8[${scale === 1 ? "" : scale}${unit === "μs" ? "us" : unit}]`;
    }
    case "raw":
      if (size !== undefined) return `|V${size}`;
      break;
    case "string":
      if (name === "fixed_length_utf32" && size !== undefined) return `<U${size / 4}`;
      break;
  }
  throw new ZarrError("UNSUPPORTED", `Arrays of data type "${name}" cannot be written as .npy`);
}
