/**
 * Reading the `.npy` file of `zarr put --from`: the magic and header first (a file that
 * is not `.npy`, such as `/dev/zero`, fails after a dozen bytes), then exactly the data
 * bytes the header announces, read sequentially so pipes and devices work too. A regular
 * file too short for its header is refused before anything large is allocated.
 */
import { createHash } from "node:crypto";
import { type FileHandle, open } from "node:fs/promises";
import { shapeSize, ZarrError } from "@zarr/spec";
import { parseDescr } from "./npy-dtypes.js";
import { malformed, npyHeaderExtent, parseNpyHeader } from "./npy-header.js";

/** The bytes of a `.npy` file (header and data) and their SHA-256, which identifies the input of a put. */
export interface NpyInput {
  bytes: Uint8Array;
  /** Hex SHA-256 of `bytes`. */
  sha256: string;
}

/** Largest piece read at once from a pipe or device, whose size is unknown beforehand. */
const STREAM_PIECE = 16 << 20;

function cannotRead(file: string, error: unknown): ZarrError {
  const code = (error as NodeJS.ErrnoException).code;
  const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (error as Error).message;
  return new ZarrError("INVALID_ARGUMENT", `Cannot read "${file}": ${why}`, { cause: error });
}

/** Fills `into` from the current position; resolves how many bytes were read (fewer at end of file). */
async function readFully(handle: FileHandle, into: Uint8Array): Promise<number> {
  let done = 0;
  while (done < into.length) {
    const { bytesRead } = await handle.read(into, done, into.length - done, null);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done;
}

/**
 * Reads exactly `need` bytes from a pipe or device, or throws naming how many it held. It
 * grows with what arrives, so a short stream never allocates `need` bytes at once.
 */
async function readStream(handle: FileHandle, need: number, file: string, announced: string): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  let total = 0;
  while (total < need) {
    const piece = new Uint8Array(Math.min(STREAM_PIECE, need - total));
    const got = await readFully(handle, piece);
    pieces.push(piece.subarray(0, got));
    total += got;
    if (got < piece.length) malformed(file, `${announced} needs ${need} data bytes, but the input held only ${total}`);
  }
  if (pieces.length === 1) return pieces[0];
  const data = new Uint8Array(need);
  let at = 0;
  for (const piece of pieces) {
    data.set(piece, at);
    at += piece.length;
  }
  return data;
}

/**
 * Reads a `.npy` file header first: the magic and version (12 bytes at most), the header
 * dict (at most 1 MiB), then the data bytes its shape and dtype need. Throws
 * `INVALID_ARGUMENT` naming the file for a missing or unreadable file, a wrong magic, or
 * too little data. Bytes after the data are not read.
 *
 * @example
 * ```ts
 * const { bytes, sha256 } = await readNpyInput("t.npy");
 * const npy = await decodeNpy(bytes, "t.npy", cliRegistry());
 * ```
 */
export async function readNpyInput(file: string): Promise<NpyInput> {
  let handle: FileHandle;
  try {
    handle = await open(file, "r");
  } catch (error) {
    throw cannotRead(file, error);
  }
  try {
    const regular = (await handle.stat()).isFile();
    // Magic (6), version (2), header length (2 in version 1, else 4).
    const prologue = new Uint8Array(12);
    let got = await readFully(handle, prologue.subarray(0, 10));
    if (got === 10 && prologue[6] >= 2) got += await readFully(handle, prologue.subarray(10, 12));
    const { start, headerLength } = npyHeaderExtent(prologue.subarray(0, got), file);
    const head = new Uint8Array(start + headerLength);
    head.set(prologue.subarray(0, start));
    const headerGot = await readFully(handle, head.subarray(start));
    if (headerGot < headerLength) {
      malformed(file, `the header claims ${headerLength} bytes but the file has only ${headerGot} after it`);
    }
    const header = parseNpyHeader(head, file);
    // A structured dtype is refused when decoding; read no data for it.
    const need = typeof header.descr === "string" ? shapeSize(header.shape) * parseDescr(header.descr, file).itemSize : 0;
    const announced = `shape (${header.shape.join(", ")}) of ${String(header.descr)}`;
    let bytes: Uint8Array;
    if (regular) {
      const held = (await handle.stat()).size - head.length;
      if (held < need) malformed(file, `${announced} needs ${need} data bytes, but the file holds only ${held}`);
      bytes = new Uint8Array(head.length + need);
      bytes.set(head, 0);
      const got = await readFully(handle, bytes.subarray(head.length));
      if (got < need) malformed(file, `${announced} needs ${need} data bytes, but the file holds only ${got}`);
    } else {
      const data = await readStream(handle, need, file, announced);
      bytes = new Uint8Array(head.length + need);
      bytes.set(head, 0);
      bytes.set(data, head.length);
    }
    return { bytes, sha256: createHash("sha256").update(bytes).digest("hex") };
  } catch (error) {
    if (error instanceof ZarrError) throw error;
    throw cannotRead(file, error);
  } finally {
    await handle.close().catch(() => undefined);
  }
}
