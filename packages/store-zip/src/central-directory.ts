/**
 * Opening an archive: find the end of central directory record (and the ZIP64 records
 * when present) in one suffix read, then parse the central directory into a map of
 * entries. At most two requests to the source: the suffix, and the central directory
 * when it does not already lie inside the suffix.
 */
import type { ArchiveSource } from "./archive-source.js";
import { decodeEntryName, normaliseEntryName } from "./entry-names.js";
import { corrupt, zipError } from "./errors.js";
import { findExtraField } from "./extra-fields.js";
import { readLocalDataOffset } from "./local-header.js";
import type { CentralRecord, SkippedEntry, ZipDirectory, ZipEntry } from "./zip-directory.js";
import {
  CENTRAL_HEADER_SIGNATURE,
  CENTRAL_HEADER_SIZE,
  EOCD_SIGNATURE,
  EOCD_SIZE,
  FLAG_DATA_DESCRIPTOR,
  FLAG_ENCRYPTED,
  LOCAL_HEADER_SIZE,
  MAX_COMMENT_LENGTH,
  MAX_U16,
  MAX_U32,
  u16,
  u32,
  u64,
  ZIP64_EOCD_SIGNATURE,
  ZIP64_EOCD_SIZE,
  ZIP64_EXTRA_ID,
  ZIP64_LOCATOR_SIGNATURE,
  ZIP64_LOCATOR_SIZE,
} from "./zip-format.js";

/** How much of the archive's end the first request reads: the largest EOCD (with a full comment) plus the ZIP64 locator and record. */
export const TAIL_READ_BYTES = EOCD_SIZE + MAX_COMMENT_LENGTH + ZIP64_LOCATOR_SIZE + ZIP64_EOCD_SIZE;

/** Returns the position of the EOCD record in `tail`, or -1. */
function findEndRecord(tail: Uint8Array): number {
  const last = tail.length - EOCD_SIZE;
  const first = Math.max(0, last - MAX_COMMENT_LENGTH);
  let fallback = -1;
  for (let p = last; p >= first; p--) {
    if (tail[p] !== 0x50 || u32(tail, p) !== EOCD_SIGNATURE) continue;
    const end = p + EOCD_SIZE + u16(tail, p + 20);
    // A record whose comment ends exactly at the end of the archive is the real one (a
    // comment may itself contain the signature); otherwise accept the last plausible one
    // (some tools append junk after the comment).
    if (end === tail.length) return p;
    if (fallback < 0 && end <= tail.length) fallback = p;
  }
  return fallback;
}

/** Finds the ZIP64 EOCD record that ends right at the locator (its size field says where it ends). */
function findZip64Record(tail: Uint8Array, locatorPos: number): number {
  const expected = locatorPos - ZIP64_EOCD_SIZE;
  for (let p = expected; p >= 0; p--) {
    if (tail[p] !== 0x50 || u32(tail, p) !== ZIP64_EOCD_SIGNATURE) continue;
    const size = u64(tail, p + 4);
    if (size !== undefined && p + 12 + size === locatorPos) return p;
  }
  return -1;
}

interface EndRecords {
  entryCount: number;
  cdSize: number;
  cdOffset: number;
  /** Position in the tail where the central directory should end (the first end record). */
  cdEndInTail: number;
  /** Offset of the ZIP64 record as the locator states it (for positioning a partial tail). */
  zip64Offset: number | undefined;
  comment: string;
}

