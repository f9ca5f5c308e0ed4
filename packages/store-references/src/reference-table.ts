/**
 * The references of a document held in columns, not as one object per key: a reference set
 * of a million chunks is a million keys pointing at a handful of files. Each row keeps a
 * kind byte, a target index and two numbers in typed arrays; target URLs are stored once;
 * inline bytes share one buffer. Chunk keys (`temp/0.1`, most of any set) are not kept as
 * strings: each array's keys become a dense index from grid position to row (see
 * chunk-keys.ts); other keys, and chunk keys too scattered over their grid for a dense
 * index to pay, map to rows in one `Map`. `Reference` objects are made when a key is read.
 */
import { type ChunkKey, chunkKey, splitChunkKey } from "./chunk-keys.js";

/** Where a key's bytes are. */
export type Reference =
  | { readonly kind: "inline"; readonly bytes: Uint8Array }
  | { readonly kind: "whole"; readonly url: string }
  | { readonly kind: "range"; readonly url: string; readonly offset: number; readonly length: number };

const RANGE = 0;
const WHOLE = 1;
const INLINE = 2;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Grows a typed array to hold at least `need` elements (doubling, so appends stay amortised O(1)). */
function grown<T extends Uint8Array | Uint32Array | Float64Array>(array: T, need: number): T {
  if (need <= array.length) return array;
  const next = new (array.constructor as new (n: number) => T)(Math.max(need, array.length * 2, 64));
  next.set(array);
  return next;
}

/** Rows per page of the columns (a table grows by whole pages, never copying one). */
const PAGE_BITS = 16;
const PAGE_ROWS = 1 << PAGE_BITS;
const PAGE_MASK = PAGE_ROWS - 1;

/** Rows `page << PAGE_BITS` onward: what each reference is and where its bytes are. */
interface Page {
  kind: Uint8Array;
  /** The target's index in the table's URLs (range and whole rows). */
  target: Uint32Array;
  /** Byte offset in the target, or in the inline buffer for inline rows. */
  offset: Float64Array;
  length: Float64Array;
}

function newPage(rows: number): Page {
  return { kind: new Uint8Array(rows), target: new Uint32Array(rows), offset: new Float64Array(rows), length: new Float64Array(rows) };
}

/** The rows, the URLs they name and the inline bytes. */
interface Columns {
  readonly pages: readonly Page[];
  readonly urls: readonly string[];
  readonly inline: Uint8Array;
}

/** The name of a group of chunk keys: dimensions, separator and prefix. */
function groupId(ndim: number, separator: number, prefix: string): string {
  return `${ndim}${String.fromCharCode(separator)}${prefix}`;
}

/** One array's chunk keys as a dense index over the box of grid positions they span. */
class DenseGroup {
  readonly prefix: string;
  readonly separator: string;
  /** Positions per dimension; C order, the last dimension fastest. */
  readonly extents: Uint32Array;
  /** The row of each position, -1 where the set has no key. */
  readonly cells: Int32Array;
  readonly size: number;

  constructor(prefix: string, separator: number, extents: Uint32Array, cells: Int32Array, size: number) {
    this.prefix = prefix;
    this.separator = String.fromCharCode(separator);
    this.extents = extents;
    this.cells = cells;
    this.size = size;
  }

  /** The row at `coords`, or -1. */
  row(coords: Uint32Array): number {
    let cell = 0;
    for (let d = 0; d < this.extents.length; d++) {
      if (coords[d] >= this.extents[d]) return -1;
      cell = cell * this.extents[d] + coords[d];
    }
    return this.cells[cell];
  }

  /** Each key and its row, in C order. */
  *entries(): Generator<[string, number]> {
    const coords = new Array<number>(this.extents.length).fill(0);
    for (let cell = 0; cell < this.cells.length; cell++) {
      if (this.cells[cell] >= 0) yield [this.prefix + coords.join(this.separator), this.cells[cell]];
      for (let d = coords.length - 1; d >= 0 && ++coords[d] === this.extents[d]; d--) coords[d] = 0;
    }
  }
}

