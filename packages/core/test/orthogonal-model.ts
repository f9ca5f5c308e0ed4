/**
 * A plain reference model of NumPy orthogonal indexing over a flat C-order JS array,
 * written independently of the library (Python's slice rules spelled out), and
 * fast-check generators of selections. Shared by core's and codec-sharding's
 * property tests of `get` and `set` (plain JS, importing nothing from the library).
 */
import fc from "fast-check";

/** A selection entry as the model understands it (a subset of core's `DimSelection`). */
export type ModelDim =
  | number
  | null
  | { kind: "slice"; start: number | null; stop: number | null; step: number | null }
  | { kind: "mask"; values: boolean[] }
  | number[]
  | boolean[];

/** A selection: entries per dimension, possibly one `"..."`, possibly fewer than the rank. */
export type ModelSelection = (ModelDim | "...")[];

/** `range(n)[start:stop:step]` by CPython's `PySlice_AdjustIndices`. */
export function pythonSlice(n: number, start: number | null, stop: number | null, step: number | null): number[] {
  const st = step ?? 1;
  const adjust = (v: number | null, none: number): number => {
    if (v === null) return none;
    if (v < 0) {
      const w = v + n;
      return w < 0 ? (st < 0 ? -1 : 0) : w;
    }
    return v >= n ? (st < 0 ? n - 1 : n) : v;
  };
  const a = adjust(start, st < 0 ? n - 1 : 0);
  const b = adjust(stop, st < 0 ? -1 : n);
  const out: number[] = [];
  for (let i = a; st > 0 ? i < b : i > b; i += st) out.push(i);
  return out;
}

/** The positions one entry selects along a dimension of length `n`, and whether the dimension is dropped. */
export function modelDim(sel: ModelDim, n: number): { drop: boolean; idx: number[] } {
  const wrap = (i: number) => (i < 0 ? i + n : i);
  if (sel === null) return { drop: false, idx: Array.from({ length: n }, (_, i) => i) };
  if (typeof sel === "number") return { drop: true, idx: [wrap(sel)] };
  if (Array.isArray(sel)) {
    if (sel.length > 0 && typeof sel[0] === "boolean") return { drop: false, idx: sel.flatMap((b, i) => (b ? [i] : [])) };
    return { drop: false, idx: (sel as number[]).map(wrap) };
  }
  if (sel.kind === "mask") return { drop: false, idx: sel.values.flatMap((b, i) => (b ? [i] : [])) };
  return { drop: false, idx: pythonSlice(n, sel.start, sel.stop, sel.step) };
}

/** Expands `"..."` and missing trailing entries into whole-dimension selections. */
function expand(selection: ModelSelection, ndim: number): ModelDim[] {
  const explicit = selection.filter((s) => s !== "...").length;
  const out: ModelDim[] = [];
  for (const s of selection) {
    if (s === "...") for (let k = 0; k < ndim - explicit; k++) out.push(null);
    else out.push(s);
  }
  while (out.length < ndim) out.push(null);
  return out;
}

/** Flat indices of every selected element, in the C order of the result; and the result's shape. */
export function modelSelect(shape: readonly number[], selection: ModelSelection): { shape: number[]; flat: number[] } {
  const dims = expand(selection, shape.length).map((s, d) => modelDim(s, shape[d]));
  const strides = shape.map((_, d) => shape.slice(d + 1).reduce((a, b) => a * b, 1));
  const flat: number[] = [];
  const rec = (d: number, offset: number) => {
    if (d === shape.length) flat.push(offset);
    else for (const i of dims[d].idx) rec(d + 1, offset + i * strides[d]);
  };
  rec(0, 0);
  return { shape: dims.filter((x) => !x.drop).map((x) => x.idx.length), flat };
}

/** `data[selection]`. */
export function modelGet(data: readonly number[], shape: readonly number[], selection: ModelSelection) {
  const { shape: outShape, flat } = modelSelect(shape, selection);
  return { shape: outShape, values: flat.map((i) => data[i]) };
}

/** `data[selection] = values` (a scalar, or one value per selected element in C order); the last write wins. */
export function modelSet(data: number[], shape: readonly number[], selection: ModelSelection, values: number | readonly number[]): void {
  const { flat } = modelSelect(shape, selection);
  flat.forEach((i, k) => {
    data[i] = typeof values === "number" ? values : values[k];
  });
}

/** One dimension's selection over length `n`: every kind core accepts, indices unsorted and repeated. */
export function dimSelection(n: number): fc.Arbitrary<ModelDim> {
  const options: fc.Arbitrary<ModelDim>[] = [
    fc.constant(null),
    fc
      .record({
        start: fc.option(fc.integer({ min: -n - 2, max: n + 2 })),
        stop: fc.option(fc.integer({ min: -n - 2, max: n + 2 })),
        step: fc.option(fc.integer({ min: -3, max: 3 }).filter((s) => s !== 0)),
      })
      .map(({ start, stop, step }) => ({ kind: "slice" as const, start, stop, step })),
  ];
  if (n > 0) {
    const index = fc.integer({ min: -n, max: n - 1 });
    options.push(
      index,
      fc.array(index, { maxLength: 2 * n + 2 }),
      // every position (negative spellings included), shuffled, with repeats: covers whole chunks
      fc.shuffledSubarray([...Array.from({ length: n }, (_, i) => i), ...Array.from({ length: n }, (_, i) => i - n)], {
        minLength: 1,
      }),
      fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      fc.array(fc.boolean(), { minLength: n, maxLength: n }).map((values) => ({ kind: "mask" as const, values })),
    );
  }
  return fc.oneof(...options);
}

/** A selection for `shape`: entries per dimension, sometimes with `"..."` or trailing entries left out. */
export function selectionFor(shape: readonly number[]): fc.Arbitrary<ModelSelection> {
  return fc.tuple(fc.tuple(...shape.map(dimSelection)), fc.integer({ min: 0, max: shape.length }), fc.integer({ min: 0, max: 2 })).map(
    ([dims, cut, form]) => {
      if (form === 0) return dims;
      if (form === 1) return dims.slice(0, cut); // trailing dimensions selected whole
      return [...dims.slice(0, cut), "...", ...dims.slice(cut + 1)]; // "..." stands for one entry, or none at the end
    },
  );
}

export type Grid = { regular: number[] } | { rectilinear: (number | number[])[] };

/** A grid for `shape`: regular chunks of 1–4 (ragged at the edge), or explicit edges per dimension. */
export function gridFor(shape: readonly number[]): fc.Arbitrary<Grid> {
  const regular = fc.tuple(...shape.map(() => fc.integer({ min: 1, max: 4 }))).map((c): Grid => ({ regular: c }));
  const edges = (n: number): fc.Arbitrary<number | number[]> =>
    n === 0
      ? fc.constant(2)
      : fc.array(fc.integer({ min: 1, max: n }), { minLength: 1, maxLength: n }).map((e) => {
          // trim/extend the edges so they add up to n
          const out: number[] = [];
          let sum = 0;
          for (const x of e) {
            if (sum + x >= n) break;
            out.push(x);
            sum += x;
          }
          out.push(n - sum);
          return out;
        });
  const rectilinear = fc.tuple(...shape.map(edges)).map((r): Grid => ({ rectilinear: r }));
  return fc.oneof(regular, rectilinear);
}
