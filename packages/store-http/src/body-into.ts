/**
 * Handing a response body to a consumer piece by piece. A transport may offer a direct
 * path (nodeFetch does): a function under `BODY_INTO` on the Response that calls the
 * consumer with views of its own read buffer, so a body is copied once, straight into its
 * destination, instead of into a fresh buffer per piece and then again.
 */

/** Receives body bytes. The view is only valid during the call: copy what you keep. */
export type BodySink = (bytes: Uint8Array) => void;

/**
 * The key of a transport's direct body path on a `Response`: `(sink) => Promise<void>`,
 * resolving when the body is complete and rejecting as reading the body stream would (a
 * cut-off body, an abort). When `sink` throws, the body is abandoned and the promise
 * rejects with that error. Must be called at most once, before `body` is read.
 */
export const BODY_INTO: unique symbol = Symbol.for("@zarr/store-http.body-into") as never;

/** A Response from a transport with a direct body path. */
type DirectResponse = Response & { [BODY_INTO]?: (sink: BodySink) => Promise<void> };

/** Called as each piece of a response's body arrives (the transport's idle timer). */
const progressOf = new WeakMap<Response, () => void>();

/** Calls `onPiece` whenever a piece of `response`'s body arrives through {@link pipeBody}. */
export function watchBody(response: Response, onPiece: () => void): void {
  progressOf.set(response, onPiece);
}

/** True when {@link watchBody} watches `response` (its body must then go through {@link pipeBody}). */
export function isWatched(response: Response): boolean {
  return progressOf.has(response);
}

/**
 * Calls `sink` with every piece of `response`'s body, in order; resolves when it ends.
 * Uses the transport's direct path when there is one, else reads `response.body`.
 */
export async function pipeBody(response: Response, to: BodySink): Promise<void> {
  const onPiece = progressOf.get(response);
  const sink: BodySink =
    onPiece === undefined
      ? to
      : (piece) => {
          onPiece();
          to(piece);
        };
  const direct = (response as DirectResponse)[BODY_INTO];
  if (direct !== undefined && !response.bodyUsed) return direct(sink);
  const body = response.body;
  if (body === null) return;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      sink(value);
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    throw error;
  }
}
