/**
 * The node:zlib backend. Every call is asynchronous, so zlib runs on libuv's thread pool
 * and many chunks compress or decompress in parallel while the main thread stays free.
 *
 * node:zlib hands its output over in `chunkSize` pieces, one thread-pool round trip each,
 * and concatenates them at the end. With the default 16 KiB a 1 MiB chunk takes 64 round
 * trips and a copy, so the output size is estimated up front (for gzip from the trailer's
 * length field) and used as `chunkSize`, bounded so that an input lying about its size
 * cannot make us allocate more than a plausible amount before the data proves it.
 */
import { kMaxLength } from "node:buffer";
import { isMainThread } from "node:worker_threads";
import * as nodeZlib from "node:zlib";
import { OutputLimitExceeded } from "@zarr/spec";
import type { DeflateBackend } from "./backend.js";
import { inflateInto } from "./inflate-into.node.js";

/** node:zlib rejects smaller chunk sizes (zlib.constants.Z_MIN_CHUNK). */
const MIN_CHUNK = 64;
const DEFAULT_CHUNK = 16 * 1024;
/** The largest output buffer allocated before the data has proved it is needed. */
const MAX_CHUNK = 16 * 1024 * 1024;
/** Deflate cannot expand data by more than about 1032:1. */
const MAX_DEFLATE_RATIO = 1032;

type ZlibCall = (input: Uint8Array, options: nodeZlib.ZlibOptions, callback: (error: Error | null, result: Buffer) => void) => void;
type ZlibSyncCall = (input: Uint8Array, options: nodeZlib.ZlibOptions) => Buffer;

/** What node:zlib passes to the callback with `info: true`, and what `inflateBounded` resolves. */
interface ZlibInfo {
  buffer: Buffer;
  engine: { bytesWritten: number };
}

function run(call: ZlibCall, input: Uint8Array, options: nodeZlib.ZlibOptions): Promise<ZlibInfo> {
  return new Promise((resolve, reject) => {
    call(input, { ...options, info: true }, (error, result) => {
      if (error) reject(error);
      else resolve(result as unknown as ZlibInfo);
    });
  });
}

/**
 * A node:zlib limit for `maxOutput`: at least 1, at most the largest Buffer. Past it the
 * blocking decoders throw ERR_BUFFER_TOO_LARGE while decoding, before allocating more.
 */
function outputLimit(maxOutput: number): number {
  return Math.max(1, Math.min(maxOutput, kMaxLength));
}

function runSync(call: ZlibSyncCall, input: Uint8Array, options: nodeZlib.ZlibOptions, maxOutput: number): ZlibInfo {
  let info: ZlibInfo;
  try {
    info = call(input, { ...options, info: true, maxOutputLength: outputLimit(maxOutput) }) as unknown as ZlibInfo;
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE") throw new OutputLimitExceeded(maxOutput);
    throw error;
  }
  // node:zlib's limit is at least 1: a bound of 0 is checked here.
  if (info.buffer.length > maxOutput) throw new OutputLimitExceeded(maxOutput);
  return info;
}

/**
 * Inflates `input` on libuv's pool through a node:zlib stream, counting the output as it
 * comes: past `maxOutput` the stream is destroyed at once. node:zlib's own asynchronous
 * one-shot calls (`gunzip(buf, cb)`) concatenate their output in an event handler, where a
 * failed allocation (RangeError: Array buffer allocation failed) is an uncaught exception
 * that kills the process; here every allocation of ours is inside a `try` and every
 * failure rejects the promise.
 */
function inflateBounded(
  create: (options: nodeZlib.ZlibOptions) => nodeZlib.Gunzip | nodeZlib.Inflate,
  input: Uint8Array,
  chunkSize: number,
  maxOutput: number,
): Promise<ZlibInfo> {
  return new Promise((resolve, reject) => {
    let stream: nodeZlib.Gunzip | nodeZlib.Inflate;
    try {
      stream = create({ chunkSize: Math.min(chunkSize, Math.max(MIN_CHUNK, maxOutput + 1)) });
    } catch (error) {
      reject(error);
      return;
    }
    const parts: Buffer[] = [];
    let total = 0;
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      stream.destroy();
      reject(error);
    };
    stream.on("data", (part: Buffer) => {
      total += part.length;
      if (total > maxOutput) fail(new OutputLimitExceeded(maxOutput));
      else parts.push(part);
    });
    stream.on("error", fail);
    stream.on("end", () => {
      if (settled) return;
      try {
        const buffer = parts.length === 1 ? parts[0] : Buffer.concat(parts, total);
        settled = true;
        resolve({ buffer, engine: { bytesWritten: stream.bytesWritten } });
      } catch (error) {
        fail(error);
      }
    });
    try {
      stream.end(input);
    } catch (error) {
      fail(error);
    }
  });
}