/** One array's chunk keys while the table is built: coordinates and rows as they come. */
interface GroupBuild {
  readonly id: string;
  readonly prefix: string;
  readonly prefixBytes: Uint8Array;
  readonly separator: number;
  readonly ndim: number;
  coords: Uint32Array;
  rows: Uint32Array;
  count: number;
  /** The largest coordinate seen per dimension. */
  readonly max: Uint32Array;
}

/**
 * A read-only `Map` from store key to {@link Reference}, stored in columns. Made by the
 * reference document parsers (`parseReferenceDocument`, `parseReferenceBytes`); hand it to
 * `tableSource` to serve it as a store. Keys iterate in the order first set, except that
 * chunk keys held in a grid index come after the others, array by array, in C order.
 *
 * @example
 * ```ts
 * const table = parseReferenceDocument({ "a/0": ["s3://b/f.nc", 8, 100] });
 * table.get("a/0"); // { kind: "range", url: "s3://b/f.nc", offset: 8, length: 100 }
 * table.size; // 1
 * ```
 */
export class ReferenceTable implements ReadonlyMap<string, Reference> {
  readonly #columns: Columns;
  readonly #named: ReadonlyMap<string, number>;
  readonly #groups: ReadonlyMap<string, DenseGroup>;
  readonly size: number;
  #split: ChunkKey | undefined;
  #scratch = new Uint8Array(0);

  /** Made by {@link ReferenceTableBuilder.build}. */
  constructor(columns: Columns, named: ReadonlyMap<string, number>, groups: ReadonlyMap<string, DenseGroup>) {
    this.#columns = columns;
    this.#named = named;
    this.#groups = groups;
    let size = named.size;
    for (const group of groups.values()) size += group.size;
    this.size = size;
  }

