/**
 * A flatbuffers reader that checks every offset it follows. The generated TypeScript
 * readers (flatc --ts) trust the buffer: a corrupt offset reads past the end (as zeros
 * or garbage) and a corrupt length can make them allocate or loop for gigabytes. Here
 * every table, vector, string and struct is checked to lie inside the buffer before it is
 * read, and a failure is a `CODEC_FAILED` naming the file and the field.
 *
 * Layout (flatbuffers' binary format): the buffer starts with a u32 offset to the root
 * table; a table starts with an i32 back to its vtable (u16 vtable size, u16 table size,
 * then a u16 offset per field, 0 = absent); offset fields hold a u32 forward offset to a
 * table, vector or string; vectors and strings start with a u32 element count.
 */
import { corrupt } from "./errors.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A flatbuffers buffer plus the name of the file it came from (for errors). */
export class FlatBuffer {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  /** Store key of the file, named in errors. */
  readonly object: string;

  constructor(bytes: Uint8Array, object: string) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.object = object;
  }

  fail(detail: string): never {
    throw corrupt(this.object, detail);
  }

  /** Checks that `[pos, pos + size)` lies inside the buffer. */
  check(pos: number, size: number, what: string): void {
    if (!(pos >= 0 && size >= 0 && pos + size <= this.bytes.length)) {
      this.fail(`${what} at byte ${pos} (${size} bytes) lies outside the ${this.bytes.length}-byte payload`);
    }
  }

  u32(pos: number, what: string): number {
    this.check(pos, 4, what);
    return this.view.getUint32(pos, true);
  }

  /** The string whose length prefix is at `pos`; invalid UTF-8 is `CODEC_FAILED`. */
  stringAt(pos: number, what: string): string {
    const length = this.u32(pos, `the length of ${what}`);
    this.check(pos + 4, length, what);
    try {
      return utf8.decode(this.bytes.subarray(pos + 4, pos + 4 + length));
    } catch {
      return this.fail(`${what} is not valid UTF-8`);
    }
  }

  /** The root table, named `what` in errors. */
  root(what: string): Table {
    return this.table(this.u32(0, `the root offset of ${what}`), what);
  }

  /** The table at `pos`, its vtable checked. */
  table(pos: number, what: string): Table {
    this.check(pos, 4, what);
    const vtable = pos - this.view.getInt32(pos, true);
    this.check(vtable, 4, `the vtable of ${what}`);
    const vtableSize = this.view.getUint16(vtable, true);
    const tableSize = this.view.getUint16(vtable + 2, true);
    if (vtableSize < 4 || vtableSize % 2 !== 0) this.fail(`the vtable of ${what} has a bad size ${vtableSize}`);
    this.check(vtable, vtableSize, `the vtable of ${what}`);
    this.check(pos, tableSize, what);
    return new Table(this, pos, vtable, vtableSize, tableSize, what);
  }

  /**
   * Vector field `slot` (of `elementSize`-byte elements) of the table at `pos`, every
   * offset checked as {@link table} and {@link Table.vector} do, but without building a
   * Table or a name: for inner loops over many small tables (a transaction log's chunk
   * coordinates, one table each). `what` names the table only when something is wrong.
   * `undefined` when the field is absent.
   */
  vectorOfTable(pos: number, slot: number, elementSize: number, what: () => string): InlineVector | undefined {
    const bytes = this.bytes.length;
    const view = this.view;
    if (!(pos >= 0 && pos + 4 <= bytes)) this.fail(`${what()} at byte ${pos} lies outside the ${bytes}-byte payload`);
    const vtable = pos - view.getInt32(pos, true);
    if (!(vtable >= 0 && vtable + 4 <= bytes)) this.fail(`the vtable of ${what()} lies outside the ${bytes}-byte payload`);
    const vtableSize = view.getUint16(vtable, true);
    const tableSize = view.getUint16(vtable + 2, true);
    if (vtableSize < 4 || vtableSize % 2 !== 0 || vtable + vtableSize > bytes) this.fail(`the vtable of ${what()} has a bad size ${vtableSize}`);
    if (pos + tableSize > bytes) this.fail(`${what()} lies outside the ${bytes}-byte payload`);
    const entry = 4 + 2 * slot;
    if (entry + 2 > vtableSize) return undefined;
    const offset = view.getUint16(vtable + entry, true);
    if (offset === 0) return undefined;
    if (offset + 4 > tableSize) this.fail(`a field of ${what()} lies outside its table`);
    const at = pos + offset + view.getUint32(pos + offset, true);
    if (!(at + 4 <= bytes)) this.fail(`the vector of ${what()} at byte ${at} lies outside the ${bytes}-byte payload`);
    const length = view.getUint32(at, true);
    if (at + 4 + length * elementSize > bytes) this.fail(`the vector of ${what()} (${length} elements) lies outside the ${bytes}-byte payload`);
    return { start: at + 4, length };
  }
}

/** A vector of tables, read one element at a time. */
export interface TableVector {
  readonly length: number;
  at(i: number): Table;
}

/** A vector of fixed-size structs or scalars: its first element's position, count and stride. */
export interface InlineVector {
  /** Position of element 0. */
  readonly start: number;
  readonly length: number;
}

/** One table of a {@link FlatBuffer}; fields are addressed by their slot (declaration order, a union taking two). */
export class Table {
  readonly fb: FlatBuffer;
  readonly pos: number;
  readonly what: string;
  readonly #vtable: number;
  readonly #vtableSize: number;
  readonly #tableSize: number;

