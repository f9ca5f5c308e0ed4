/**
 * Undoing delta encodings over a whole page. pcodec decodes batch by batch, carrying
 * state between batches; each of its delta decoders is a streaming transform, so one
 * pass over the page gives the same latents. Output `i` lags the body: the first
 * `state` latents come from the page metadata, and body latent `b` yields output
 * `b + state`. Deltas are stored "centred" (shifted by half the latent range).
 */
import type { DeltaEncoding, LatentArray, LatentBits } from "./chunk-meta.js";
import { corrupt } from "./errors.js";

/**
 * Latents of the page (length `n`) from the `body` read out of its batches, the delta
 * `state` from its metadata, and (lookback only) the lookback latents.
 */
export function decodeDelta(
  body: LatentArray,
  state: LatentArray,
  delta: DeltaEncoding,
  n: number,
  lookbacks: Uint32Array | undefined,
  bits: LatentBits,
): LatentArray {
  switch (delta.kind) {
    case "none":
      return body;
    case "consecutive":
      return bits === 64 ? consecutive64(body as BigUint64Array, state as BigUint64Array, n) : consecutive32(body as Uint32Array, state as Uint32Array, n, bits);
    case "lookback":
      return lookback(body, state, n, 2 ** delta.windowNLog, lookbacks as Uint32Array, bits);
    case "conv1":
      return conv1(body as Uint32Array, state as Uint32Array, n, delta, bits);
  }
}

function consecutive32(body: Uint32Array, state: Uint32Array, n: number, bits: number): Uint32Array {
  const mask = bits === 32 ? 0xffffffff : 2 ** bits - 1;
  const mid = 2 ** (bits - 1);
  const x = new Uint32Array(n);
  // The tail past the body stands for pcodec's zero-filled junk; it never reaches an output.
  for (let i = 0; i < n; i++) x[i] = ((i < body.length ? body[i] : 0) + mid) & mask;
  for (let m = state.length - 1; m >= 0; m--) {
    let moment = state[m];
    for (let i = 0; i < n; i++) {
      const delta = x[i];
      x[i] = moment;
      moment = (moment + delta) & mask;
    }
  }
  return x;
}

function consecutive64(body: BigUint64Array, state: BigUint64Array, n: number): BigUint64Array {
  const mid = 1n << 63n;
  const x = new BigUint64Array(n);
  for (let i = 0; i < n; i++) x[i] = (i < body.length ? body[i] : 0n) + mid;
  for (let m = state.length - 1; m >= 0; m--) {
    let moment = state[m];
    for (let i = 0; i < n; i++) {
      const delta = x[i];
      x[i] = moment;
      moment = BigInt.asUintN(64, moment + delta);
    }
  }
  return x;
}

function lookback(body: LatentArray, state: LatentArray, n: number, windowN: number, lookbacks: Uint32Array, bits: LatentBits): LatentArray {
  const stateN = state.length;
  const check = (b: number): number => {
    const lb = lookbacks[b];
    // pcodec reads lookbacks past the window as corrupt; 0 (only reachable by wrapping
    // in a 2^32 window) would read the latent being written, so it is refused too.
    if (lb > windowN || lb === 0) corrupt(`delta lookback ${lb} is outside the window [1, ${windowN}]`);
    return stateN + b - lb;
  };
  if (body instanceof BigUint64Array) {
    const out = new BigUint64Array(n);
    const s = state as BigUint64Array;
    for (let i = 0; i < Math.min(stateN, n); i++) out[i] = s[i];
    const mid = 1n << 63n;
    for (let b = 0; b < n - stateN; b++) {
      const src = check(b);
      // Positions before the state are the zero-filled start of pcodec's window.
      out[stateN + b] = body[b] + mid + (src >= 0 ? out[src] : 0n);
    }
    return out;
  }
  const mask = bits === 32 ? 0xffffffff : 2 ** bits - 1;
  const mid = 2 ** (bits - 1);
  const out = new Uint32Array(n);
  const s = state as Uint32Array;
  for (let i = 0; i < Math.min(stateN, n); i++) out[i] = s[i];
  for (let b = 0; b < n - stateN; b++) {
    const src = check(b);
    out[stateN + b] = (body[b] + mid + (src >= 0 ? out[src] : 0)) & mask;
  }
  return out;
}

/**
 * Conv1: each latent adds a prediction from the `order` before it,
 * `max(bias + Σ weight[j] · l[i − order + j], 0) >> quantization`, computed without overflow
 * (pcodec uses twice the latent width; the metadata check bounds the sum).
 */
function conv1(body: Uint32Array, state: Uint32Array, n: number, delta: Extract<DeltaEncoding, { kind: "conv1" }>, bits: LatentBits): Uint32Array {
  const mask = bits === 32 ? 0xffffffff : 2 ** bits - 1;
  const mid = 2 ** (bits - 1);
  const order = delta.weights.length;
  const r = new Uint32Array(n);
  for (let i = 0; i < Math.min(order, n); i++) r[i] = state[i];
  for (let b = 0; b < n - order; b++) r[order + b] = (body[b] + mid) & mask;
  const q = delta.quantization;
  let sumAbs = 0;
  for (const w of delta.weights) sumAbs += Math.abs(Number(w));
  const exact = Math.abs(Number(delta.bias)) + 2 ** bits * sumAbs < 2 ** 53;
  if (exact) {
    const weights = delta.weights.map(Number);
    const bias = Number(delta.bias);
    const scale = 2 ** q;
    const range = 2 ** bits;
    for (let i = order; i < n; i++) {
      let s = bias;
      for (let j = 0; j < order; j++) s += weights[j] * r[i - order + j];
      // pcodec clamps a negative sum to 0 before shifting.
      const pred = Math.floor(Math.max(s, 0) / scale) % range;
      r[i] = (r[i] + pred) & mask;
    }
  } else {
    const bq = BigInt(q);
    for (let i = order; i < n; i++) {
      let s = delta.bias;
      for (let j = 0; j < order; j++) s += delta.weights[j] * BigInt(r[i - order + j]);
      const pred = Number(BigInt.asUintN(bits, (s < 0n ? 0n : s) >> bq));
      r[i] = (r[i] + pred) & mask;
    }
  }
  return r;
}
