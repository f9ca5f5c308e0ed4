/**
 * One page of latents: page metadata (delta state and final tANS states per latent
 * variable), then batches of up to 256 numbers, each holding per latent variable the
 * tANS-coded bin indices and then the offsets within those bins. The standalone format
 * has exactly one page per chunk.
 */
import { type AnsDecoder, buildAnsDecoder } from "./ans.js";
import type { PcoBitReader } from "./bit-reader.js";
import {
  ANS_INTERLEAVING,
  type ChunkMeta,
  type DeltaEncoding,
  FULL_BATCH_N,
  type LatentArray,
  type LatentVar,
  latentArray,
  secondaryDelta,
  stateLength,
} from "./chunk-meta.js";
import { decodeDelta } from "./delta.js";
import { corrupt } from "./errors.js";

/** Whether typed arrays are little-endian here (they are on every platform Node runs on). */
const HOST_IS_LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** A latent variable while its page is read. */
interface VarState {
  meta: LatentVar;
  delta: DeltaEncoding;
  /** Latents of delta state in the page metadata. */
  state: LatentArray;
  /** Latents the delta encoding holds back (the body has this many fewer than the page). */
  bodyShift: number;
  ansStates: Uint32Array;
  decoder: AnsDecoder | undefined;
  /** The latents read from the batches, before delta decoding. */
  body: LatentArray;
  bodyPos: number;
}

/** The latents of one page after delta decoding: primary and, per mode, secondary. */
export interface PageLatents {
  primary: LatentArray;
  secondary: LatentArray | undefined;
}

function readVarMeta(reader: PcoBitReader, meta: LatentVar, delta: DeltaEncoding, bodyShift: number, n: number): VarState {
  const stateN = stateLength(delta);
  if (stateN * (meta.bits / 8) > reader.bytesLeft + 8) corrupt(`a delta state of ${stateN} latents is longer than the stream`);
  const state = latentArray(meta.bits, stateN);
  for (let i = 0; i < stateN; i++) state[i] = (meta.bits === 64 ? reader.read64(64) : reader.read(meta.bits)) as never;
  const ansStates = new Uint32Array(ANS_INTERLEAVING);
  for (let i = 0; i < ANS_INTERLEAVING; i++) ansStates[i] = reader.readSmall(meta.ansSizeLog);
  if (meta.weights.length === 0 && n - stateN > 0) corrupt(`a latent variable has no bins but ${n - stateN} latents`);
  return {
    meta,
    delta,
    state,
    bodyShift,
    ansStates,
    decoder: meta.weights.length === 1 ? undefined : buildAnsDecoder(meta.ansSizeLog, meta.weights),
    body: latentArray(meta.bits, Math.max(0, n - bodyShift)),
    bodyPos: 0,
  };
}

/** Reads `count` latents of one variable for the current batch. */
function readBatch(reader: PcoBitReader, v: VarState, count: number, symbols: Uint16Array): void {
  if (count === 0) return;
  const decoder = v.decoder;
  if (decoder) {
    const { symbol, bitsToRead, nextBase } = decoder;
    const states = v.ansStates;
    for (let i = 0; i < count; i++) {
      const j = i & 3;
      const state = states[j];
      symbols[i] = symbol[state];
      states[j] = nextBase[state] + reader.readSmall(bitsToRead[state]);
    }
  } else {
    symbols.fill(0, 0, count);
  }
  const { offsetBits, bits } = v.meta;
  const pos = v.bodyPos;
  if (bits === 64 && HOST_IS_LITTLE_ENDIAN) {
    // 64-bit latents as (low, high) 32-bit halves: no BigInt per number.
    const lowers = v.meta.lowers as BigUint64Array;
    const lowers32 = new Uint32Array(lowers.buffer, lowers.byteOffset, lowers.length * 2);
    const body = v.body as BigUint64Array;
    const body32 = new Uint32Array(body.buffer, body.byteOffset, body.length * 2);
    for (let i = 0; i < count; i++) {
      const s = symbols[i];
      const ob = offsetBits[s];
      const lo = lowers32[2 * s];
      const hi = lowers32[2 * s + 1];
      const at = 2 * (pos + i);
      if (ob === 0) {
        body32[at] = lo;
        body32[at + 1] = hi;
      } else {
        // Uint32Array stores modulo 2^32: the carry goes to the high half, the rest wraps.
        const sumLo = lo + reader.read(Math.min(ob, 32));
        body32[at] = sumLo;
        body32[at + 1] = hi + (ob > 32 ? reader.read(ob - 32) : 0) + (sumLo > 0xffffffff ? 1 : 0);
      }
    }
  } else if (bits === 64) {
    const lowers = v.meta.lowers as BigUint64Array;
    const body = v.body as BigUint64Array;
    for (let i = 0; i < count; i++) {
      const s = symbols[i];
      const ob = offsetBits[s];
      // BigUint64Array stores modulo 2^64: the wrapping add pcodec does.
      body[pos + i] = ob === 0 ? lowers[s] : lowers[s] + reader.read64(ob);
    }
  } else {
    const lowers = v.meta.lowers as Uint32Array;
    const body = v.body as Uint32Array;
    const mask = bits === 32 ? 0xffffffff : 2 ** bits - 1;
    for (let i = 0; i < count; i++) {
      const s = symbols[i];
      const ob = offsetBits[s];
      // Uint32Array stores modulo 2^32; narrower latents wrap with the mask.
      body[pos + i] = ob === 0 ? lowers[s] : (lowers[s] + reader.read(ob)) & mask;
    }
  }
  v.bodyPos = pos + count;
}

/** Reads the page of `n` numbers that follows a chunk's metadata, and undoes delta encoding. */
export function readPage(reader: PcoBitReader, meta: ChunkMeta, n: number): PageLatents {
  const primaryShift = stateLength(meta.delta);
  const vars: VarState[] = [];
  const deltaVar = meta.deltaVar ? readVarMeta(reader, meta.deltaVar, { kind: "none" }, primaryShift, n) : undefined;
  if (deltaVar) vars.push(deltaVar);
  const primary = readVarMeta(reader, meta.primary, meta.delta, primaryShift, n);
  vars.push(primary);
  let secondary: VarState | undefined;
  if (meta.secondary) {
    const delta = secondaryDelta(meta.delta);
    secondary = readVarMeta(reader, meta.secondary, delta, stateLength(delta), n);
    vars.push(secondary);
  }
  reader.alignToByte("the page metadata");
  reader.checkInBounds("the page metadata");

  const symbols = new Uint16Array(FULL_BATCH_N);
  for (let start = 0; start < n; start += FULL_BATCH_N) {
    const batchN = Math.min(FULL_BATCH_N, n - start);
    const remaining = n - start;
    for (const v of vars) readBatch(reader, v, Math.min(Math.max(remaining - v.bodyShift, 0), batchN), symbols);
    reader.checkInBounds(`the batch at number ${start}`);
  }
  reader.alignToByte("the page");
  reader.checkInBounds("the page");

  const lookbacks = deltaVar?.body as Uint32Array | undefined;
  return {
    primary: decodeDelta(primary.body, primary.state, primary.delta, n, lookbacks, primary.meta.bits),
    secondary: secondary && decodeDelta(secondary.body, secondary.state, secondary.delta, n, lookbacks, secondary.meta.bits),
  };
}
