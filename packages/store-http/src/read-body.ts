/** Reading a response body completely, or not at all. */

import { BodyLimitExceeded } from "@zarr/spec";
import { BODY_INTO, isWatched, pipeBody } from "./body-into.js";
import { TransientError } from "./transient-error.js";

// Above this, a body of announced length is collected in pieces and joined once it has
// really arrived, so a lying header cannot make us allocate gigabytes up front.
const PREALLOCATE_LIMIT = 64 * 1024 * 1024;

/** True when the body was sent with a content coding (gzip, br...) that fetch decodes. */
export function hasContentCoding(response: Response): boolean {
  const encoding = response.headers.get("content-encoding");
  return encoding !== null && !/^\s*(identity)?\s*$/i.test(encoding);
}

/**
 * The response's `Content-Length` when it counts the bytes fetch hands over: not when a
 * content coding (gzip...) was applied, since fetch decodes it and the header counts the
 * encoded bytes. Undefined when absent, unusable, or hidden (by CORS).
 */
export function declaredLength(response: Response): number | undefined {
  if (hasContentCoding(response)) return undefined;
  const header = response.headers.get("content-length");
  if (header === null || !/^\s*\d+\s*$/.test(header)) return undefined;
  const n = Number(header);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Discards a body we do not need, so its connection is freed for the next request. */
export function discardBody(response: Response): void {
  if (response.body !== null && !response.bodyUsed) response.body.cancel().catch(() => {});
}

/**
 * Calls `sink(piece, at)` with every piece of the body and its offset in the body (see
 * `pipeBody`: a piece is only valid during the call). With `expected` set, the body must
 * be exactly that long: one that runs long or ends early (a connection closed or reset
 * mid-transfer) throws `TransientError`, so the caller retries. Resolves the bytes received.
 */
export async function pipeExactBody(
  response: Response,
  expected: number | undefined,
  sink: (piece: Uint8Array, at: number) => void,
): Promise<number> {
  let received = 0;
  await pipeBody(response, (piece) => {
    if (expected !== undefined && received + piece.length > expected) {
      throw new TransientError(`the body is longer than the ${expected} bytes announced`);
    }
    sink(piece, received);
    received += piece.length;
  });
  if (expected !== undefined && received !== expected) {
    throw new TransientError(`the body ended after ${received} of ${expected} bytes (connection closed early)`);
  }
  return received;
}

/**
 * The whole body as a Uint8Array on its own ArrayBuffer (byteOffset 0). With `expected`
 * set, the body must be exactly that long: a body that ends early (a connection closed
 * or reset mid-transfer) or runs long throws `TransientError` — it is never returned.
 * A body longer than `limit` (announced or as it streams: a body of unknown length is
 * read with a running count) throws `BodyLimitExceeded` without reading further.
 * Stream errors (a reset connection, an abort) reject as they are. Bodies announced as
 * longer than `preallocateLimit` are collected piece by piece and joined once complete.
 */
export async function readBody(
  response: Response,
  expected: number | undefined,
  limit = Infinity,
  preallocateLimit = PREALLOCATE_LIMIT,
): Promise<Uint8Array> {
  if (expected !== undefined && expected > limit) throw new BodyLimitExceeded(limit, `the announced body of ${expected} bytes`);
  const lent = BODY_INTO in response;
  if (expected === undefined && !lent && limit === Infinity && !isWatched(response)) return new Uint8Array(await response.arrayBuffer());
  const out = expected !== undefined && expected <= preallocateLimit ? new Uint8Array(expected) : undefined;
  // Pieces are kept and joined at the end: copies of a direct body path's (it lends its
  // read buffer only for the call), a body stream's own chunks as they are.
  const pieces: Uint8Array[] = [];
  const received = await pipeExactBody(response, expected, (piece, at) => {
    if (at + piece.length > limit) throw new BodyLimitExceeded(limit, "the response body");
    if (out !== undefined) out.set(piece, at);
    else pieces.push(lent ? piece.slice() : piece);
  });
  if (out !== undefined) return out;
  const joined = new Uint8Array(received);
  let at = 0;
  for (const piece of pieces) {
    joined.set(piece, at);
    at += piece.length;
  }
  return joined;
}
