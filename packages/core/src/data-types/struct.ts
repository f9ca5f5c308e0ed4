/**
 * `struct` (legacy alias `structured`): records with named fields, NumPy's structured
 * dtypes (Zarr v2 `[["x", "<f4"], ["z", "<i2", [2, 2]], ["rec", [["a", "|u1"]]]]`).
 *
 * Configuration: `{"fields": [{"name": "x", "data_type": "float32"},
 * {"name": "z", "data_type": "int16", "shape": [2, 2]}, {"name": "rec", "data_type":
 * {"name": "struct", "configuration": {...}}}]}`; the legacy `structured` form
 * `{"fields": [["x", "float32"], ...]}` is read too. A field's `shape` (a @zarr addition
 * for NumPy's sub-array fields) makes it hold that many elements. Field data types are the
 * built-in ones of @zarr/core (structs nest).
 *
 * Binary form: the fields' binary forms packed one after the other in declaration order
 * (NumPy's packed layout; padding appears as fields named `""`), each in the byte order
 * the `bytes` codec asks for.
 *
 * In memory: a plain array of objects, one per element, keyed by field name; a sub-array
 * field holds a flat array of its elements in C order, a nested struct a nested object;
 * padding fields are left out. Field values are the field type's scalars (`bigint` for
 * 64-bit integers, `[re, im]` for complex, `Uint8Array` for bytes). Treat element objects
 * as immutable: `fill` puts the same object in every slot.
 *
 * Fill value: an object keyed by field name (missing fields are zero), a list of field
 * values in order, or base64 of the packed little-endian record.
 */
import {
  type DataType,
  type DataTypeEntry,decodeBase64, 
  describeJson,
  type ExtensionObject,
  isJsonObject,
  type JsonObject,
  type JsonPath,
  type JsonValue,
  MetadataError,
  type Scalar,
  type StructValue
} from "@zarr/spec";
import { elementMemoryBytes, SLOT_BYTES } from "../up-front.js";
import { expectOnlyFields } from "./config-fields.js";
import { type DataTypeEntries, loadEntries } from "./load-entries.js";
import { CORE_PACKAGE, cannotHold, checkByteLength } from "./numeric-parts.js";
import { sameValue } from "./object.js";

/** One field of a struct: where it sits in the packed record and what it holds. */
export interface StructField {
  /** The field's name (`""` for padding, which holds no value). */
  readonly name: string;
  readonly dataType: DataType;
  /** Sub-array shape (`[]` for a plain field). */
  readonly shape: readonly number[];
  /** Elements the field holds (the product of `shape`). */
  readonly count: number;
  /** Byte offset inside the packed record. */
  readonly offset: number;
  /** Bytes the field takes (`count × dataType.byteSize`). */
  readonly byteSize: number;
}

const MAX_DEPTH = 32;

/** Rough size of a small plain object (a struct element) before its fields. */
const OBJECT_BYTES = 32;

/** The `struct` data type. */
export class StructDataType implements DataType<StructValue, StructValue[]> {
  readonly kind = "struct";
  readonly width = 1;
  readonly byteSize: number;
  readonly componentSize: number;
  readonly configuration: { readonly fields: JsonValue[] };
  /**
   * About how many bytes one element takes in memory once decoded (`limits.ts` checks it
   * against `maxChunkBytes`): sub-array fields become JavaScript arrays of one slot per element.
   */
  readonly elementMemoryBytes: number;
  /** The all-zero element, built on first use (see `zero`). */
  private zeroValue: StructValue | undefined;

  constructor(
    readonly name: string,
    readonly fields: readonly StructField[],
    fieldsJson: JsonValue[],
  ) {
    let size = 0;
    let component = 1;
    for (const f of fields) {
      size += f.byteSize;
      component = Math.max(component, f.dataType.componentSize);
    }
    this.byteSize = size;
    this.componentSize = component;
    this.configuration = { fields: fieldsJson };
    let memory = OBJECT_BYTES;
    for (const f of fields) {
      if (f.name === "") continue;
      const item = Math.max(SLOT_BYTES, elementMemoryBytes(f.dataType));
      memory += f.shape.length === 0 ? item : OBJECT_BYTES + f.count * item;
    }
    this.elementMemoryBytes = memory;
  }

