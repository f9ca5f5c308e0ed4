/**
 * A plain reference model of NumPy's pointwise (vectorised) indexing over a flat C-order
 * JS array, written independently of the library: `a[i0, i1, …]` with integer index
 * arrays that broadcast, and `a[mask]` with a mask of the full shape. Plus fast-check
 * generators of such selections. Shared by core's and codec-sharding's tests (plain JS,
 * importing nothing from the library).
 */
import fc from "fast-check";

/** An index array as the model understands it: a number, a 1-D list, or `{ data, shape }`. */
export type ModelIndex = number | number[] | { data: number[]; shape: number[] };

function indexShape(x: ModelIndex): number[] {
  if (typeof x === "number") return [];
  if (Array.isArray(x)) return [x.length];
  return x.shape;
}

function indexData(x: ModelIndex): number[] {
  if (typeof x === "number") return [x];
  return Array.isArray(x) ? x : x.data;
}

/** The broadcast shape of index arrays of these shapes, NumPy's rules spelled out (undefined: they do not broadcast). */
export function modelBroadcast(shapes: number[][]): number[] | undefined {
  const ndim = Math.max(0, ...shapes.map((s) => s.length));
  const out: number[] = [];
  for (let k = 0; k < ndim; k++) {
    // sizes along the k-th dimension from the right
    const sizes = shapes.map((s) => s[s.length - ndim + k]).filter((n) => n !== undefined);
    const big = sizes.filter((n) => n !== 1);
    if (new Set(big).size > 1) return undefined;
    out.push(big.length > 0 ? big[0] : 1);
  }
  return out;
}

/** Flat C-order indices into an array of `shape` of every point `a[i0, i1, …]` names, and the result's shape. */
export function modelPoints(shape: readonly number[], indices: readonly ModelIndex[]): { shape: number[]; flat: number[] } {
  const outShape = modelBroadcast(indices.map(indexShape));
  if (outShape === undefined) throw new Error("model: index arrays do not broadcast");
  const count = outShape.reduce((a, b) => a * b, 1);
  const flat: number[] = [];
  for (let p = 0; p < count; p++) {
    // p's multi-index in the result, last dimension fastest
    const at: number[] = [];
    let rest = p;
    for (let d = outShape.length - 1; d >= 0; d--) {
      at[d] = rest % outShape[d];
      rest = Math.floor(rest / outShape[d]);
    }
    let offset = 0;
    indices.forEach((x, d) => {
      const s = indexShape(x);
      // the element of x that broadcasts to `at`: right-aligned, size-1 dimensions repeat element 0
      let pos = 0;
      s.forEach((n, k) => {
        const a = at[outShape.length - s.length + k];
        pos = pos * n + (n === 1 ? 0 : a);
      });
      const raw = indexData(x)[pos];
      const i = raw < 0 ? raw + shape[d] : raw;
      offset = offset * shape[d] + i;
    });
    flat.push(offset);
  }
  return { shape: outShape, flat };
}

/** Flat indices of the true elements of a full-shape mask, in C order. */
export function modelMaskPoints(mask: readonly boolean[]): number[] {
  return mask.flatMap((b, i) => (b ? [i] : []));
}

/** `data` at `flat`. */
export function modelGather(data: readonly number[], flat: readonly number[]): number[] {
  return flat.map((i) => data[i]);
}

/** `data[flat] = values` in order (a scalar, or one value per point): of repeated points the last wins. */
export function modelScatter(data: number[], flat: readonly number[], values: number | readonly number[]): void {
  flat.forEach((i, k) => {
    data[i] = typeof values === "number" ? values : values[k];
  });
}

/**
 * Index arrays for an array of `shape` (every length ≥ 1): a broadcast shape of 0–2
 * dimensions (sizes 0–4) is picked, and each dimension's indices get a shape that
 * broadcasts to it (leading dimensions dropped, some sizes 1) or are one number;
 * indices are in `[-n, n)`, repeats likely.
 */
export function coordinatesFor(shape: readonly number[]): fc.Arbitrary<ModelIndex[]> {
  return fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 2 }).chain((target) =>
    fc.tuple(
      ...shape.map((n) => {
        const index = fc.integer({ min: -n, max: n - 1 });
        const shaped = fc
          .tuple(fc.integer({ min: 0, max: target.length }), fc.array(fc.boolean(), { minLength: target.length, maxLength: target.length }))
          .chain(([drop, ones]) => {
            const s = target.slice(drop).map((m, k) => (ones[drop + k] ? 1 : m));
            const size = s.reduce((a, b) => a * b, 1);
            return fc.array(index, { minLength: size, maxLength: size }).map((data): ModelIndex => {
              if (s.length === 1 && data.length % 2 === 0) return data; // a plain list
              return { data, shape: s };
            });
          });
        return fc.oneof({ weight: 1, arbitrary: index as fc.Arbitrary<ModelIndex> }, { weight: 4, arbitrary: shaped });
      }),
    ),
  );
}

/** A full-shape mask for `shape`: sparse, dense or anywhere between. */
export function maskFor(shape: readonly number[]): fc.Arbitrary<boolean[]> {
  const size = shape.reduce((a, b) => a * b, 1);
  return fc
    .double({ min: 0, max: 1, noNaN: true })
    .chain((density) => fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: size, maxLength: size }).map((r) => r.map((x) => x < density)));
}
