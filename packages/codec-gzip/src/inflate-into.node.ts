/**
 * Inflating into a caller's buffer with node:zlib, for worker threads that keep one output
 * buffer from chunk to chunk. node:zlib's public calls always allocate their output, and a
 * fresh 1 MiB buffer per chunk costs about as much in page faults as copying the chunk.
 *
 * This drives the native handle behind a `zlib.Gunzip`/`zlib.Inflate` object directly:
 * `_handle.writeSync(flush, in, inOff, inLen, out, outOff, outLen)` with the space left
 * reported in `_writeState`, and errors through `_handle.onerror`. That is node:zlib's own
 * synchronous path (`processChunkSync`), unchanged from Node 10 to 24, but it is not a
 * public API: the handle is checked on a known stream first, and when anything differs
 * (or any chunk is unusual) callers fall back to the public `gunzipSync`/`inflateSync`.
 */
import * as nodeZlib from "node:zlib";

/** The native handle's methods this module uses. */
interface NativeHandle {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
  reset(): void;
  onerror: (message: string, errno: number, code?: string) => void;
}

/** One reusable decompressor: its handle, its [outLeft, inLeft] state, the last error. */
interface Inflater {
  handle: NativeHandle;
  state: Uint32Array;
  error: string | undefined;
}

const inflaters = new Map<"gzip" | "zlib", Inflater | null>();

function open(format: "gzip" | "zlib"): Inflater | null {
  const stream = (format === "gzip" ? new nodeZlib.Gunzip() : new nodeZlib.Inflate()) as unknown as {
    _handle?: Partial<NativeHandle>;
    _writeState?: unknown;
  };
  const handle = stream._handle;
  const state = stream._writeState;
  if (typeof handle?.writeSync !== "function" || typeof handle.reset !== "function" || !(state instanceof Uint32Array) || state.length !== 2) {
    return null;
  }
  const inflater: Inflater = { handle: handle as NativeHandle, state, error: undefined };
  handle.onerror = (message) => {
    inflater.error = message;
  };
  // Check the handle on a known stream, and that it reports a bad checksum, before
  // trusting it with chunks.
  const text = new TextEncoder().encode("zarr chunk ".repeat(20));
  const packed = format === "gzip" ? nodeZlib.gzipSync(text) : nodeZlib.deflateSync(text);
  const out = new Uint8Array(text.length + 1);
  try {
    if (run(inflater, packed, out) !== text.length || Buffer.compare(out.subarray(0, text.length), text) !== 0) return null;
  } catch {
    return null;
  }
  // The checksum: gzip's CRC-32 is 8 bytes from the end, zlib's Adler-32 the last 4.
  packed[packed.length - (format === "gzip" ? 8 : 1)] ^= 1;
  try {
    run(inflater, packed, out);
    return null;
  } catch {
    return inflater;
  }
}

/** Inflates `input` into `out`; resolves the bytes written, or -1 when not all input was consumed. */
function run(inflater: Inflater, input: Uint8Array, out: Uint8Array): number {
  const { handle, state } = inflater;
  handle.reset();
  inflater.error = undefined;
  handle.writeSync(nodeZlib.constants.Z_FINISH, input, 0, input.length, out, 0, out.length);
  if (inflater.error !== undefined) throw new Error(inflater.error);
  return state[1] === 0 ? out.length - state[0] : -1;
}

/**
 * Inflates a gzip member or zlib stream into the start of `out` and returns that view, or
 * `undefined` when this fast path does not apply: node:zlib's handle is not as expected,
 * the data needs all of `out` (it may be longer: `out` should have spare room), or input
 * is left over (more gzip members, padding, trailing bytes). Callers then decode with the
 * public API, which handles those cases. Corrupt data throws zlib's message.
 */
export function inflateInto(input: Uint8Array, format: "gzip" | "zlib", out: Uint8Array): Uint8Array | undefined {
  let inflater = inflaters.get(format);
  if (inflater === undefined) {
    inflater = open(format);
    inflaters.set(format, inflater);
  }
  if (inflater === null || input.length === 0) return undefined;
  const written = run(inflater, input, out);
  return written < 0 || written >= out.length ? undefined : out.subarray(0, written);
}