  /** What makes an element large, for the error of `limits.ts`: its largest sub-array field. */
  get elementMemoryDetail(): string {
    const largest = [...this.fields].sort((a, b) => b.count - a.count)[0];
    return largest !== undefined && largest.count > 1
      ? ` (its field "${largest.name}" holds ${largest.count} elements, ${largest.byteSize} bytes stored)`
      : "";
  }

  /**
   * The all-zero element. Built on first use, not when the type is made: a sub-array
   * field holds one JavaScript slot per element, and readers check the element's size
   * against their limits (`maxChunkBytes`) before anything materialises one.
   */
  private get zero(): StructValue {
    if (this.zeroValue !== undefined) return this.zeroValue;
    const zero: StructValue = {};
    for (const f of this.fields) {
      if (f.name === "") continue;
      const z = f.dataType.getItem(f.dataType.allocate(1), 0);
      zero[f.name] = f.shape.length === 0 ? z : (new Array(f.count).fill(z) as unknown as Scalar);
    }
    this.zeroValue = zero;
    return zero;
  }

  allocate(length: number): StructValue[] {
    return new Array<StructValue>(length).fill(this.zero);
  }

  fill(target: StructValue[], value: StructValue, start: number, end: number): void {
    target.fill(value, start, end);
  }

  getItem(source: StructValue[], index: number): StructValue {
    return source[index];
  }

  setItem(target: StructValue[], index: number, value: StructValue): void {
    target[index] = value;
  }

  allEqual(source: StructValue[], value: StructValue, start: number, end: number): boolean {
    for (let i = start; i < end; i++) {
      const s = source[i];
      if (s !== value && !sameValue(s, value)) return false;
    }
    return true;
  }

  /**
   * An object keyed by field name (every named field present; sub-array fields as
   * array-likes of `count` values) or an array of field values in order; each value is
   * coerced by its field's type.
   */
  coerce(value: unknown): StructValue {
    const byOrder = Array.isArray(value);
    if (!byOrder && (typeof value !== "object" || value === null || value instanceof Uint8Array)) {
      throw cannotHold(this.name, value, "expected an object keyed by field name");
    }
    const named = this.fields.filter((f) => f.name !== "");
    if (byOrder && (value as unknown[]).length !== named.length) {
      throw cannotHold(this.name, value, `expected ${named.length} field values`);
    }
    const out: StructValue = {};
    named.forEach((f, i) => {
      const v = byOrder ? (value as unknown[])[i] : (value as Record<string, unknown>)[f.name];
      if (v === undefined) throw cannotHold(this.name, value, `the field "${f.name}" is missing`);
      out[f.name] = coerceField(f, v, this.name);
    });
    return out;
  }

  parseFillValue(json: JsonValue, path: JsonPath): StructValue {
    if (typeof json === "string") {
      const bytes = decodeBase64(json);
      if (bytes === undefined || bytes.length !== this.byteSize) {
        throw new MetadataError(path, `expected base64 of ${this.byteSize} bytes for a ${this.name} fill value`);
      }
      return this.fromBytes(bytes.slice(), 1, true)[0];
    }
    const byOrder = Array.isArray(json);
    if (!byOrder && !isJsonObject(json)) {
      throw new MetadataError(path, `expected an object keyed by field name for a ${this.name} fill value, got ${describeJson(json)}`);
    }
    const named = this.fields.filter((f) => f.name !== "");
    if (byOrder && json.length !== named.length) {
      throw new MetadataError(path, `expected ${named.length} field values, got ${json.length}`);
    }
    const out: StructValue = {};
    named.forEach((f, i) => {
      const key = byOrder ? i : f.name;
      const v = byOrder ? (json as JsonValue[])[i] : (json as JsonObject)[f.name];
      if (v === undefined) {
        out[f.name] = this.zero[f.name];
        return;
      }
      if (f.shape.length === 0) {
        out[f.name] = f.dataType.parseFillValue(v, [...path, key]);
        return;
      }
      if (!Array.isArray(v) || v.length !== f.count) {
        throw new MetadataError([...path, key], `expected a list of ${f.count} values for the sub-array field "${f.name}"`);
      }
      out[f.name] = v.map((x, k) => f.dataType.parseFillValue(x, [...path, key, k])) as unknown as Scalar;
    });
    return out;
  }

