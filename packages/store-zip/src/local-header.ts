/**
 * Local file headers: where an entry's data starts. The local header repeats the name
 * and has its own extra field (often longer than the central one: Info-ZIP adds access
 * times), so the data offset is only known for sure after reading it.
 */
import type { ArchiveSource } from "./archive-source.js";
import { corrupt } from "./errors.js";
import type { ZipDirectory, ZipEntry } from "./zip-directory.js";
import { LOCAL_HEADER_SIGNATURE, LOCAL_HEADER_SIZE, u16, u32 } from "./zip-format.js";

/** Bytes read beyond the guessed header end, so a slightly longer local extra field needs no second request. */
const HEADER_SLACK = 64;

/**
 * The absolute data offset given the 30 fixed bytes of a local header at `offset`, or
 * `undefined` when the signature is wrong.
 */
export function readLocalDataOffset(header: Uint8Array, offset: number): number | undefined {
  if (header.length < LOCAL_HEADER_SIZE || u32(header, 0) !== LOCAL_HEADER_SIGNATURE) return undefined;
  return offset + LOCAL_HEADER_SIZE + u16(header, 26) + u16(header, 28);
}

/** Records a data offset read from a local header, and distrusts the layout if it contradicts the prediction. */
function learn(directory: ZipDirectory, archive: string, entry: ZipEntry, dataOffset: number): void {
  if (dataOffset + entry.compressedSize > entry.dataLimit) {
    throw corrupt(archive, `data at ${dataOffset} (${entry.compressedSize} bytes) overlaps the next entry`, entry.name);
  }
  entry.dataOffset = dataOffset;
  if (entry.predictedDataOffset !== undefined && entry.predictedDataOffset !== dataOffset) directory.layoutTrusted = false;
}

/**
 * Reads the local header and the compressed data in one request (guessing the local
 * extra field from the central one, plus some slack), and re-reads the data if the local
 * extra field turned out longer.
 */
export async function readHeaderAndData(
  src: ArchiveSource,
  directory: ZipDirectory,
  entry: ZipEntry,
  signal: AbortSignal | undefined,
): Promise<Uint8Array> {
  const start = entry.localHeaderOffset;
  const guess = LOCAL_HEADER_SIZE + entry.nameLength + entry.extraLength + HEADER_SLACK;
  const end = Math.min(start + guess + entry.compressedSize, entry.dataLimit);
  const bytes = await src.read(start, end, signal, entry.name);
  const dataOffset = readLocalDataOffset(bytes, start);
  if (dataOffset === undefined) throw corrupt(src.key, `no local file header at offset ${start}`, entry.name);
  learn(directory, src.key, entry, dataOffset);
  const dataEnd = dataOffset + entry.compressedSize;
  if (dataEnd <= end) return bytes.subarray(dataOffset - start, dataEnd - start);
  return src.read(dataOffset, dataEnd, signal, entry.name);
}

/**
 * The data offset of an entry: known from an earlier local header, predicted from the
 * layout (when the archive's layout has not been contradicted), or read from the 30-byte
 * local header (one small request).
 */
export async function dataOffsetOf(
  src: ArchiveSource,
  directory: ZipDirectory,
  entry: ZipEntry,
  signal: AbortSignal | undefined,
): Promise<number> {
  if (entry.dataOffset !== undefined) return entry.dataOffset;
  if (directory.layoutTrusted && entry.predictedDataOffset !== undefined) return entry.predictedDataOffset;
  const start = entry.localHeaderOffset;
  const header = await src.read(start, start + LOCAL_HEADER_SIZE, signal, entry.name);
  const dataOffset = readLocalDataOffset(header, start);
  if (dataOffset === undefined) throw corrupt(src.key, `no local file header at offset ${start}`, entry.name);
  learn(directory, src.key, entry, dataOffset);
  return dataOffset;
}