function clampChunk(size: number): number {
  return Math.max(MIN_CHUNK, Math.min(MAX_CHUNK, size));
}

/** Output buffer size for compressing `n` bytes: zlib's deflateBound plus the wrapper. */
function compressChunkSize(n: number, wrapper: number): number {
  return clampChunk(n + (n >>> 12) + (n >>> 14) + (n >>> 25) + 13 + wrapper);
}

/**
 * Output buffer size for decompressing gzip data. The last member's trailer holds its
 * uncompressed length (mod 2^32): exact for the usual single member, a hint otherwise.
 * One extra byte lets zlib finish with room to spare instead of asking for another buffer.
 */
function gunzipChunkSize(bytes: Uint8Array, maxOutput: number): number {
  const n = bytes.length;
  if (n < 18) return MIN_CHUNK;
  const isize = (bytes[n - 4] | (bytes[n - 3] << 8) | (bytes[n - 2] << 16) | (bytes[n - 1] << 24)) >>> 0;
  if (isize === 0 || isize > n * MAX_DEFLATE_RATIO || isize > maxOutput) return clampChunk(Math.min(n * 4, maxOutput + 1));
  return clampChunk(isize + 1);
}

/**
 * A plain Uint8Array over node:zlib's result. The result is a Buffer that may start inside
 * a shared pool or keep a much larger chunk buffer alive; copy only in those cases.
 */
function ownedBytes(buffer: Buffer): Uint8Array {
  const { byteOffset, byteLength } = buffer;
  const slack = buffer.buffer.byteLength - byteLength;
  if (byteOffset === 0 && slack <= Math.max(64, byteLength >>> 4)) {
    return new Uint8Array(buffer.buffer, 0, byteLength);
  }
  return new Uint8Array(buffer);
}

/**
 * Every member of a gzip stream, one `inflate` call per member. node:zlib stops at a zero
 * byte after a member, taking it as padding, and ignores everything after it. Python's gzip
 * skips the zeros and reads on; do the same.
 */
function* gunzipMembers(bytes: Uint8Array, maxOutput: number): Generator<[Uint8Array, number], Uint8Array, ZlibInfo> {
  const parts: Buffer[] = [];
  let rest = bytes;
  let total = 0;
  for (;;) {
    // Each member may produce what the earlier ones left of the bound.
    const { buffer, engine } = yield [rest, maxOutput - total];
    parts.push(buffer);
    total += buffer.length;
    if (total > maxOutput) throw new OutputLimitExceeded(maxOutput);
    let pos = engine.bytesWritten;
    if (pos <= 0) throw new Error("node:zlib consumed no input");
    while (pos < rest.length && rest[pos] === 0) pos++;
    if (pos >= rest.length) break;
    rest = rest.subarray(pos);
  }
  return ownedBytes(parts.length === 1 ? parts[0] : Buffer.concat(parts));
}

async function decompressGzip(bytes: Uint8Array, maxOutput: number): Promise<Uint8Array> {
  const members = gunzipMembers(bytes, maxOutput);
  let step = members.next();
  while (!step.done) {
    const [member, left] = step.value;
    step = members.next(await inflateBounded(nodeZlib.createGunzip, member, gunzipChunkSize(member, left), left));
  }
  return step.value;
}

function decompressGzipSync(bytes: Uint8Array, maxOutput: number): Uint8Array {
  const members = gunzipMembers(bytes, maxOutput);
  let step = members.next();
  while (!step.done) {
    const [member, left] = step.value;
    step = members.next(runSync(nodeZlib.gunzipSync, member, { chunkSize: gunzipChunkSize(member, left) }, left));
  }
  return step.value;
}

/** zlib streams carry no size: guess a ratio of 8, typical of compressible chunks. */
function inflateChunkSize(bytes: Uint8Array): number {
  return clampChunk(Math.max(DEFAULT_CHUNK, bytes.length * 8));
}

/** The node:zlib backend. */
export const backend: DeflateBackend = {
  name: "node:zlib",
  preferBlocking: !isMainThread,
  compressGzip: async (bytes, level) =>
    ownedBytes((await run(nodeZlib.gzip, bytes, { level, chunkSize: compressChunkSize(bytes.length, 18) })).buffer),
  decompressGzip,
  decompressGzipSync,
  compressZlib: async (bytes, level) =>
    ownedBytes((await run(nodeZlib.deflate, bytes, { level, chunkSize: compressChunkSize(bytes.length, 6) })).buffer),
  decompressZlib: async (bytes, maxOutput) =>
    ownedBytes((await inflateBounded(nodeZlib.createInflate, bytes, inflateChunkSize(bytes), maxOutput)).buffer),
  decompressInto: inflateInto,
  decompressZlibSync: (bytes, maxOutput) =>
    ownedBytes(runSync(nodeZlib.inflateSync, bytes, { chunkSize: inflateChunkSize(bytes) }, maxOutput).buffer),
};
