/**
 * Reading response bodies within bounds: `@zarr/spec`'s bounded body readers over a
 * `Response`'s pieces (through `pipeBody`, so a transport's direct body path is used).
 * Every body is read with a running count of the bytes fetch hands over (decoded bytes:
 * fetch undoes content codings as the body streams), and a read that needs only part of
 * a body stops as soon as it has that part: the body stream is cancelled.
 */
import { type BodyPieces, countBodyBytes, pipeWithinLimit, readBodyTail, readBodyWindow } from "@zarr/spec";
import { kit } from "./kit.js";

export { BodyLimitExceeded } from "@zarr/spec";

/** What a `BodyLimitExceeded` of a response names. */
const WHAT = "the response body";

/** The pieces of `response`'s body. */
function piecesOf(response: Response): BodyPieces {
  return (sink) => kit.pipeBody(response, sink);
}

/**
 * Pipes the body to `sink(piece, at)` (`at`: offset in the body) until it ends or `sink`
 * returns true ("done": the rest is not read). Fails with `BodyLimitExceeded` once more
 * than `limit` bytes arrived. Resolves the bytes received and whether the body ended.
 */
export function pipeBounded(
  response: Response,
  limit: number,
  sink: (piece: Uint8Array, at: number) => boolean,
): Promise<{ received: number; ended: boolean }> {
  return pipeWithinLimit(piecesOf(response), limit, sink, WHAT);
}

/**
 * Bytes `[from, to)` of a value from a body whose first byte is byte `bodyStart` of the
 * value (`to` may be `Infinity`: up to the end). Stops reading once byte `to` has
 * arrived; a body ending first gives fewer bytes (clamped like HTTP). At most `limit`
 * bytes are streamed (`BodyLimitExceeded`).
 */
export function readWindow(response: Response, bodyStart: number, from: number, to: number, limit: number): Promise<Uint8Array> {
  return readBodyWindow(piecesOf(response), bodyStart, from, to, limit, WHAT);
}

/**
 * The last `n` bytes of a body (all of it when shorter), keeping no more than about `n`
 * bytes in memory however long the body is. At most `limit` bytes are streamed.
 */
export function readTail(response: Response, n: number, limit: number): Promise<Uint8Array> {
  return readBodyTail(piecesOf(response), n, limit, WHAT);
}

/** The length of a body, counted as it streams past (nothing is kept). At most `limit` bytes. */
export function countBody(response: Response, limit: number): Promise<number> {
  return countBodyBytes(piecesOf(response), limit, WHAT);
}