function readEndRecords(archive: string, tail: Uint8Array): EndRecords {
  const eocd = findEndRecord(tail);
  if (eocd < 0) {
    throw corrupt(archive, "no end of central directory record (not a zip archive, or truncated)");
  }
  const commentLength = Math.min(u16(tail, eocd + 20), tail.length - eocd - EOCD_SIZE);
  const comment = new TextDecoder().decode(tail.subarray(eocd + EOCD_SIZE, eocd + EOCD_SIZE + commentLength));
  let disk = u16(tail, eocd + 4);
  let cdDisk = u16(tail, eocd + 6);
  let entryCount = u16(tail, eocd + 10);
  let cdSize = u32(tail, eocd + 12);
  let cdOffset = u32(tail, eocd + 16);
  const saturated =
    disk === MAX_U16 || cdDisk === MAX_U16 || entryCount === MAX_U16 || cdSize === MAX_U32 || cdOffset === MAX_U32;

  const locator = eocd - ZIP64_LOCATOR_SIZE;
  const record = locator >= 0 && u32(tail, locator) === ZIP64_LOCATOR_SIGNATURE ? findZip64Record(tail, locator) : -1;
  if (record < 0) {
    if (saturated && locator >= 0 && u32(tail, locator) === ZIP64_LOCATOR_SIGNATURE) {
      throw corrupt(archive, "the ZIP64 end of central directory record is missing");
    }
    if (disk !== 0 || cdDisk !== 0) {
      throw zipError("UNSUPPORTED", archive, "multi-disk (split or spanned) archives are not supported");
    }
    return { entryCount, cdSize, cdOffset, cdEndInTail: eocd, zip64Offset: undefined, comment };
  }
  // ZIP64: the record's values replace the saturated 16/32-bit ones.
  const totalDisks = u32(tail, locator + 16);
  const zip64Offset = u64(tail, locator + 8);
  disk = u32(tail, record + 16);
  cdDisk = u32(tail, record + 20);
  const count = u64(tail, record + 32);
  const size = u64(tail, record + 40);
  const offset = u64(tail, record + 48);
  if (zip64Offset === undefined || count === undefined || size === undefined || offset === undefined) {
    throw corrupt(archive, "the ZIP64 end of central directory record holds impossible sizes");
  }
  if (disk !== 0 || cdDisk !== 0 || totalDisks > 1) {
    throw zipError("UNSUPPORTED", archive, "multi-disk (split or spanned) archives are not supported");
  }
  entryCount = count;
  cdSize = size;
  cdOffset = offset;
  return { entryCount, cdSize, cdOffset, cdEndInTail: record, zip64Offset, comment };
}

/**
 * Reads and parses the archive's directory: one suffix read, plus one read of the central
 * directory when it is not inside the suffix.
 */
export async function readDirectory(src: ArchiveSource, signal: AbortSignal | undefined): Promise<ZipDirectory> {
  const archive = src.key;
  const { bytes: tail, whole } = await src.readTail(TAIL_READ_BYTES, signal);
  const end = readEndRecords(archive, tail);

  // Where the tail starts in the archive, and how many bytes of other data precede the
  // archive proper (self-extracting stubs): offsets in the directory are relative to it.
  let tailStart: number;
  let shift = 0;
  if (whole) {
    tailStart = 0;
    shift = end.cdEndInTail - (end.cdOffset + end.cdSize);
    if (shift < 0) {
      throw corrupt(archive, `the central directory (offset ${end.cdOffset}, ${end.cdSize} bytes) runs past its end record`);
    }
  } else if (end.zip64Offset !== undefined) {
    tailStart = end.zip64Offset - end.cdEndInTail;
  } else {
    tailStart = end.cdOffset + end.cdSize - end.cdEndInTail;
  }
  if (tailStart < 0 || end.cdOffset + end.cdSize > tailStart + end.cdEndInTail - shift) {
    throw corrupt(
      archive,
      `the central directory (offset ${end.cdOffset}, ${end.cdSize} bytes) does not fit before its end record`,
    );
  }
  const archiveSize = tailStart + tail.length;
  // Every header is at least 46 bytes: a count beyond that is a lie (and a huge loop).
  if (end.entryCount > end.cdSize / CENTRAL_HEADER_SIZE) {
    throw corrupt(archive, `${end.entryCount} entries claimed in a central directory of ${end.cdSize} bytes`);
  }

  const cdStart = end.cdOffset + shift;
  const cdEnd = cdStart + end.cdSize;
  let cd: Uint8Array;
  if (cdStart < tailStart) {
    // Read by absolute offset: a wrong offset shows as a bad header signature.
    cd = await src.read(cdStart, cdEnd, signal);
  } else {
    cd = tail.subarray(cdStart - tailStart, cdEnd - tailStart);
    if (!whole && cd.length > 0) {
      // The tail was placed in the archive from the directory's own offsets, which bytes
      // prepended to the archive would shift without any sign inside the tail. One small
      // read by absolute offset (the second and last request of the open) settles it, so
      // later range reads of stored entries can trust offsets without reading headers.
      const check = await src.read(cdStart, cdStart + 4, signal);
      if (u32(check, 0) !== CENTRAL_HEADER_SIGNATURE) {
        throw corrupt(archive, `the central directory is not at offset ${cdStart} (bytes prepended to the archive?)`);
      }
    }
  }
  const directory = parseCentralDirectory(archive, cd, end.entryCount, shift, cdStart, archiveSize, end.comment, end.zip64Offset !== undefined);
  verifyLayoutFromTail(directory, tail, tailStart);
  return directory;
}

