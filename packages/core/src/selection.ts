/**
 * User-facing selections (NumPy-style, orthogonal) and their normalisation into one
 * resolved indexer per dimension.
 */
import { ZarrError } from "@zarr/spec";

/** A slice `start:stop:step`; `null` means the default for that position. */
export interface Slice {
  readonly kind: "slice";
  readonly start: number | null;
  readonly stop: number | null;
  readonly step: number | null;
}

/** A boolean mask over one dimension. */
export interface Mask {
  readonly kind: "mask";
  readonly values: ArrayLike<boolean | number>;
}

/** The ellipsis: as many full slices as needed. */
export const ELLIPSIS = "...";

/**
 * How one dimension is selected: an integer (the dimension is dropped), a slice, `null`
 * (the whole dimension), an array of integer indices (any order, repeats allowed for
 * reads), or a boolean mask (`boolean[]` or `mask(values)`).
 */
export type DimSelection = number | Slice | null | readonly number[] | Int32Array | Uint32Array | Float64Array | readonly boolean[] | Mask;

/** A selection: one entry per dimension, optionally one `"..."`; missing trailing dimensions are selected whole. */
export type Selection = ReadonlyArray<DimSelection | typeof ELLIPSIS>;

/**
 * Creates a slice like Python's `slice(start, stop, step)`: `slice(10)` is `:10`,
 * `slice(2, 10, 2)` is `2:10:2`, `slice(null, null, -1)` reverses.
 *
 * @example
 * ```ts
 * await get(arr, [slice(0, 7), 360, slice(null, null, 4)]);
 * ```
 */
export function slice(start?: number | null, stop?: number | null, step?: number | null): Slice {
  if (stop === undefined && step === undefined) return { kind: "slice", start: null, stop: start ?? null, step: null };
  return { kind: "slice", start: start ?? null, stop: stop ?? null, step: step ?? null };
}

/** Wraps a boolean mask (typed or plain) for one dimension. */
export function mask(values: ArrayLike<boolean | number>): Mask {
  return { kind: "mask", values };
}

/** A dimension resolved against its length. */
export type ResolvedDim =
  | { kind: "int"; index: number }
  | { kind: "range"; start: number; step: number; count: number }
  | { kind: "points"; indices: Float64Array };

/** Number of output positions a resolved dimension selects (1 for an integer). */
export function resolvedLength(d: ResolvedDim): number {
  return d.kind === "int" ? 1 : d.kind === "range" ? d.count : d.indices.length;
}

export function invalid(message: string): never {
  throw new ZarrError("INVALID_SELECTION", message);
}

function resolveSlice(s: Slice, length: number, dim: number): ResolvedDim {
  const step = s.step ?? 1;
  if (!Number.isInteger(step) || step === 0) invalid(`Slice step must be a non-zero integer, got ${s.step} (dimension ${dim})`);
  for (const v of [s.start, s.stop]) {
    if (v !== null && !Number.isInteger(v)) invalid(`Slice bounds must be integers, got ${v} (dimension ${dim})`);
  }
  // Python's slice.indices semantics: negative bounds count from the end, then clamp.
  let start: number;
  let stop: number;
  if (step > 0) {
    start = s.start === null ? 0 : s.start < 0 ? Math.max(0, s.start + length) : Math.min(s.start, length);
    stop = s.stop === null ? length : s.stop < 0 ? Math.max(0, s.stop + length) : Math.min(s.stop, length);
  } else {
    start = s.start === null ? length - 1 : s.start < 0 ? Math.max(-1, s.start + length) : Math.min(s.start, length - 1);
    stop = s.stop === null ? -1 : s.stop < 0 ? Math.max(-1, s.stop + length) : Math.min(s.stop, length - 1);
  }
  const count = step > 0 ? Math.max(0, Math.ceil((stop - start) / step)) : Math.max(0, Math.ceil((start - stop) / -step));
  return { kind: "range", start, step, count };
}

export function resolveIndex(i: number, length: number, dim: number): number {
  if (!Number.isInteger(i)) invalid(`Index ${i} in dimension ${dim} is not an integer`);
  const j = i < 0 ? i + length : i;
  if (j < 0 || j >= length) {
    throw new ZarrError("OUT_OF_BOUNDS", `Index ${i} is out of bounds for dimension ${dim} of length ${length}`);
  }
  return j;
}

/** Resolves the entries that are not an integer, a slice or `null` (see selection-points.ts). */
export type ResolveOther = (sel: DimSelection, length: number, dim: number) => ResolvedDim;

