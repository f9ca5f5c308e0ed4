/**
 * The parsed central directory as the store keeps it: its entries and what was learnt
 * about the archive's layout. Shared by the directory parser and the local-header reader.
 */
/** One file of the archive, as its central directory header describes it. */
export interface ZipEntry {
  /** Normalised name (a store key, before any store prefix is removed). */
  readonly name: string;
  /** Compression method (0 stored, 8 deflate; others are listed but not readable). */
  readonly method: number;
  /** General purpose flags. */
  readonly flags: number;
  /** CRC-32 of the uncompressed bytes. */
  readonly crc32: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  /** Absolute offset of the local header in the archive value. */
  readonly localHeaderOffset: number;
  /** Length of the raw name and the central extra field (the local header usually has the same name and a similar extra field). */
  readonly nameLength: number;
  readonly extraLength: number;
  /** The data (and any data descriptor) must end here: the next local header or the central directory. */
  readonly dataLimit: number;
  /**
   * Where the data starts if the entry is laid out like every normal writer does (the
   * data ends where the next header begins); `undefined` when that cannot be derived
   * (data descriptors, encryption, implausible gaps).
   */
  readonly predictedDataOffset: number | undefined;
  /** Where the data starts according to the local header, once read. */
  dataOffset: number | undefined;
}

/** An entry that was left out of the store, and why. */
export interface SkippedEntry {
  name: string;
  reason: string;
}

/**
 * One central directory header as it stands in the archive (files, directories and
 * skipped names alike), so a writer appending to the archive can keep it verbatim.
 */
export interface CentralRecord {
  /** The raw header: fixed fields, name, extra field and comment. */
  readonly bytes: Uint8Array;
  /** The store key it serves (before any store prefix is removed), or `undefined` for directories and skipped names. */
  readonly key: string | undefined;
  /** The parsed entry when `key` is set. */
  readonly entry: ZipEntry | undefined;
}

/** The parsed central directory. */
export interface ZipDirectory {
  /** File entries by normalised name. */
  readonly entries: Map<string, ZipEntry>;
  /** Entries that are not keys of the store (unsafe names, duplicates). */
  readonly skipped: SkippedEntry[];
  /** The archive comment (decoded as UTF-8). */
  readonly comment: string;
  /** True when the archive has ZIP64 end records. */
  readonly zip64: boolean;
  /** Size of the archive value in bytes. */
  readonly archiveSize: number;
  /** Every central directory header, in directory order. */
  readonly records: readonly CentralRecord[];
  /** Absolute offset of the central directory (where an appending writer starts). */
  readonly centralDirectoryOffset: number;
  /** Bytes before the archive proper (a self-extracting stub); directory offsets are relative to them. */
  readonly prepended: number;
  /**
   * False once a local header contradicted a layout prediction: from then on data
   * offsets come only from local headers.
   */
  layoutTrusted: boolean;
}
