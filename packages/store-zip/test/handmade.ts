/**
 * Hand-built zip archives with features our writer never produces: data descriptors,
 * long local extra fields, gaps between entries, prepended bytes. Built field by field
 * from the APPNOTE layouts, independently of the package's writer.
 */
import { crc32 } from "../src/crc32.js";

export interface HandEntry {
  name: string;
  data: Uint8Array;
  /** Set bit 3 and write a data descriptor (sizes and CRC zero in the local header). */
  descriptor?: boolean;
  /** Bytes of extra field in the local header only. */
  localExtra?: number;
  /** Junk bytes after the entry's data (what no normal writer does). */
  gapAfter?: number;
}

function u16(v: number): number[] {
  return [v & 0xff, (v >>> 8) & 0xff];
}
function u32(v: number): number[] {
  return [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff];
}

/** A STORED archive of `entries`, optionally after `prefixBytes` bytes of junk (offsets relative to the archive). */
export function handZip(entries: HandEntry[], prefixBytes = 0): Uint8Array {
  const out: number[] = [];
  const central: number[] = [];
  for (const e of entries) {
    const name = [...new TextEncoder().encode(e.name)];
    const crc = crc32(e.data);
    const flags = e.descriptor ? 8 : 0;
    const offset = out.length;
    const extra: number[] = [];
    if (e.localExtra) {
      // An unknown extra block (id 0xcafe) of the requested total size.
      extra.push(...u16(0xcafe), ...u16(e.localExtra - 4), ...new Array(e.localExtra - 4).fill(7));
    }
    const known = !e.descriptor;
    out.push(
      ...u32(0x04034b50),
      ...u16(10),
      ...u16(flags),
      ...u16(0),
      ...u16(0),
      ...u16(0x21),
      ...u32(known ? crc : 0),
      ...u32(known ? e.data.length : 0),
      ...u32(known ? e.data.length : 0),
      ...u16(name.length),
      ...u16(extra.length),
      ...name,
      ...extra,
      ...e.data,
    );
    if (e.descriptor) out.push(...u32(0x08074b50), ...u32(crc), ...u32(e.data.length), ...u32(e.data.length));
    if (e.gapAfter) out.push(...new Array(e.gapAfter).fill(0x55));
    central.push(
      ...u32(0x02014b50),
      ...u16(20),
      ...u16(10),
      ...u16(flags),
      ...u16(0),
      ...u16(0),
      ...u16(0x21),
      ...u32(crc),
      ...u32(e.data.length),
      ...u32(e.data.length),
      ...u16(name.length),
      ...u16(0),
      ...u16(0),
      ...u16(0),
      ...u16(0),
      ...u32(0),
      ...u32(offset),
      ...name,
    );
  }
  const cdOffset = out.length;
  out.push(...central);
  out.push(
    ...u32(0x06054b50),
    ...u16(0),
    ...u16(0),
    ...u16(entries.length),
    ...u16(entries.length),
    ...u32(central.length),
    ...u32(cdOffset),
    ...u16(0),
  );
  const archive = new Uint8Array(prefixBytes + out.length);
  archive.fill(0x33, 0, prefixBytes);
  archive.set(out, prefixBytes);
  return archive;
}