function resolveDim(sel: DimSelection, length: number, dim: number, other: ResolveOther | undefined): ResolvedDim {
  if (sel === null) return { kind: "range", start: 0, step: 1, count: length };
  if (typeof sel === "number") return { kind: "int", index: resolveIndex(sel, length, dim) };
  if (typeof sel === "bigint") return { kind: "int", index: resolveIndex(Number(sel), length, dim) };
  if (isSlice(sel)) return resolveSlice(sel, length, dim);
  // Present whenever such an entry is (`needsOtherResolver`).
  return (other as ResolveOther)(sel, length, dim);
}

function isSlice(sel: DimSelection | typeof ELLIPSIS): sel is Slice {
  return typeof sel === "object" && sel !== null && "kind" in sel && sel.kind === "slice";
}

/**
 * True when `selection` holds entries other than integers, slices, `null` and `"..."`
 * (index arrays, masks, or something invalid): resolving it then needs the resolver of
 * selection-points.ts, which `plan` loads for it (bundle size: most reads select slices).
 */
export function needsOtherResolver(selection: Selection | null | undefined): boolean {
  return Array.isArray(selection) && selection.some((s) => s !== null && s !== ELLIPSIS && typeof s !== "number" && typeof s !== "bigint" && !isSlice(s));
}

/**
 * Resolves a selection against `shape`: one resolved dimension per array dimension.
 * Throws `INVALID_SELECTION` for malformed selections and `OUT_OF_BOUNDS` for indices
 * outside the array. Index arrays and masks are resolved by `other` (the
 * `resolveOther` of selection-points.ts), needed when {@link needsOtherResolver} says so.
 */
export function resolveSelection(selection: Selection | null | undefined, shape: readonly number[], other?: ResolveOther): ResolvedDim[] {
  const sel = selection ?? [];
  if (!Array.isArray(sel)) invalid("A selection must be an array with one entry per dimension");
  const ellipses = sel.filter((s) => s === ELLIPSIS).length;
  if (ellipses > 1) invalid('A selection can hold at most one "..."');
  const explicit = sel.length - ellipses;
  if (explicit > shape.length) {
    invalid(`Selection has ${explicit} entries, but the array has only ${shape.length} dimensions`);
  }
  const expanded: DimSelection[] = [];
  for (const s of sel) {
    if (s === ELLIPSIS) for (let k = 0; k < shape.length - explicit; k++) expanded.push(null);
    else expanded.push(s as DimSelection);
  }
  while (expanded.length < shape.length) expanded.push(null);
  return expanded.map((s, d) => resolveDim(s, shape[d], d, other));
}

/**
 * Parses a NumPy-style selection string such as `"0:10, ::2, 5, ..."` or
 * `"[1, 5, 7], :"` (the CLI's `--select`).
 *
 * @example
 * ```ts
 * parseSelection("0:10, ::2, 5"); // [slice(0, 10), slice(null, null, 2), 5]
 * ```
 */
export function parseSelection(text: string): Selection {
  const out: (DimSelection | typeof ELLIPSIS)[] = [];
  const trimmed = text.trim();
  if (trimmed === "") return out;
  // split on commas that are not inside brackets
  const parts: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of trimmed) {
    if (ch === "[") depth++;
    if (ch === "]") depth--;
    if (ch === "," && depth === 0) {
      parts.push(cur);
      cur = "";
    } else cur += ch;
  }
  parts.push(cur);
  const int = (s: string, whole: string): number | null => {
    const t = s.trim();
    if (t === "") return null;
    if (!/^[-+]?\d+$/.test(t)) invalid(`Cannot parse "${whole}" in selection "${text}": "${t}" is not an integer`);
    return Number(t);
  };
  for (const raw of parts) {
    const p = raw.trim();
    if (p === "...") out.push(ELLIPSIS);
    else if (p.startsWith("[")) {
      if (!p.endsWith("]")) invalid(`Unclosed "[" in selection "${text}"`);
      const inner = p.slice(1, -1).trim();
      if (/^(true|false)(\s*,\s*(true|false))*$/i.test(inner)) {
        out.push(inner.split(",").map((v) => v.trim().toLowerCase() === "true"));
      } else {
        out.push(inner === "" ? [] : inner.split(",").map((v) => int(v, p) as number));
      }
    } else if (p.includes(":")) {
      const bits = p.split(":");
      if (bits.length > 3) invalid(`Cannot parse "${p}" in selection "${text}"`);
      out.push({ kind: "slice", start: int(bits[0], p), stop: int(bits[1], p), step: bits.length === 3 ? int(bits[2], p) : null });
    } else {
      const v = int(p, p);
      if (v === null) invalid(`Empty entry in selection "${text}"`);
      out.push(v);
    }
  }
  return out;
}