  #row(key: string): number {
    const named = this.#named.get(key);
    if (named !== undefined) return named;
    if (this.#groups.size === 0) return -1;
    if (this.#scratch.length < key.length * 3) this.#scratch = new Uint8Array(key.length * 3);
    const { written } = encoder.encodeInto(key, this.#scratch);
    this.#split ??= chunkKey();
    const split = this.#split;
    if (!splitChunkKey(this.#scratch, 0, written, split)) return -1;
    const group = this.#groups.get(groupId(split.ndim, split.separator, decoder.decode(this.#scratch.subarray(0, split.prefixEnd))));
    return group === undefined ? -1 : group.row(split.coords);
  }

  /** The reference of `key` (inline bytes are a view of the table's buffer: copy before changing them). */
  get(key: string): Reference | undefined {
    const row = this.#row(key);
    return row < 0 ? undefined : this.#reference(row);
  }

  #reference(row: number): Reference {
    const c = this.#columns;
    const page = c.pages[row >>> PAGE_BITS];
    const i = row & PAGE_MASK;
    const kind = page.kind[i];
    if (kind === INLINE) return { kind: "inline", bytes: c.inline.subarray(page.offset[i], page.offset[i] + page.length[i]) };
    const url = c.urls[page.target[i]];
    return kind === WHOLE ? { kind: "whole", url } : { kind: "range", url, offset: page.offset[i], length: page.length[i] };
  }

  /** True when the table has a reference for `key`. */
  has(key: string): boolean {
    return this.#row(key) >= 0;
  }

  *#rows(): Generator<[string, number]> {
    yield* this.#named;
    for (const group of this.#groups.values()) yield* group.entries();
  }

  /** The keys. */
  *keys(): MapIterator<string> {
    for (const [key] of this.#rows()) yield key;
  }

  /** The references, in key order. */
  *values(): MapIterator<Reference> {
    for (const [, row] of this.#rows()) yield this.#reference(row);
  }

  /** `[key, reference]` pairs, in key order. */
  *entries(): MapIterator<[string, Reference]> {
    for (const [key, row] of this.#rows()) yield [key, this.#reference(row)];
  }

  [Symbol.iterator](): MapIterator<[string, Reference]> {
    return this.entries();
  }

  /** Calls `callback` with each reference and key, in key order. */
  forEach(callback: (value: Reference, key: string, map: ReadonlyMap<string, Reference>) => void, thisArg?: unknown): void {
    for (const [key, row] of this.#rows()) callback.call(thisArg, this.#reference(row), key, this);
  }
}

/**
 * Fills a {@link ReferenceTable}. Keys come as text or as UTF-8 bytes in a buffer (a
 * document read in place), so a chunk key never needs a string of its own. A key set again
 * refers to what it was set to last.
 */
export class ReferenceTableBuilder {
  readonly #pages: Page[] = [];
  #rows = 0;
  readonly #urls: string[] = [];
  readonly #urlIndex = new Map<string, number>();
  #inline = new Uint8Array(0);
  #inlineUsed = 0;
  readonly #named = new Map<string, number>();
  readonly #groups = new Map<string, GroupBuild>();
  /** Keys added to groups (a key set twice counts twice until `build`). */
  #grouped = 0;
  #last: GroupBuild | undefined;
  readonly #split = chunkKey();
  #scratch = new Uint8Array(0);

  /** Keys set so far (a chunk key set twice counts twice). */
  get size(): number {
    return this.#named.size + this.#grouped;
  }

  /** True when `key` was set as a key that is not a chunk key (chunk keys are not looked up while building). */
  hasNamed(key: string): boolean {
    return this.#named.has(key);
  }

  /** The index of `url` in the table's targets, adding it when new (each distinct URL is kept once). */
  target(url: string): number {
    let index = this.#urlIndex.get(url);
    if (index === undefined) {
      index = this.#urls.length;
      this.#urls.push(url);
      this.#urlIndex.set(url, index);
    }
    return index;
  }

  /** Sets the key in `bytes[start..end)` (UTF-8) to bytes `offset`..`offset + length` of target `target` (from {@link target}). */
  setRangeAt(bytes: Uint8Array, start: number, end: number, target: number, offset: number, length: number): void {
    this.#write(this.#place(bytes, start, end, undefined), RANGE, target, offset, length);
  }

  /** Sets `key` to bytes `offset`..`offset + length` of target `target`. */
  setRange(key: string, target: number, offset: number, length: number): void {
    this.#write(this.#placeText(key), RANGE, target, offset, length);
  }

  /** Sets `key` to the whole of target `target`. */
  setWhole(key: string, target: number): void {
    this.#write(this.#placeText(key), WHOLE, target, 0, 0);
  }

  /** Sets `key` to a copy of `bytes`. */
  setInline(key: string, bytes: Uint8Array): void {
    const at = this.#inlineUsed;
    this.#inline = grown(this.#inline, at + bytes.length);
    this.#inline.set(bytes, at);
    this.#inlineUsed += bytes.length;
    this.#write(this.#placeText(key), INLINE, 0, at, bytes.length);
  }

  #write(row: number, kind: number, target: number, offset: number, length: number): void {
    const page = this.#pages[row >>> PAGE_BITS];
    const i = row & PAGE_MASK;
    page.kind[i] = kind;
    page.target[i] = target;
    page.offset[i] = offset;
    page.length[i] = length;
  }

  #newRow(): number {
    const row = this.#rows++;
    const p = row >>> PAGE_BITS;
    const i = row & PAGE_MASK;
    if (p === this.#pages.length) this.#pages.push(newPage(p === 0 ? 64 : PAGE_ROWS));
    else if (i === this.#pages[p].kind.length) {
      // The first page grows by doubling (most sets are small); later ones start full size.
      const page = this.#pages[p];
      this.#pages[p] = { kind: grown(page.kind, i + 1), target: grown(page.target, i + 1), offset: grown(page.offset, i + 1), length: grown(page.length, i + 1) };
    }
    return row;
  }

  #placeText(key: string): number {
    if (this.#scratch.length < key.length * 3) this.#scratch = new Uint8Array(key.length * 3);
    const { written } = encoder.encodeInto(key, this.#scratch);
    return this.#place(this.#scratch, 0, written, key);
  }

  /** The row of a key (`text`: the key as a string, when the caller has one). */
  #place(bytes: Uint8Array, start: number, end: number, text: string | undefined): number {
    const split = this.#split;
    if (!splitChunkKey(bytes, start, end, split)) {
      const key = text ?? decoder.decode(bytes.subarray(start, end));
      let row = this.#named.get(key);
      if (row === undefined) {
        row = this.#newRow();
        this.#named.set(key, row);
      }
      return row;
    }
    const group = this.#groupOf(bytes, start, split);
    const at = group.count++;
    const n = group.ndim;
    group.coords = grown(group.coords, (at + 1) * n);
    group.rows = grown(group.rows, at + 1);
    for (let d = 0; d < n; d++) {
      const c = split.coords[d];
      group.coords[at * n + d] = c;
      if (c > group.max[d]) group.max[d] = c;
    }
    const row = this.#newRow();
    group.rows[at] = row;
    this.#grouped++;
    return row;
  }

  /** The group of a split key: the last one used when the prefix is the same (it nearly always is). */
  #groupOf(bytes: Uint8Array, start: number, split: ChunkKey): GroupBuild {
    const last = this.#last;
    const prefixLength = split.prefixEnd - start;
    if (last !== undefined && last.ndim === split.ndim && last.separator === split.separator && last.prefixBytes.length === prefixLength) {
      let same = true;
      for (let k = 0; k < prefixLength && same; k++) same = last.prefixBytes[k] === bytes[start + k];
      if (same) return last;
    }
    const prefixBytes = bytes.slice(start, split.prefixEnd);
    const prefix = decoder.decode(prefixBytes);
    const id = groupId(split.ndim, split.separator, prefix);
    let group = this.#groups.get(id);
    if (group === undefined) {
      const n = split.ndim;
      group = { id, prefix, prefixBytes, separator: split.separator, ndim: n, coords: new Uint32Array(0), rows: new Uint32Array(0), count: 0, max: new Uint32Array(n) };
      this.#groups.set(id, group);
    }
    this.#last = group;
    return group;
  }

  /**
   * The table. Each array's chunk keys become a dense index when their grid box has at
   * most about twice as many positions as keys; scattered ones become named keys.
   */
  build(): ReferenceTable {
    const dense = new Map<string, DenseGroup>();
    for (const group of this.#groups.values()) {
      const n = group.ndim;
      const extents = group.max.map((m) => m + 1);
      const positions = extents.reduce((a, b) => a * b, 1);
      if (positions <= 2 * group.count + 64) {
        const cells = new Int32Array(positions).fill(-1);
        let size = 0;
        for (let e = 0; e < group.count; e++) {
          let cell = 0;
          for (let d = 0; d < n; d++) cell = cell * extents[d] + group.coords[e * n + d];
          if (cells[cell] < 0) size++;
          cells[cell] = group.rows[e];
        }
        dense.set(group.id, new DenseGroup(group.prefix, group.separator, extents, cells, size));
      } else {
        const separator = n > 1 ? String.fromCharCode(group.separator) : "";
        for (let e = 0; e < group.count; e++) {
          this.#named.set(group.prefix + Array.from(group.coords.subarray(e * n, e * n + n)).join(separator), group.rows[e]);
        }
      }
    }
    this.#groups.clear();
    this.#last = undefined;
    const columns: Columns = {
      pages: this.#pages,
      urls: this.#urls,
      inline: this.#inline.subarray(0, this.#inlineUsed),
    };
    return new ReferenceTable(columns, this.#named, dense);
  }
}
