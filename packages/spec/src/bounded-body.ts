/**
 * Reading a body that arrives in pieces (an HTTP response, an S3 `GetObject` stream)
 * within bounds. A hostile or broken server can send an endless body, ignore `Range` and
 * send a whole large object, or a small gzip body that inflates to gigabytes: every body
 * is read with a running count of its bytes, and a read that needs only part of a body
 * stops as soon as it has that part (the rest is never transferred). Each store adapter
 * turns its body into {@link BodyPieces}; the bounds are kept here, once.
 */
import { BodyLimitExceeded } from "./store.js";

/**
 * A body as a sequence of pieces: calls `sink` with each piece in order and resolves when
 * the body ends. When `sink` throws, the body must be abandoned (its rest not read, its
 * stream cancelled) and the promise reject with that error. A piece is only valid during
 * the call (a transport may lend its read buffer): copy what you keep.
 */
export type BodyPieces = (sink: (piece: Uint8Array) => void) => Promise<void>;

/** Thrown by a sink to stop reading a body once it has what it needs. */
class StopReading extends Error {}

/**
 * Pipes the body to `sink(piece, at)` (`at`: the piece's offset in the body) until it
 * ends or `sink` returns true ("done": the rest is not read). Fails with
 * `BodyLimitExceeded` (saying `what` was too large) once more than `limit` bytes arrived.
 * Resolves the bytes received and whether the body ended.
 *
 * @example
 * ```ts
 * const { received } = await pipeWithinLimit(pieces, 1 << 20, (piece, at) => false, "the response body");
 * ```
 */
export async function pipeWithinLimit(
  pieces: BodyPieces,
  limit: number,
  sink: (piece: Uint8Array, at: number) => boolean,
  what = "the body",
): Promise<{ received: number; ended: boolean }> {
  let received = 0;
  try {
    await pieces((piece) => {
      if (received + piece.length > limit) throw new BodyLimitExceeded(limit, what);
      const done = sink(piece, received);
      received += piece.length;
      if (done) throw new StopReading();
    });
  } catch (error) {
    if (error instanceof StopReading) return { received, ended: false };
    throw error;
  }
  return { received, ended: true };
}

/**
 * The first `length` bytes of `pieces` joined into one plain `Uint8Array` on its own
 * ArrayBuffer (byteOffset 0): the one piece itself when it already is exactly that, else
 * a copy (so a Node `Buffer`, or a view of a larger buffer, is never returned).
 *
 * @example
 * ```ts
 * joinPieces([new Uint8Array([1, 2]), new Uint8Array([3])], 3); // Uint8Array [1, 2, 3]
 * ```
 */
export function joinPieces(pieces: readonly Uint8Array[], length: number): Uint8Array {
  const only = pieces.length === 1 ? pieces[0] : undefined;
  if (only?.constructor === Uint8Array && only.length === length && only.byteOffset === 0 && only.buffer.byteLength === length) return only;
  const out = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    if (at >= length) break;
    out.set(piece.subarray(0, Math.min(piece.length, length - at)), at);
    at += piece.length;
  }
  return out;
}

/**
 * Bytes `[from, to)` of a value from a body whose first byte is byte `bodyStart` of the
 * value (`to` may be `Infinity`: up to the end). Stops reading once byte `to` has
 * arrived; a body ending first gives fewer bytes (clamped like HTTP). At most `limit`
 * bytes are streamed (`BodyLimitExceeded`). The result owns its ArrayBuffer.
 *
 * @example
 * ```ts
 * const bytes = await readBodyWindow(pieces, 0, 100, 200, maxValueBytes); // a server that ignored Range
 * ```
 */
export async function readBodyWindow(
  pieces: BodyPieces,
  bodyStart: number,
  from: number,
  to: number,
  limit: number,
  what?: string,
): Promise<Uint8Array> {
  const kept: Uint8Array[] = [];
  let length = 0;
  await pipeWithinLimit(
    pieces,
    limit,
    (piece, at) => {
      const start = bodyStart + at; // value offset of the piece's first byte
      const end = start + piece.length;
      const a = Math.max(from, start);
      const b = Math.min(to, end);
      // A copy (the piece is only lent for the call), plain: a Node Buffer's slice would be a view.
      if (a < b) {
        kept.push(new Uint8Array(piece.subarray(a - start, b - start)));
        length += b - a;
      }
      return end >= to;
    },
    what,
  );
  return joinPieces(kept, length);
}

/**
 * The last `n` bytes of a body (all of it when shorter), keeping no more than about `n`
 * bytes in memory however long the body is. At most `limit` bytes are streamed.
 *
 * @example
 * ```ts
 * const index = await readBodyTail(pieces, 16, maxValueBytes); // a suffix range a server ignored
 * ```
 */
export async function readBodyTail(pieces: BodyPieces, n: number, limit: number, what?: string): Promise<Uint8Array> {
  const kept: Uint8Array[] = [];
  let length = 0;
  await pipeWithinLimit(
    pieces,
    limit,
    (piece) => {
      const tail = piece.length > n ? piece.subarray(piece.length - n) : piece;
      kept.push(new Uint8Array(tail)); // a copy (see readBodyWindow)
      length += tail.length;
      // Drop whole pieces that lie before the last n bytes.
      while (kept.length > 1 && length - kept[0].length >= n) length -= (kept.shift() as Uint8Array).length;
      return false;
    },
    what,
  );
  const skip = Math.max(0, length - n);
  const out = new Uint8Array(length - skip);
  let at = -skip;
  for (const piece of kept) {
    const from = Math.max(0, -at);
    if (from < piece.length) out.set(piece.subarray(from), at + from);
    at += piece.length;
  }
  return out;
}

/**
 * The length of a body, counted as it streams past (nothing is kept). At most `limit` bytes.
 *
 * @example
 * ```ts
 * const size = await countBodyBytes(pieces, maxValueBytes);
 * ```
 */
export async function countBodyBytes(pieces: BodyPieces, limit: number, what?: string): Promise<number> {
  return (await pipeWithinLimit(pieces, limit, () => false, what)).received;
}
