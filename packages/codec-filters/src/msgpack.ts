/**
 * A small MessagePack writer and reader with msgpack-python's choices: integers in the
 * smallest format, floats as float64 (or float32 with `useSingleFloat`), strings as
 * str8/16/32 and bytes as bin when `useBinType` (old raw format otherwise). The reader
 * checks every length against the bytes left before allocating anything, limits nesting,
 * rejects extension types and trailing bytes, and returns integers beyond 2^53 as bigints.
 */

/** A value the writer accepts and the reader produces. */
export type MsgpackValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | Uint8Array
  | MsgpackValue[]
  | { [key: string]: MsgpackValue };

/** Thrown for values that cannot be written and for malformed input. */
export class MsgpackError extends Error {}

/** Writer options (msgpack-python's `packb` arguments). */
export interface MsgpackWriteOptions {
  useBinType: boolean;
  useSingleFloat: boolean;
}

const encoder = new TextEncoder();

class Writer {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  pos = 0;

  private ensure(extra: number): void {
    if (this.pos + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  u8(tag: number, v: number): void {
    this.ensure(2);
    this.buf[this.pos++] = tag;
    this.buf[this.pos++] = v;
  }

  u16(tag: number, v: number): void {
    this.ensure(3);
    this.buf[this.pos++] = tag;
    this.view.setUint16(this.pos, v);
    this.pos += 2;
  }

  u32(tag: number, v: number): void {
    this.ensure(5);
    this.buf[this.pos++] = tag;
    this.view.setUint32(this.pos, v);
    this.pos += 4;
  }

  u64(tag: number, v: bigint): void {
    this.ensure(9);
    this.buf[this.pos++] = tag;
    this.view.setBigUint64(this.pos, BigInt.asUintN(64, v));
    this.pos += 8;
  }

  f32(v: number): void {
    this.ensure(5);
    this.buf[this.pos++] = 0xca;
    this.view.setFloat32(this.pos, v);
    this.pos += 4;
  }

  f64(v: number): void {
    this.ensure(9);
    this.buf[this.pos++] = 0xcb;
    this.view.setFloat64(this.pos, v);
    this.pos += 8;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  result(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}

function writeInt(w: Writer, v: bigint): void {
  if (v >= 0n) {
    if (v < 128n) w.byte(Number(v));
    else if (v < 256n) w.u8(0xcc, Number(v));
    else if (v < 65536n) w.u16(0xcd, Number(v));
    else if (v < 4294967296n) w.u32(0xce, Number(v));
    else if (v < 2n ** 64n) w.u64(0xcf, v);
    else throw new MsgpackError(`integer ${v} does not fit 64 bits`);
  } else if (v >= -32n) w.byte(0xe0 | (Number(v) & 0x1f));
  else if (v >= -128n) w.u8(0xd0, Number(v) & 0xff);
  else if (v >= -32768n) w.u16(0xd1, Number(v) & 0xffff);
  else if (v >= -(2n ** 31n)) w.u32(0xd2, Number(v) >>> 0);
  else if (v >= -(2n ** 63n)) w.u64(0xd3, v);
  else throw new MsgpackError(`integer ${v} does not fit 64 bits`);
}

function writeRaw(w: Writer, data: Uint8Array, isStr: boolean, useBinType: boolean): void {
  const n = data.length;
  if (isStr || !useBinType) {
    if (n < 32) w.byte(0xa0 | n);
    else if (n < 256 && useBinType) w.u8(0xd9, n);
    else if (n < 65536) w.u16(0xda, n);
    else w.u32(0xdb, n);
  } else if (n < 256) w.u8(0xc4, n);
  else if (n < 65536) w.u16(0xc5, n);
  else w.u32(0xc6, n);
  w.bytes(data);
}

/** Packs `value` as msgpack-python's `packb(value, use_bin_type=…, use_single_float=…)`. */
export function msgpackEncode(value: MsgpackValue, options: MsgpackWriteOptions): Uint8Array {
  const w = new Writer();
  const write = (v: MsgpackValue): void => {
    if (v === null) w.byte(0xc0);
    else if (v === false) w.byte(0xc2);
    else if (v === true) w.byte(0xc3);
    else if (typeof v === "bigint") writeInt(w, v);
    else if (typeof v === "number") {
      // MessagePack keeps ints and floats apart; JS numbers do not: integral ones are ints
      if (Number.isInteger(v) && Math.abs(v) < 2 ** 53) writeInt(w, BigInt(v));
      else if (options.useSingleFloat) w.f32(v);
      else w.f64(v);
    } else if (typeof v === "string") writeRaw(w, encoder.encode(v), true, options.useBinType);
    else if (v instanceof Uint8Array) writeRaw(w, v, false, options.useBinType);
    else if (Array.isArray(v)) {
      const n = v.length;
      if (n < 16) w.byte(0x90 | n);
      else if (n < 65536) w.u16(0xdc, n);
      else w.u32(0xdd, n);
      for (const item of v) write(item);
    } else {
      const keys = Object.keys(v);
      const n = keys.length;
      if (n < 16) w.byte(0x80 | n);
      else if (n < 65536) w.u16(0xde, n);
      else w.u32(0xdf, n);
      for (const key of keys) {
        write(key);
        write(v[key]);
      }
    }
  };
  write(value);
  return w.result();
}

const MAX_DEPTH = 512;

/**
 * Unpacks one MessagePack value that must span all of `bytes`, as msgpack-python's
 * `unpackb(bytes, raw=raw)`: with `raw`, strings come back as bytes.
 */
export function msgpackDecode(bytes: Uint8Array, raw: boolean): MsgpackValue {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let pos = 0;
  const fail = (what: string): never => {
    throw new MsgpackError(`${what} at byte ${pos}`);
  };
  const need = (k: number): void => {
    if (pos + k > bytes.length) fail(`${k} more bytes needed, ${bytes.length - pos} left`);
  };
  const readLength = (size: 1 | 2 | 4): number => {
    need(size);
    const v = size === 1 ? bytes[pos] : size === 2 ? view.getUint16(pos) : view.getUint32(pos);
    pos += size;
    return v;
  };
  const readRaw = (n: number, isStr: boolean): string | Uint8Array => {
    need(n);
    const data = bytes.subarray(pos, pos + n);
    pos += n;
    if (!isStr || raw) return data.slice();
    try {
      return decoder.decode(data);
    } catch {
      return fail("invalid UTF-8 in a string");
    }
  };
  const int64 = (v: bigint): number | bigint => (v >= -(2n ** 53n) && v <= 2n ** 53n ? Number(v) : v);
  const read = (depth: number): MsgpackValue => {
    if (depth > MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH} levels`);
    need(1);
    const tag = bytes[pos++];
    if (tag < 0x80) return tag;
    if (tag >= 0xe0) return tag - 0x100;
    if (tag >= 0xa0 && tag <= 0xbf) return readRaw(tag & 0x1f, true);
    if (tag >= 0x90 && tag <= 0x9f) return readArray(tag & 0x0f, depth);
    if (tag >= 0x80 && tag <= 0x8f) return readMap(tag & 0x0f, depth);
    switch (tag) {
      case 0xc0:
        return null;
      case 0xc2:
        return false;
      case 0xc3:
        return true;
      case 0xc4:
        return readRaw(readLength(1), false);
      case 0xc5:
        return readRaw(readLength(2), false);
      case 0xc6:
        return readRaw(readLength(4), false);
      case 0xca: {
        need(4);
        const v = view.getFloat32(pos);
        pos += 4;
        return v;
      }
      case 0xcb: {
        need(8);
        const v = view.getFloat64(pos);
        pos += 8;
        return v;
      }
      case 0xcc:
        return readLength(1);
      case 0xcd:
        return readLength(2);
      case 0xce:
        return readLength(4);
      case 0xcf: {
        need(8);
        const v = view.getBigUint64(pos);
        pos += 8;
        return int64(v);
      }
      case 0xd0:
        need(1);
        return view.getInt8(pos++);
      case 0xd1: {
        need(2);
        const v = view.getInt16(pos);
        pos += 2;
        return v;
      }
      case 0xd2: {
        need(4);
        const v = view.getInt32(pos);
        pos += 4;
        return v;
      }
      case 0xd3: {
        need(8);
        const v = view.getBigInt64(pos);
        pos += 8;
        return int64(v);
      }
      case 0xd9:
        return readRaw(readLength(1), true);
      case 0xda:
        return readRaw(readLength(2), true);
      case 0xdb:
        return readRaw(readLength(4), true);
      case 0xdc:
        return readArray(readLength(2), depth);
      case 0xdd:
        return readArray(readLength(4), depth);
      case 0xde:
        return readMap(readLength(2), depth);
      case 0xdf:
        return readMap(readLength(4), depth);
      default:
        return fail(tag >= 0xc7 && tag <= 0xd8 ? "extension types are not supported" : `invalid type byte 0x${tag.toString(16)}`);
    }
  };
  const readArray = (n: number, depth: number): MsgpackValue[] => {
    // every element takes at least one byte: a count beyond the input is corrupt
    if (n > bytes.length - pos) fail(`an array of ${n} elements cannot fit in ${bytes.length - pos} bytes`);
    const out = new Array<MsgpackValue>(n);
    for (let i = 0; i < n; i++) out[i] = read(depth + 1);
    return out;
  };
  const readMap = (n: number, depth: number): { [key: string]: MsgpackValue } => {
    if (2 * n > bytes.length - pos) fail(`a map of ${n} entries cannot fit in ${bytes.length - pos} bytes`);
    const out: { [key: string]: MsgpackValue } = {};
    for (let i = 0; i < n; i++) {
      const key = read(depth + 1);
      if (typeof key !== "string") fail("map keys must be strings");
      // defineProperty: a "__proto__" key must not replace the object's prototype
      Object.defineProperty(out, key as string, { value: read(depth + 1), enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  const value = read(0);
  if (pos !== bytes.length) fail(`${bytes.length - pos} bytes of extra data`);
  return value;
}
