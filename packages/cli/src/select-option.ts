/**
 * `zarr get --select`: a NumPy-style selection by position (`"0:10, ::2, 5"`), or one by
 * dimension name (`"time=0:10, lat=5"`, like xarray's `isel`), each entry then written as
 * for one dimension. Names map onto the array's `dimension_names` through @zarr/core's
 * named selections, which refuse a name the array does not have, naming its dimensions.
 */
import { type NamedSelection, parseSelection, type Selection, ZarrError } from "@zarr/core";

/**
 * `NAME=` at the start of an entry: a name holds no `,`, `=`, `[`, `]` or `:`, so it never
 * matches inside a bracketed list (`[1, 4]`) or a slice (`0:10`).
 */
const NAMED_ENTRY = /(^|,)\s*([^,=[\]:]+?)\s*=/g;

/**
 * The selection `text` stands for: positional (`parseSelection`), or by name when its
 * entries start with `NAME=`. Every entry of a selection by name needs a name and selects
 * one dimension (no `...`); a name given twice is refused. Bad text throws `INVALID_SELECTION`.
 *
 * @example
 * ```ts
 * parseSelectOption("0:10, 5");          // [slice(0, 10), 5]
 * parseSelectOption("time=0:10, lat=5"); // { time: slice(0, 10), lat: 5 }
 * ```
 */
export function parseSelectOption(text: string): Selection | NamedSelection {
  const names = [...text.matchAll(NAMED_ENTRY)].map((m) => m[2]);
  if (names.length === 0) return parseSelection(text);
  const empty = /(?:^|,)\s*([^,=[\]:]+?)\s*=\s*(?=,|$)/.exec(text);
  if (empty !== null) throw new ZarrError("INVALID_SELECTION", `Empty selection of dimension "${empty[1]}" in "${text}"`);
  // What remains without the names is a positional selection of one entry per name.
  const entries = parseSelection(text.replace(NAMED_ENTRY, "$1"));
  if (entries.length !== names.length) {
    throw new ZarrError("INVALID_SELECTION", `Selection "${text}" mixes entries by name and by position: give every entry a name (NAME=SEL) or none`);
  }
  const out: Record<string, Selection[number]> = {};
  for (const [i, name] of names.entries()) {
    if (Object.hasOwn(out, name)) throw new ZarrError("INVALID_SELECTION", `Selection "${text}" names dimension "${name}" twice`);
    if (entries[i] === "...") throw new ZarrError("INVALID_SELECTION", `"..." cannot be the selection of dimension "${name}" in "${text}"`);
    out[name] = entries[i];
  }
  return out as NamedSelection;
}
