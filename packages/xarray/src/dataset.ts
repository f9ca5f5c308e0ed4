/**
 * A Zarr group read the way xarray reads it: each child array is a variable with named
 * dimensions, the coordinates are picked out as xarray picks them, and the CF attributes
 * that describe how values are stored move from `attributes` to `encoding`.
 */

import { registry as fullRegistry } from "@zarr/all";
import { openGroup as coreOpenGroup, listChildren, open, type Registry, type ZarrArray, ZarrGroup } from "@zarr/core";
import type { JsonObject, JsonValue, Store } from "@zarr/spec";
import { ZarrError } from "@zarr/spec";
import { parseFillValueAttribute, rawV2FillValues } from "./fill-values.js";
import { isTimeUnits } from "./times.js";

/** One variable of a {@link Dataset}: a Zarr array with named dimensions and split attributes. */
export interface Variable {
  /** The array's name in its group. */
  readonly name: string;
  readonly array: ZarrArray;
  /** One name per dimension (v3 `dimension_names`, v2 `_ARRAY_DIMENSIONS`). */
  readonly dims: readonly string[];
  readonly shape: readonly number[];
  /** The attributes a user reads, without `_ARRAY_DIMENSIONS` and the CF encoding attributes. */
  readonly attributes: JsonObject;
  /**
   * What xarray keeps in `.encoding`: `scale_factor`, `add_offset`, `_FillValue`,
   * `missing_value`, `_Unsigned`, `dtype: "bool"`, `coordinates`, and `units`/`calendar`
   * of time variables. `_FillValue` is the value xarray masks (see the package README).
   */
  readonly encoding: JsonObject;
}

/** A group read as an xarray Dataset (see {@link openDataset}). */
export interface Dataset {
  readonly group: ZarrGroup;
  /** The group's attributes (without a global `coordinates` attribute, which names coordinates). */
  readonly attributes: JsonObject;
  /** Dimension sizes by name. */
  readonly dims: Readonly<Record<string, number>>;
  /** Every variable by name, coordinates and data variables alike. */
  readonly variables: Readonly<Record<string, Variable>>;
  /** Names of the coordinate variables. */
  readonly coords: readonly string[];
  /** Names of the data variables (the variables that are not coordinates). */
  readonly dataVars: readonly string[];
}

/** Options of {@link openDataset}. */
export interface OpenDatasetOptions {
  /**
   * Where codecs and formats are looked up. Default: the group's own registry when a group
   * is given, else @zarr/all's full registry (xarray writes Blosc-compressed Zarr v2 by
   * default, which @zarr/core alone cannot read).
   */
  registry?: Registry;
  /**
   * Mask the arrays' own `fill_value` rather than a `_FillValue` attribute: xarray's
   * `use_zarr_fill_value_as_mask`. Default: true for Zarr v2, false for v3, as xarray.
   */
  useZarrFillValueAsMask?: boolean;
  signal?: AbortSignal;
}

/** Attributes xarray moves from a variable's `attrs` to its `encoding` when decoding. */
const ENCODING_ATTRIBUTES = ["scale_factor", "add_offset", "_FillValue", "missing_value", "_Unsigned", "coordinates"];

function splitAttributes(
  array: ZarrArray,
  rawFill: JsonValue | undefined,
  useFillValue: boolean | undefined,
): { attributes: JsonObject; encoding: JsonObject } {
  const attributes: JsonObject = { ...array.attributes };
  const encoding: JsonObject = {};
  delete attributes._ARRAY_DIMENSIONS;
  for (const name of ENCODING_ATTRIBUTES) {
    if (name in attributes) {
      encoding[name] = attributes[name];
      delete attributes[name];
    }
  }
  if (useFillValue ?? array.zarrFormat === 2) {
    // xarray masks a v2 array's fill_value and ignores a _FillValue attribute (null: no fill value).
    delete encoding._FillValue;
    const none = array.zarrFormat === 2 && (rawFill === undefined || rawFill === null);
    if (!none) encoding._FillValue = fillAsJson(array.fillValue);
  } else if (encoding._FillValue !== undefined) {
    encoding._FillValue = parseFillValueAttribute(encoding._FillValue, array.dataType.kind === "float");
  }
  // xarray takes `dtype` only when it marks booleans stored as integers.
  if (attributes.dtype === "bool") {
    encoding.dtype = "bool";
    delete attributes.dtype;
  }
  if (isTimeUnits(attributes.units)) {
    encoding.units = attributes.units;
    delete attributes.units;
    if ("calendar" in attributes) {
      encoding.calendar = attributes.calendar;
      delete attributes.calendar;
    }
  }
  return { attributes, encoding };
}

