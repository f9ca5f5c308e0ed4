/**
 * Selections by dimension name (`{ time: slice(0, 10), lat: 5 }`, like xarray's `isel`):
 * turned into the positional form on arrays whose metadata names their dimensions.
 * `get` and `set` load this module only when they are given such an object, so reads by
 * position never carry it.
 */
// Types only: a value import would move selection.js out of the first chunk of `get` bundles.
import type { DimSelection, Selection } from "./selection.js";
import { ZarrError } from "./up-front.js";

/**
 * A selection by dimension name: each key names a dimension (the array's
 * `dimension_names`) and holds what a positional selection would hold for it (an
 * integer, `slice(…)`, `null`, indices or a mask). Dimensions not named are selected whole.
 */
export type NamedSelection = { readonly [dimensionName: string]: DimSelection };

function invalid(message: string): never {
  throw new ZarrError("INVALID_SELECTION", message);
}

/** What this module needs of an array. */
interface Named {
  readonly path: string;
  readonly shape: readonly number[];
  readonly dimensionNames: readonly (string | null)[] | undefined;
}

/**
 * The positional selection `selection` (a {@link NamedSelection}) stands for on `array`.
 * Throws `INVALID_SELECTION` for anything else that is not an array, for a name the array
 * does not have (naming it), and on arrays without dimension names.
 */
export function positionalSelection(array: Named, selection: unknown): Selection {
  if (typeof selection !== "object" || selection === null || Array.isArray(selection) || ArrayBuffer.isView(selection)) {
    return invalid("A selection must be an array with one entry per dimension, or an object of dimension names");
  }
  const names = array.dimensionNames ?? [];
  const entries = Object.entries(selection as Record<string, unknown>);
  const kind = (selection as { kind?: unknown }).kind;
  // slice(…) and mask(…) are objects too: alone they are a one-dimension selection missing its array.
  if ((kind === "slice" || kind === "mask") && !names.includes("kind")) {
    invalid(`A ${kind}(…) selects one dimension: wrap the selection in an array, e.g. [${kind}(…)]`);
  }
  if (!names.some((n) => typeof n === "string")) {
    const keys = entries.map(([k]) => JSON.stringify(k)).join(", ");
    invalid(`Array "${array.path}" has no dimension names, so it cannot be selected by name (${keys}): select by position, with an array`);
  }
  const out: (DimSelection | null)[] = array.shape.map(() => null);
  const known = names.filter((n): n is string => typeof n === "string").map((n) => JSON.stringify(n));
  for (const [name, sel] of entries) {
    const d = names.indexOf(name);
    if (d < 0) invalid(`Unknown dimension name "${name}": the dimensions of "${array.path}" are named ${known.join(", ")}`);
    if (names.lastIndexOf(name) !== d) invalid(`Dimension name "${name}" names several dimensions of "${array.path}": select them by position`);
    if (sel === "...") invalid(`"..." cannot be the selection of dimension "${name}"`);
    out[d] = sel as DimSelection;
  }
  return out;
}
