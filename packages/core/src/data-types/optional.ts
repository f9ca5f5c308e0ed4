/**
 * `optional` (zarr-extensions: data-types/optional, as zarrs defines it): a value of an
 * underlying data type, or missing. Its metadata form is `{"name": "optional",
 * "configuration": {"name": <inner type>, "configuration"?: {...}}}`; its fill value is
 * `null` (missing) or a one-element list holding a fill value of the inner type (`[42]`).
 * Arrays of it are stored with the `optional` codec (codecs/optional.ts), which encodes the
 * validity mask and the valid elements separately.
 *
 * In memory an element is the inner type's scalar or `null`, held in a plain JavaScript
 * array: `get` returns `(number | null)[]` for an optional `float32`. Registries load this
 * module the first time an array uses the type.
 */
import {
  type DataType,
  type DataTypeEntry,
  describeJson,
  type ExtensionObject,
  formatJsonPath,
  type JsonObject,
  type JsonPath,
  type JsonValue,
  MetadataError,
  type Scalar,
  ZarrError,
} from "@zarr/spec";
import { type DataTypeEntries, loadEntries } from "./load-entries.js";
import { CORE_PACKAGE } from "./numeric-parts.js";

/** The inner types an `optional` may wrap here: fixed-size numbers and booleans. */
const INNER_NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"];

/** An optional element: the inner type's value, or `null` when missing. */
export type OptionalScalar = Scalar | null;

/** The `optional` data type around `inner`. */
export class OptionalDataType implements DataType<OptionalScalar, OptionalScalar[]> {
  readonly kind = "optional";
  readonly byteSize = undefined;
  /** The inner type's: the `optional` codec's data chain encodes inner elements. */
  readonly componentSize: number;
  readonly width = 1;
  readonly configuration: { readonly [key: string]: JsonValue };

  constructor(
    readonly inner: DataType,
    /** As the metadata names it: `optional`, or zarrs' alias `zarrs.optional`. */
    readonly name: string = "optional",
  ) {
    this.componentSize = inner.componentSize;
    const def = inner.toJSON();
    this.configuration =
      typeof def === "string" ? { name: def } : Object.keys(def.configuration).length === 0 ? { name: def.name } : { name: def.name, configuration: def.configuration };
  }

  /** Every element missing (`null`). */
  allocate(length: number): OptionalScalar[] {
    return new Array<OptionalScalar>(length).fill(null);
  }

  fill(target: OptionalScalar[], value: OptionalScalar, start: number, end: number): void {
    target.fill(value, start, end);
  }

  getItem(source: OptionalScalar[], index: number): OptionalScalar {
    return source[index];
  }

  setItem(target: OptionalScalar[], index: number, value: OptionalScalar): void {
    target[index] = value;
  }

  /** `null` equals only `null`; values compare as `Object.is` does (NaN equals NaN). */
  allEqual(source: OptionalScalar[], value: OptionalScalar, start: number, end: number): boolean {
    for (let i = start; i < end; i++) if (!Object.is(source[i], value)) return false;
    return true;
  }

  /** `null` (or `undefined`) is missing; anything else must be a value of the inner type. */
  coerce(value: unknown): OptionalScalar {
    if (value === null || value === undefined) return null;
    return this.inner.coerce(value);
  }

  /** `null`, or `[v]` with `v` a fill value of the inner type. */
  parseFillValue(json: JsonValue, path: JsonPath): OptionalScalar {
    if (json === null) return null;
    if (!Array.isArray(json) || json.length !== 1) {
      throw new MetadataError(path, `expected null (missing) or a one-element list holding a ${this.inner.name} fill value, got ${describeJson(json)}`);
    }
    return this.inner.parseFillValue(json[0], [...path, 0]);
  }

  fillValueToJson(value: OptionalScalar): JsonValue {
    return value === null ? null : [this.inner.fillValueToJson(value)];
  }

  toJSON(): ExtensionObject {
    return { name: this.name, configuration: { ...this.configuration } };
  }
}

/**
 * The `optional` entry (alias `zarrs.optional`): wraps a fixed-size number or boolean type,
 * those of `innerTypes` (entries of other types are ignored). `optionalDataType`
 * (extensions) is the one over the built-in types.
 */
export function optionalEntry(innerTypes: readonly DataTypeEntry[]): DataTypeEntry {
  const inner = new Map(innerTypes.filter((e) => INNER_NAMES.includes(e.name)).map((e) => [e.name, e]));
  return {
    type: "data_type",
    name: "optional",
    aliases: ["zarrs.optional"],
    package: CORE_PACKAGE,
    fromConfig(name: string, configuration: JsonObject, path: JsonPath): DataType {
      const cpath = [...path, "configuration"];
      for (const k of Object.keys(configuration)) {
        if (k !== "name" && k !== "configuration") throw new MetadataError([...cpath, k], `unknown configuration field "${k}"`);
      }
      const innerName = configuration.name;
      if (typeof innerName !== "string") {
        throw new MetadataError([...cpath, "name"], `expected the name of the underlying data type, got ${describeJson(innerName)}`);
      }
      const innerConfig = configuration.configuration ?? {};
      if (typeof innerConfig !== "object" || innerConfig === null || Array.isArray(innerConfig)) {
        throw new MetadataError([...cpath, "configuration"], `expected an object, got ${describeJson(innerConfig)}`);
      }
      const entry = inner.get(innerName);
      if (entry === undefined) {
        const supported = [...inner.keys()].join(", ");
        const where = formatJsonPath([...cpath, "name"]);
        throw new ZarrError("UNSUPPORTED", `An optional ${innerName} (at ${where}) is not supported: the underlying type must be one of ${supported}`, {
          jsonPath: where,
        });
      }
      return new OptionalDataType(entry.fromConfig(innerName, innerConfig, [...cpath]), name);
    },
  };
}

/**
 * The `optional` entry over the types of `entries` (a registry's built-in list; the lazy
 * ones it may wrap are loaded here): how a lazy `optional` entry gets them without this
 * module importing their modules (see load-entries.ts).
 */
export async function loadOptionalEntry(entries: DataTypeEntries): Promise<DataTypeEntry> {
  return optionalEntry(await loadEntries(entries, (name) => INNER_NAMES.includes(name)));
}

/** True when `dataType` is an `optional` type (its in-memory elements may be `null`). */
export function isOptionalDataType(dataType: DataType | { kind: string }): dataType is OptionalDataType {
  return dataType.kind === "optional" && "inner" in dataType;
}
