/**
 * The binary envelope of every Icechunk metadata file (repo info, snapshot, manifest,
 * transaction log): magic bytes, writer name, spec version, file type and compression,
 * then the (usually zstd-compressed) flatbuffers payload.
 */
import { zstdDecompress } from "@zarr/codec-zstd";
import { ZarrError } from "@zarr/spec";
import { corrupt, icechunkError } from "./errors.js";

/** `ICE🧊CHUNK` in UTF-8. */
const MAGIC = [0x49, 0x43, 0x45, 0xf0, 0x9f, 0xa7, 0x8a, 0x43, 0x48, 0x55, 0x4e, 0x4b];
const NAME_BYTES = 24;
/** Bytes before the payload: magic, writer name, spec version, file type, compression. */
export const HEADER_BYTES = MAGIC.length + NAME_BYTES + 3;

/** The file types of the header's type byte. */
export const FileType = { Snapshot: 1, Manifest: 2, TransactionLog: 4, RepoInfo: 6 } as const;
/** One of {@link FileType}'s values. */
export type FileTypeCode = (typeof FileType)[keyof typeof FileType];

const TYPE_NAMES: Record<number, string> = { 1: "snapshot", 2: "manifest", 4: "transaction log", 6: "repo info" };
/** Spec versions this reader knows: 1 (Icechunk 1.x) and 2 (Icechunk 2.x, including spec 2.1). */
const KNOWN_SPEC_VERSIONS = new Set([1, 2]);

/** What the header says. */
export interface FileHeader {
  /** The writer's name, e.g. `ic-2.0.0`. */
  writer: string;
  specVersion: number;
  fileType: number;
  /** 0 = none, 1 = zstd. */
  compression: number;
}

/** A decoded metadata file: its header and its uncompressed flatbuffers payload. */
export interface IcechunkFile {
  header: FileHeader;
  payload: Uint8Array;
}

/** Reads and checks the header of `bytes`, the file stored under `object`. */
export function parseHeader(bytes: Uint8Array, object: string): FileHeader {
  if (bytes.length < HEADER_BYTES) throw corrupt(object, `${bytes.length} bytes, shorter than the ${HEADER_BYTES}-byte header`);
  for (let i = 0; i < MAGIC.length; i++) {
    if (bytes[i] !== MAGIC[i]) throw corrupt(object, "wrong magic bytes (not an Icechunk file)");
  }
  const writer = new TextDecoder().decode(bytes.subarray(MAGIC.length, MAGIC.length + NAME_BYTES)).trimEnd();
  const at = MAGIC.length + NAME_BYTES;
  return { writer, specVersion: bytes[at], fileType: bytes[at + 1], compression: bytes[at + 2] };
}

/**
 * The payload of the file `object`, checked to be of `expected` type: `UNSUPPORTED` for a
 * spec version or compression this reader does not know, `CODEC_FAILED` for wrong magic,
 * a wrong file type, truncation or a payload that does not decompress.
 */
export function openFile(bytes: Uint8Array, object: string, expected: FileTypeCode, maxBytes: number): IcechunkFile {
  const header = parseHeader(bytes, object);
  if (!KNOWN_SPEC_VERSIONS.has(header.specVersion)) {
    throw icechunkError("UNSUPPORTED", object, `spec version ${header.specVersion} is not supported (this reader knows 1 and 2; written by "${header.writer}")`);
  }
  if (header.fileType !== expected) {
    const found = TYPE_NAMES[header.fileType] ?? `unknown type ${header.fileType}`;
    throw corrupt(object, `expected a ${TYPE_NAMES[expected]} file, found a ${found} file`);
  }
  const body = bytes.subarray(HEADER_BYTES);
  if (header.compression === 0) return { header, payload: body };
  if (header.compression !== 1) {
    throw icechunkError("UNSUPPORTED", object, `compression algorithm ${header.compression} is not supported (0 = none, 1 = zstd)`);
  }
  let payload: Uint8Array;
  try {
    payload = zstdDecompress(body);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw corrupt(object, `the zstd payload does not decode (${detail})`, error);
  }
  if (payload.length > maxBytes) {
    throw icechunkError("STORE_TOO_LARGE", object, `the payload decodes to ${payload.length} bytes, more than the limit of ${maxBytes}`);
  }
  return { header, payload };
}

/** Rethrows anything but a `ZarrError` as a corrupt-file error of `object`. */
export function asCorrupt(error: unknown, object: string): ZarrError {
  if (error instanceof ZarrError) return error;
  return corrupt(object, error instanceof Error ? error.message : String(error), error);
}