interface RawEntry {
  offset: number;
  entry: ZipEntryDraft | undefined;
}

type ZipEntryDraft = Omit<ZipEntry, "dataLimit" | "predictedDataOffset"> & {
  dataLimit: number;
  predictedDataOffset: number | undefined;
};

function parseCentralDirectory(
  archive: string,
  cd: Uint8Array,
  declaredCount: number,
  shift: number,
  cdStart: number,
  archiveSize: number,
  comment: string,
  zip64: boolean,
): ZipDirectory {
  const entries = new Map<string, ZipEntry>();
  const skipped: SkippedEntry[] = [];
  // Every local header offset (files, directories, skipped names): the boundaries that
  // tell where each entry's data must end.
  const headers: RawEntry[] = [];
  const records: CentralRecord[] = [];
  let at = 0;
  let count = 0;
  while (at < cd.length) {
    if (at + CENTRAL_HEADER_SIZE > cd.length || u32(cd, at) !== CENTRAL_HEADER_SIGNATURE) {
      throw corrupt(archive, `bad central directory header at byte ${cdStart + at}`);
    }
    const flags = u16(cd, at + 8);
    const method = u16(cd, at + 10);
    const crc = u32(cd, at + 16);
    let compressedSize = u32(cd, at + 20);
    let uncompressedSize = u32(cd, at + 24);
    const nameLength = u16(cd, at + 28);
    const extraLength = u16(cd, at + 30);
    const commentLength = u16(cd, at + 32);
    let offset = u32(cd, at + 42);
    const next = at + CENTRAL_HEADER_SIZE + nameLength + extraLength + commentLength;
    if (next > cd.length) throw corrupt(archive, `central directory header at byte ${cdStart + at} runs past the directory`);
    const rawName = cd.subarray(at + CENTRAL_HEADER_SIZE, at + CENTRAL_HEADER_SIZE + nameLength);
    const extra = cd.subarray(at + CENTRAL_HEADER_SIZE + nameLength, at + CENTRAL_HEADER_SIZE + nameLength + extraLength);
    const name = decodeEntryName(rawName, flags, extra);

    if (uncompressedSize === MAX_U32 || compressedSize === MAX_U32 || offset === MAX_U32) {
      // ZIP64 extra field: the 64-bit values, in this order, for exactly the saturated fields.
      const z = findExtraField(extra, ZIP64_EXTRA_ID);
      let p = 0;
      const take = (): number => {
        const v = z !== undefined && p + 8 <= z.length ? u64(z, p) : undefined;
        if (v === undefined) throw corrupt(archive, "missing or impossible ZIP64 sizes", name);
        p += 8;
        return v;
      };
      if (uncompressedSize === MAX_U32) uncompressedSize = take();
      if (compressedSize === MAX_U32) compressedSize = take();
      if (offset === MAX_U32) offset = take();
    }
    const bytes = cd.subarray(at, next);
    at = next;
    count++;

    const localHeaderOffset = offset + shift;
    const normalised = normaliseEntryName(name);
    if (normalised.kind !== "file") {
      headers.push({ offset: localHeaderOffset, entry: undefined });
      records.push({ bytes, key: undefined, entry: undefined });
      if (normalised.kind === "rejected") skipped.push({ name, reason: normalised.reason });
      continue;
    }
    if (localHeaderOffset + LOCAL_HEADER_SIZE + compressedSize > cdStart) {
      throw corrupt(
        archive,
        `data (${compressedSize} bytes at offset ${localHeaderOffset}) runs past the central directory at ${cdStart}`,
        name,
      );
    }
    const entry: ZipEntryDraft = {
      name: normalised.key,
      method,
      flags,
      crc32: crc,
      compressedSize,
      uncompressedSize,
      localHeaderOffset,
      nameLength,
      extraLength,
      dataLimit: cdStart,
      predictedDataOffset: undefined,
      dataOffset: undefined,
    };
    headers.push({ offset: localHeaderOffset, entry });
    records.push({ bytes, key: entry.name, entry });
    if (entries.has(entry.name)) {
      skipped.push({ name, reason: "duplicate name: the later entry wins" });
      // Python's zipfile resolves duplicates the same way.
      entries.delete(entry.name);
    }
    entries.set(entry.name, entry);
  }
  // Old writers overflow the 16-bit count without ZIP64; the low bits must still agree.
  if (count !== declaredCount && (count & 0xffff) !== (declaredCount & 0xffff)) {
    throw corrupt(archive, `the central directory holds ${count} entries but the end record says ${declaredCount}`);
  }
  predictLayout(headers, cdStart);
  return {
    entries,
    skipped,
    comment,
    zip64,
    archiveSize,
    records,
    centralDirectoryOffset: cdStart,
    prepended: shift,
    layoutTrusted: true,
  };
}