  fillValueToJson(value: StructValue): JsonValue {
    const out: JsonObject = {};
    for (const f of this.fields) {
      if (f.name === "") continue;
      const v = value[f.name];
      out[f.name] = f.shape.length === 0 ? f.dataType.fillValueToJson(v) : (v as unknown as Scalar[]).map((x) => f.dataType.fillValueToJson(x));
    }
    return out;
  }

  fromBytes(bytes: Uint8Array, length: number, littleEndian: boolean): StructValue[] {
    checkByteLength(bytes, length, this.byteSize, this.name);
    const out = new Array<StructValue>(length);
    for (let i = 0; i < length; i++) out[i] = {};
    const stride = this.byteSize;
    for (const f of this.fields) {
      if (f.name === "") continue;
      const fb = f.byteSize;
      // Gather the field's bytes of every record into one column, decode it in one call.
      const column = new Uint8Array(length * fb);
      for (let i = 0, s = f.offset, d = 0; i < length; i++, s += stride, d += fb) {
        for (let j = 0; j < fb; j++) column[d + j] = bytes[s + j];
      }
      const dt = f.dataType;
      const data = (dt.fromBytes as NonNullable<DataType["fromBytes"]>).call(dt, column, length * f.count, littleEndian);
      if (f.shape.length === 0) {
        for (let i = 0; i < length; i++) out[i][f.name] = dt.getItem(data, i);
      } else {
        const c = f.count;
        for (let i = 0; i < length; i++) {
          const items = new Array<Scalar>(c);
          for (let k = 0; k < c; k++) items[k] = dt.getItem(data, i * c + k);
          out[i][f.name] = items as unknown as Scalar;
        }
      }
    }
    return out;
  }

  toBytes(data: StructValue[], littleEndian: boolean): Uint8Array {
    const length = data.length;
    const stride = this.byteSize;
    const out = new Uint8Array(length * stride);
    for (const f of this.fields) {
      if (f.name === "") continue;
      const dt = f.dataType;
      const c = f.count;
      const column = dt.allocate(length * c);
      for (let i = 0; i < length; i++) {
        const record = data[i];
        const v = record === null || typeof record !== "object" ? undefined : record[f.name];
        if (v === undefined) throw cannotHold(this.name, record, `element ${i} has no field "${f.name}"`);
        const value = coerceField(f, v, this.name);
        if (f.shape.length === 0) dt.setItem(column, i, value);
        else {
          const items = value as unknown as Scalar[];
          for (let k = 0; k < c; k++) dt.setItem(column, i * c + k, items[k]);
        }
      }
      const bytes = (dt.toBytes as NonNullable<DataType["toBytes"]>).call(dt, column, littleEndian);
      const fb = f.byteSize;
      for (let i = 0, s = 0, d = f.offset; i < length; i++, s += fb, d += stride) {
        for (let j = 0; j < fb; j++) out[d + j] = bytes[s + j];
      }
    }
    return out;
  }

  toJSON(): string | ExtensionObject {
    return { name: this.name, configuration: { fields: this.configuration.fields } };
  }
}

function coerceField(f: StructField, v: unknown, typeName: string): Scalar {
  if (f.shape.length === 0) return f.dataType.coerce(v);
  const items = v as ArrayLike<unknown>;
  if (items === null || typeof items !== "object" || typeof items.length !== "number" || items.length !== f.count) {
    throw cannotHold(typeName, v, `the sub-array field "${f.name}" needs ${f.count} values`);
  }
  const out = new Array<Scalar>(f.count);
  for (let k = 0; k < f.count; k++) out[k] = f.dataType.coerce(items[k]);
  return out as unknown as Scalar;
}