  constructor(fb: FlatBuffer, pos: number, vtable: number, vtableSize: number, tableSize: number, what: string) {
    this.fb = fb;
    this.pos = pos;
    this.#vtable = vtable;
    this.#vtableSize = vtableSize;
    this.#tableSize = tableSize;
    this.what = what;
  }

  /** Position of field `slot`'s value, or 0 when the field is absent. Checks that `size` bytes fit in the table. */
  field(slot: number, size: number, name: string): number {
    const entry = 4 + 2 * slot;
    if (entry + 2 > this.#vtableSize) return 0;
    const offset = this.fb.view.getUint16(this.#vtable + entry, true);
    if (offset === 0) return 0;
    if (offset + size > this.#tableSize) this.fb.fail(`field ${name} of ${this.what} lies outside its table`);
    return this.pos + offset;
  }

  has(slot: number): boolean {
    return this.field(slot, 0, "") !== 0;
  }

  u8(slot: number, name: string, fallback = 0): number {
    const at = this.field(slot, 1, name);
    return at === 0 ? fallback : this.fb.view.getUint8(at);
  }

  u16(slot: number, name: string, fallback = 0): number {
    const at = this.field(slot, 2, name);
    return at === 0 ? fallback : this.fb.view.getUint16(at, true);
  }

  u32(slot: number, name: string, fallback = 0): number {
    const at = this.field(slot, 4, name);
    return at === 0 ? fallback : this.fb.view.getUint32(at, true);
  }

  i32(slot: number, name: string, fallback = 0): number {
    const at = this.field(slot, 4, name);
    return at === 0 ? fallback : this.fb.view.getInt32(at, true);
  }

  /** A u64 as a number; `CODEC_FAILED` past 2^53 − 1, which no offset, length or time reaches. */
  u64(slot: number, name: string, fallback = 0): number {
    const at = this.field(slot, 8, name);
    if (at === 0) return fallback;
    return readU64(this.fb, at, `field ${name} of ${this.what}`);
  }

  /** Position of an inline struct field of `size` bytes, or 0 when absent. */
  struct(slot: number, size: number, name: string): number {
    return this.field(slot, size, name);
  }

  /** Position of a struct field that must be present. */
  requiredStruct(slot: number, size: number, name: string): number {
    const at = this.field(slot, size, name);
    if (at === 0) this.missing(name);
    return at;
  }

  /** The target of offset field `slot`, or 0 when absent. */
  #target(slot: number, name: string): number {
    const at = this.field(slot, 4, name);
    if (at === 0) return 0;
    return at + this.fb.u32(at, `field ${name} of ${this.what}`);
  }

  missing(name: string): never {
    this.fb.fail(`${this.what} has no ${name}, a required field`);
  }

  /** A vector of `elementSize`-byte inline elements, or `undefined` when absent. */
  vector(slot: number, elementSize: number, name: string): InlineVector | undefined {
    const at = this.#target(slot, name);
    if (at === 0) return undefined;
    const length = this.fb.u32(at, `the length of ${name} of ${this.what}`);
    this.fb.check(at + 4, length * elementSize, `${name} of ${this.what}`);
    return { start: at + 4, length };
  }

  requiredVector(slot: number, elementSize: number, name: string): InlineVector {
    return this.vector(slot, elementSize, name) ?? this.missing(name);
  }

  /** A `[ubyte]` field as a view of the buffer, or `undefined` when absent. */
  bytes(slot: number, name: string): Uint8Array | undefined {
    const v = this.vector(slot, 1, name);
    return v === undefined ? undefined : this.fb.bytes.subarray(v.start, v.start + v.length);
  }

  /** A string field, or `undefined` when absent; invalid UTF-8 is `CODEC_FAILED`. */
  string(slot: number, name: string): string | undefined {
    const at = this.#target(slot, name);
    return at === 0 ? undefined : this.fb.stringAt(at, `${name} of ${this.what}`);
  }

  requiredString(slot: number, name: string): string {
    return this.string(slot, name) ?? this.missing(name);
  }

  /** The table of offset field `slot`, or `undefined` when absent. */
  table(slot: number, name: string): Table | undefined {
    const at = this.#target(slot, name);
    return at === 0 ? undefined : this.fb.table(at, `${name} of ${this.what}`);
  }

  /** A vector of tables, or `undefined` when absent. */
  tables(slot: number, name: string): TableVector | undefined {
    const v = this.vector(slot, 4, name);
    if (v === undefined) return undefined;
    const fb = this.fb;
    const what = `${name} of ${this.what}`;
    return {
      length: v.length,
      at(i: number): Table {
        const p = v.start + 4 * i;
        return fb.table(p + fb.view.getUint32(p, true), `${what}[${i}]`);
      },
    };
  }

  /** A vector of strings, or `undefined` when absent. */
  strings(slot: number, name: string): string[] | undefined {
    const v = this.vector(slot, 4, name);
    if (v === undefined) return undefined;
    const out: string[] = [];
    for (let i = 0; i < v.length; i++) {
      const p = v.start + 4 * i;
      out.push(this.fb.stringAt(p + this.fb.view.getUint32(p, true), `${name}[${i}] of ${this.what}`));
    }
    return out;
  }

  requiredTables(slot: number, name: string): TableVector {
    return this.tables(slot, name) ?? this.missing(name);
  }
}

/** The little-endian u64 at `pos` as a number; `CODEC_FAILED` past 2^53 − 1. */
export function readU64(fb: FlatBuffer, pos: number, what: string): number {
  const lo = fb.view.getUint32(pos, true);
  const hi = fb.view.getUint32(pos + 4, true);
  if (hi > 0x1fffff) fb.fail(`${what} is larger than 2^53 - 1`);
  return hi * 0x1_0000_0000 + lo;
}
