/**
 * Reading `GetObject` bodies within bounds: `@zarr/spec`'s bounded body readers over the
 * SDK's body. A running count of the bytes as they stream (an object larger than
 * announced, an endless answer from a broken server), and range reads that stop once
 * they have their bytes when a server ignores `Range` and sends the whole object. What is
 * not needed is never read: the body is destroyed.
 */
import { type BodyPieces, joinPieces, pipeWithinLimit, readBodyTail, readBodyWindow } from "@zarr/spec";

export { BodyLimitExceeded } from "@zarr/spec";

/** What a `BodyLimitExceeded` of an object names. */
export const OBJECT_BODY = "the object's body";

/**
 * The body shapes the SDK returns: a Node `Readable` (async iterable) with the SDK's
 * mixin, or in browsers a mixin over a web stream.
 */
export interface StreamingBody {
  transformToByteArray(): Promise<Uint8Array>;
  transformToWebStream?(): ReadableStream<Uint8Array>;
  destroy?(): void;
  [Symbol.asyncIterator]?(): AsyncIterator<Uint8Array>;
}

/** The body's pieces, and a way to stop reading (the rest is not transferred). */
function piecesOf(body: StreamingBody): { next(): Promise<Uint8Array | undefined>; stop(): Promise<void> } {
  const iterate = body[Symbol.asyncIterator];
  if (typeof iterate === "function") {
    const iterator = iterate.call(body);
    return {
      next: async () => {
        const step = await iterator.next();
        return step.done ? undefined : step.value;
      },
      // Ending an async iteration of a Readable destroys it (and the connection's response).
      stop: async () => {
        await iterator.return?.();
        body.destroy?.();
      },
    };
  }
  if (typeof body.transformToWebStream === "function") {
    const reader = body.transformToWebStream().getReader();
    return {
      next: async () => {
        const step = await reader.read();
        return step.done ? undefined : step.value;
      },
      stop: () => reader.cancel().catch(() => {}),
    };
  }
  // Neither: all that can be done is to read it whole and check afterwards.
  let whole: Promise<Uint8Array> | undefined = body.transformToByteArray();
  return {
    next: async () => {
      const bytes = whole === undefined ? undefined : await whole;
      whole = undefined;
      return bytes;
    },
    stop: async () => {},
  };
}

/** The pieces of `body` (none when there is no body); a sink that throws stops it (the rest is not transferred). */
function bodyPieces(body: StreamingBody | undefined): BodyPieces {
  return async (sink) => {
    if (body === undefined) return;
    const pieces = piecesOf(body);
    try {
      for (;;) {
        const piece = await pieces.next();
        if (piece === undefined) return;
        sink(piece);
      }
    } catch (error) {
      await pieces.stop().catch(() => {});
      throw error;
    }
  };
}

/**
 * Feeds the body to `sink(piece, at)` until it ends or `sink` returns true ("done":
 * the body is destroyed, its rest never read). Throws `BodyLimitExceeded` (destroying the
 * body) once more than `limit` bytes arrived. Resolves the bytes received.
 */
export async function pipeS3Body(body: StreamingBody | undefined, limit: number, sink: (piece: Uint8Array, at: number) => boolean): Promise<number> {
  return (await pipeWithinLimit(bodyPieces(body), limit, sink, OBJECT_BODY)).received;
}

/** The whole body as a `Uint8Array` that owns its ArrayBuffer; more than `limit` bytes: `BodyLimitExceeded`. */
export async function collectBounded(body: StreamingBody | undefined, limit: number): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  // The SDK's pieces are the body's own (not lent): kept as they are, copied once by the join.
  const received = await pipeS3Body(body, limit, (piece) => {
    pieces.push(piece);
    return false;
  });
  return joinPieces(pieces, received);
}

/**
 * Bytes `[from, to)` of a whole-object body (`to` may be `Infinity`), reading no further
 * than `to`; a shorter object gives fewer bytes, clamped like HTTP. At most `limit` bytes.
 */
export function collectWindow(body: StreamingBody | undefined, from: number, to: number, limit: number): Promise<Uint8Array> {
  return readBodyWindow(bodyPieces(body), 0, from, to, limit, OBJECT_BODY);
}

/** The last `n` bytes of a whole-object body, keeping about `n` bytes in memory. At most `limit` bytes are read. */
export function collectTail(body: StreamingBody | undefined, n: number, limit: number): Promise<Uint8Array> {
  return readBodyTail(bodyPieces(body), n, limit, OBJECT_BODY);
}