function resolveFieldType(types: readonly DataTypeEntry[], def: JsonValue, path: JsonPath, depth: number): DataType {
  let name: string;
  let configuration: JsonObject = {};
  if (typeof def === "string") name = def;
  else if (isJsonObject(def) && typeof def.name === "string") {
    name = def.name;
    if (def.configuration !== undefined) {
      if (!isJsonObject(def.configuration)) throw new MetadataError([...path, "configuration"], "expected an object");
      configuration = def.configuration;
    }
  } else {
    throw new MetadataError(path, `expected a data type name or {"name", "configuration"}, got ${describeJson(def)}`);
  }
  if (name === "struct" || name === "structured") return structFromConfig(types, name, configuration, path, depth + 1);
  const entry = types.find((e) => e.name === name || e.aliases?.includes(name) || e.matches?.(name));
  if (entry === undefined) {
    throw new MetadataError(path, `the struct field data type "${name}" is not a built-in data type of @zarr/core`);
  }
  const dt = entry.fromConfig(name, configuration, path);
  if (dt.byteSize === undefined || dt.fromBytes === undefined || dt.toBytes === undefined) {
    throw new MetadataError(path, `a struct field needs a fixed-size data type, not "${name}"`);
  }
  return dt;
}

function structFromConfig(types: readonly DataTypeEntry[], name: string, configuration: JsonObject, path: JsonPath, depth: number): StructDataType {
  if (depth > MAX_DEPTH) throw new MetadataError(path, `structs nested deeper than ${MAX_DEPTH} levels`);
  expectOnlyFields(name, configuration, ["fields"], path);
  const list = configuration.fields;
  const listPath = [...path, "configuration", "fields"];
  if (!Array.isArray(list) || list.length === 0) throw new MetadataError(listPath, "expected a non-empty list of fields");
  const fields: StructField[] = [];
  const seen = new Set<string>();
  let offset = 0;
  list.forEach((item, i) => {
    const at = [...listPath, i];
    let fieldName: JsonValue | undefined;
    let type: JsonValue | undefined;
    let shape: JsonValue | undefined;
    if (Array.isArray(item)) [fieldName, type, shape] = item;
    else if (isJsonObject(item)) {
      for (const k of Object.keys(item)) {
        if (k !== "name" && k !== "data_type" && k !== "shape") throw new MetadataError([...at, k], `unknown field "${k}"`);
      }
      ({ name: fieldName, data_type: type, shape } = item);
    } else throw new MetadataError(at, `expected {"name", "data_type"} or [name, data_type], got ${describeJson(item)}`);
    if (typeof fieldName !== "string") throw new MetadataError(at, "the field name must be a string");
    if (fieldName !== "" && seen.has(fieldName)) throw new MetadataError(at, `the field name "${fieldName}" appears twice`);
    seen.add(fieldName);
    if (type === undefined) throw new MetadataError(at, `the field "${fieldName}" has no data type`);
    const dataType = resolveFieldType(types, type, Array.isArray(item) ? [...at, 1] : [...at, "data_type"], depth);
    let dims: number[] = [];
    if (shape !== undefined && shape !== null) {
      if (!Array.isArray(shape) || !shape.every((s) => typeof s === "number" && Number.isSafeInteger(s) && s >= 0)) {
        throw new MetadataError(at, "a sub-array shape must be a list of non-negative integers");
      }
      dims = shape as number[];
    }
    const count = dims.reduce((a, b) => a * b, 1);
    const byteSize = count * (dataType.byteSize as number);
    if (!Number.isSafeInteger(offset + byteSize) || offset + byteSize > 2 ** 31) {
      throw new MetadataError(at, "the record would be larger than 2 GiB");
    }
    fields.push({ name: fieldName, dataType, shape: dims, count, offset, byteSize });
    offset += byteSize;
  });
  return new StructDataType(name, fields, list);
}

/**
 * The `struct` entry (alias `structured`: records of named fixed-size fields) whose fields
 * may be of the data types of `fieldTypes`. `structDataType` (extensions) is the one over
 * every built-in type.
 */
export function structEntry(fieldTypes: readonly DataTypeEntry[]): DataTypeEntry {
  return {
    type: "data_type",
    name: "struct",
    aliases: ["structured"],
    package: CORE_PACKAGE,
    fromConfig: (name: string, configuration: JsonObject, path: JsonPath): DataType => structFromConfig(fieldTypes, name, configuration, path, 0),
  };
}

/**
 * The `struct` entry over the data types of `entries` (a registry's built-in list; lazy
 * ones are loaded here), `struct` and `object` left out: how a registry's lazy `struct`
 * entry gets its field types without this module importing theirs (see load-entries.ts).
 */
export async function loadStructEntry(entries: DataTypeEntries): Promise<DataTypeEntry> {
  return structEntry(await loadEntries(entries, (name) => name !== "struct" && name !== "object"));
}