/**
 * How much longer than the central extra field a local extra field may be for the
 * layout prediction to be believed. Writers differ by a few bytes (Info-ZIP's local
 * time stamps hold more times; Python puts a 20-byte ZIP64 field in the local header
 * only). Anything longer is taken for a gap between entries (bytes no entry of the
 * directory owns: an entry rewritten or deleted by an appending writer), which the
 * smallest possible entry (30-byte header, 1-byte name) makes at least 31 bytes long.
 */
const LOCAL_EXTRA_SLACK = 20;

/**
 * Derives where each entry's data starts from where the next header begins: a writer
 * puts the data right after the local header and the next header right after the data
 * (unless a data descriptor follows, whose size varies). This lets a byte range of a
 * stored entry be read in one request without first reading its local header. When the
 * space left for the local extra field is more than the central one plus a little,
 * there may be a gap instead, and the offset is left to the local header.
 */
function predictLayout(headers: RawEntry[], cdStart: number): void {
  headers.sort((a, b) => a.offset - b.offset);
  let boundary = cdStart;
  for (let i = headers.length - 1; i >= 0; i--) {
    const { offset, entry } = headers[i];
    if (entry !== undefined) {
      entry.dataLimit = boundary;
      if ((entry.flags & (FLAG_DATA_DESCRIPTOR | FLAG_ENCRYPTED)) === 0) {
        const predicted = boundary - entry.compressedSize;
        const localExtra = predicted - (offset + LOCAL_HEADER_SIZE + entry.nameLength);
        if (localExtra >= 0 && localExtra <= Math.min(MAX_U16, entry.extraLength + LOCAL_EXTRA_SLACK)) {
          entry.predictedDataOffset = predicted;
        }
      }
    }
    if (offset < boundary) boundary = offset;
  }
}

/**
 * Checks the layout predictions against the local headers that happen to lie inside the
 * tail already read (free): one contradiction means this writer leaves gaps, and data
 * offsets must then come from local headers.
 */
function verifyLayoutFromTail(directory: ZipDirectory, tail: Uint8Array, tailStart: number): void {
  for (const entry of directory.entries.values()) {
    const at = entry.localHeaderOffset - tailStart;
    if (at < 0 || at + LOCAL_HEADER_SIZE > tail.length) continue;
    const dataOffset = readLocalDataOffset(tail.subarray(at, at + LOCAL_HEADER_SIZE), entry.localHeaderOffset);
    if (dataOffset === undefined) continue; // reported when the entry is read
    entry.dataOffset = dataOffset;
    if (entry.predictedDataOffset !== undefined && entry.predictedDataOffset !== dataOffset) directory.layoutTrusted = false;
  }
}
