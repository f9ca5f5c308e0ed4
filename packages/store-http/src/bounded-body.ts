/**
 * Reading response bodies within bounds. A hostile or broken server can send an endless
 * body, ignore `Range` and send a whole large object, or send a small gzip body that
 * inflates to gigabytes (fetch undoes content codings as the body streams). Every body
 * is therefore read with a running count of the bytes fetch hands over (decoded bytes),
 * and a read that needs only part of a body stops as soon as it has that part: the rest
 * is never transferred or inflated (the body stream is cancelled).
 */
import { pipeBody } from "./body-into.js";
import { BodyLimitExceeded } from "./body-limit.js";

export { BodyLimitExceeded } from "./body-limit.js";


/** Thrown by a sink to stop reading a body once it has what it needs (the body is cancelled). */
class StopReading extends Error {}

/**
 * Pipes the body to `sink(piece, at)` (`at`: offset in the body) until it ends or `sink`
 * returns true ("done": the rest is not read). Fails with `BodyLimitExceeded` once more
 * than `limit` bytes arrived. Resolves the bytes received and whether the body ended.
 */
export async function pipeBounded(
  response: Response,
  limit: number,
  sink: (piece: Uint8Array, at: number) => boolean,
): Promise<{ received: number; ended: boolean }> {
  let received = 0;
  try {
    await pipeBody(response, (piece) => {
      if (received + piece.length > limit) throw new BodyLimitExceeded(limit, "the response body");
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

/** Joins pieces into one array on its own ArrayBuffer. */
function join(pieces: readonly Uint8Array[], length: number): Uint8Array {
  if (pieces.length === 1 && pieces[0].length === length && pieces[0].byteOffset === 0 && pieces[0].buffer.byteLength === length) {
    return pieces[0];
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece.subarray(0, Math.min(piece.length, length - at)), at);
    at += piece.length;
    if (at >= length) break;
  }
  return out;
}

/**
 * Bytes `[from, to)` of a value from a body whose first byte is byte `bodyStart` of the
 * value (`to` may be `Infinity`: up to the end). Stops reading once byte `to` has
 * arrived; a body ending first gives fewer bytes (clamped like HTTP). At most `limit`
 * bytes are streamed (`BodyLimitExceeded`).
 */
export async function readWindow(response: Response, bodyStart: number, from: number, to: number, limit: number): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  let kept = 0;
  await pipeBounded(response, limit, (piece, at) => {
    const start = bodyStart + at; // value offset of the piece's first byte
    const end = start + piece.length;
    const a = Math.max(from, start);
    const b = Math.min(to, end);
    // A copy: a transport's direct path lends its read buffer only for the call.
    if (a < b) {
      pieces.push(piece.slice(a - start, b - start));
      kept += b - a;
    }
    return end >= to;
  });
  return join(pieces, kept);
}

/**
 * The last `n` bytes of a body (all of it when shorter), keeping no more than about `n`
 * bytes in memory however long the body is. At most `limit` bytes are streamed.
 */
export async function readTail(response: Response, n: number, limit: number): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  let kept = 0;
  await pipeBounded(response, limit, (piece) => {
    const tail = piece.length > n ? piece.subarray(piece.length - n) : piece;
    pieces.push(tail.slice());
    kept += tail.length;
    // Drop whole pieces that lie before the last n bytes.
    while (pieces.length > 1 && kept - pieces[0].length >= n) kept -= (pieces.shift() as Uint8Array).length;
    return false;
  });
  const skip = Math.max(0, kept - n);
  const out = new Uint8Array(kept - skip);
  let at = -skip;
  for (const piece of pieces) {
    const from = Math.max(0, -at);
    if (from < piece.length) out.set(piece.subarray(from), at + from);
    at += piece.length;
  }
  return out;
}

/** The length of a body, counted as it streams past (nothing is kept). At most `limit` bytes. */
export async function countBody(response: Response, limit: number): Promise<number> {
  return (await pipeBounded(response, limit, () => false)).received;
}
