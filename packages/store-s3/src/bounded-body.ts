/**
 * Reading `GetObject` bodies within bounds: a running count of the bytes as they
 * stream (an object larger than announced, an endless answer from a broken server), and
 * range reads that stop once they have their bytes when a server ignores `Range` and
 * sends the whole object. What is not needed is never read: the body is destroyed.
 */

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

/** Thrown when a body is longer than the read accepts; the store turns it into `STORE_TOO_LARGE`. */
export class BodyLimitExceeded extends Error {
  override readonly name = "BodyLimitExceeded";
  constructor(readonly limit: number) {
    super(`the object's body is larger than the ${limit} bytes accepted`);
  }
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

/**
 * Feeds the body to `sink(piece, at)` until it ends or `sink` returns true ("done":
 * the body is destroyed, its rest never read). Throws `BodyLimitExceeded` (destroying the
 * body) once more than `limit` bytes arrived. Resolves the bytes received.
 */
export async function pipeS3Body(body: StreamingBody | undefined, limit: number, sink: (piece: Uint8Array, at: number) => boolean): Promise<number> {
  if (body === undefined) return 0;
  const pieces = piecesOf(body);
  let received = 0;
  try {
    for (;;) {
      const piece = await pieces.next();
      if (piece === undefined) return received;
      if (received + piece.length > limit) throw new BodyLimitExceeded(limit);
      const done = sink(piece, received);
      received += piece.length;
      if (done) {
        await pieces.stop();
        return received;
      }
    }
  } catch (error) {
    await pieces.stop().catch(() => {});
    throw error;
  }
}

/** Joins pieces into one array that owns its whole ArrayBuffer. */
function join(pieces: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/** The whole body as a `Uint8Array` that owns its ArrayBuffer; more than `limit` bytes: `BodyLimitExceeded`. */
export async function collectBounded(body: StreamingBody | undefined, limit: number): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  const received = await pipeS3Body(body, limit, (piece) => {
    pieces.push(piece);
    return false;
  });
  return join(pieces, received);
}

/**
 * Bytes `[from, to)` of a whole-object body (`to` may be `Infinity`), reading no further
 * than `to`; a shorter object gives fewer bytes, clamped like HTTP. At most `limit` bytes.
 */
export async function collectWindow(body: StreamingBody | undefined, from: number, to: number, limit: number): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  let kept = 0;
  await pipeS3Body(body, limit, (piece, at) => {
    const a = Math.max(from, at);
    const b = Math.min(to, at + piece.length);
    if (a < b) {
      pieces.push(piece.subarray(a - at, b - at));
      kept += b - a;
    }
    return at + piece.length >= to;
  });
  return join(pieces, kept);
}

/** The last `n` bytes of a whole-object body, keeping about `n` bytes in memory. At most `limit` bytes are read. */
export async function collectTail(body: StreamingBody | undefined, n: number, limit: number): Promise<Uint8Array> {
  const pieces: Uint8Array[] = [];
  let kept = 0;
  await pipeS3Body(body, limit, (piece) => {
    const tail = piece.length > n ? piece.subarray(piece.length - n) : piece;
    pieces.push(tail);
    kept += tail.length;
    while (pieces.length > 1 && kept - pieces[0].length >= n) kept -= (pieces.shift() as Uint8Array).length;
    return false;
  });
  const all = join(pieces, kept);
  return kept > n ? all.slice(kept - n) : all;
}