/** A fill value (a scalar of the array's data type) as JSON; NaN stays a number. */
function fillAsJson(fill: unknown): JsonValue {
  if (typeof fill === "bigint") return Number(fill);
  if (typeof fill === "number" || typeof fill === "string" || typeof fill === "boolean") return fill;
  if (fill instanceof Uint8Array) return new TextDecoder().decode(fill);
  return null;
}

function dimensionsOf(array: ZarrArray): string[] {
  const names = array.dimensionNames ?? (array.attributes._ARRAY_DIMENSIONS as JsonValue[] | undefined);
  if (!Array.isArray(names) || names.length !== array.ndim || !names.every((n) => typeof n === "string")) {
    throw new ZarrError(
      "METADATA_INVALID",
      `The array "${array.path}" has no dimension names (Zarr v3 "dimension_names" or xarray's "_ARRAY_DIMENSIONS" attribute), which xarray needs to read it`,
      { key: array.path },
    );
  }
  return names as string[];
}

/**
 * Opens a group (the root of `location`, or `path` below it) as xarray's `open_zarr`
 * does: its child arrays become variables with dimension names (Zarr v3
 * `dimension_names`, v2 `_ARRAY_DIMENSIONS`); coordinates are the 1-D arrays named like
 * their dimension plus every variable named in a `coordinates` attribute; CF encoding
 * attributes move to each variable's `encoding`. Works on Zarr v2 and v3, consolidated
 * or not. Throws `METADATA_INVALID` for an array without dimension names or for two
 * arrays that disagree on a dimension's size.
 *
 * @example
 * ```ts
 * const ds = await openDataset(new FileSystemStore("era5.zarr"));
 * console.log(ds.dims, ds.coords, ds.variables.t2m.dims);
 * const t2m = await getDecoded(ds.variables.t2m); // scaled, masked floats
 * ```
 */
export async function openDataset(location: Store | ZarrGroup, path = "", options: OpenDatasetOptions = {}): Promise<Dataset> {
  const group =
    location instanceof ZarrGroup
      ? await coreOpenGroup(location, path, { ...(options.registry ? { registry: options.registry } : {}), signal: options.signal })
      : await coreOpenGroup(location, path, { registry: options.registry ?? fullRegistry, signal: options.signal });
  const entries = await listChildren(group, { signal: options.signal });
  const arrays: ZarrArray[] = [];
  for (const entry of entries) {
    if (entry.kind !== "array") continue;
    const node = await open(group, entry.name, { signal: options.signal });
    if (node.kind === "array") arrays.push(node);
  }
  arrays.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const rawFills = await rawV2FillValues(group.store, group.path, arrays);

  const variables: Record<string, Variable> = {};
  const dims: Record<string, number> = {};
  const coordNames = new Set<string>();
  for (const array of arrays) {
    const names = dimensionsOf(array);
    names.forEach((dim, i) => {
      const size = array.shape[i];
      if (dims[dim] !== undefined && dims[dim] !== size) {
        throw new ZarrError(
          "METADATA_INVALID",
          `Dimension "${dim}" has size ${dims[dim]} in one array and ${size} in "${array.path}"`,
          { key: array.path },
        );
      }
      dims[dim] = size;
    });
    const { attributes, encoding } = splitAttributes(array, rawFills.get(array.path), options.useZarrFillValueAsMask);
    variables[array.name] = { name: array.name, array, dims: names, shape: array.shape, attributes, encoding };
    if (names.length === 1 && names[0] === array.name) coordNames.add(array.name);
  }
  const listed = (value: JsonValue | undefined) => (typeof value === "string" ? value.split(/\s+/).filter((n) => n !== "") : []);
  const attributes: JsonObject = { ...group.attributes };
  const globalCoords = listed(attributes.coordinates);
  delete attributes.coordinates;
  for (const name of [...globalCoords, ...Object.values(variables).flatMap((v) => listed(v.encoding.coordinates))]) {
    if (name in variables) coordNames.add(name);
  }
  const names = Object.keys(variables);
  return {
    group,
    attributes,
    dims,
    variables,
    coords: names.filter((n) => coordNames.has(n)),
    dataVars: names.filter((n) => !coordNames.has(n)),
  };
}
