/**
 * Chunk metadata of pcodec's wrapped format: the mode (how numbers split into latents),
 * the delta encoding, and per latent variable the bins of its tANS table. Every field is
 * checked as pcodec checks it, so a later stage never sees an impossible table.
 */
import type { PcoBitReader } from "./bit-reader.js";
import { corrupt } from "./errors.js";
import type { NumberTypeInfo } from "./number-types.js";

/** A latent's width in bits. */
export type LatentBits = 8 | 16 | 32 | 64;
/** Latents of up to 32 bits live in a `Uint32Array`, 64-bit ones in a `BigUint64Array`. */
export type LatentArray = Uint32Array | BigUint64Array;

/** The largest tANS table pcodec writes: 2^14 states. */
export const MAX_ANS_BITS = 14;
/** Numbers per batch: bins, offsets and delta latents interleave batch by batch. */
export const FULL_BATCH_N = 256;
/** Interleaved tANS states per latent variable. */
export const ANS_INTERLEAVING = 4;

/** The wrapped format's version: major, and (from major 4) minor. */
export interface FormatVersion {
  major: number;
  minor: number;
}

/** How numbers split into latents. */
export type Mode =
  | { kind: "classic" }
  | { kind: "int_mult"; base: number | bigint }
  | { kind: "float_mult"; baseLatent: number | bigint }
  | { kind: "float_quant"; k: number }
  | { kind: "dict"; dict: LatentArray };

/** How the primary (and maybe secondary) latents were delta encoded. */
export type DeltaEncoding =
  | { kind: "none" }
  | { kind: "consecutive"; order: number; secondaryUsesDelta: boolean }
  | { kind: "lookback"; windowNLog: number; stateNLog: number; secondaryUsesDelta: boolean }
  | { kind: "conv1"; quantization: number; bias: bigint; weights: bigint[] };

/** The bins of one latent variable. */
export interface LatentVar {
  bits: LatentBits;
  ansSizeLog: number;
  weights: Uint32Array;
  lowers: LatentArray;
  offsetBits: Uint8Array;
}

/** One chunk's metadata. */
export interface ChunkMeta {
  mode: Mode;
  delta: DeltaEncoding;
  /** The lookback latent variable (lookback delta encoding only). */
  deltaVar: LatentVar | undefined;
  primary: LatentVar;
  secondary: LatentVar | undefined;
}

/** Allocates latents of `bits` bits. */
export function latentArray(bits: LatentBits, length: number): LatentArray {
  return bits === 64 ? new BigUint64Array(length) : new Uint32Array(length);
}

/** Reads one uncompressed latent of `bits` bits. */
function readLatent(reader: PcoBitReader, bits: LatentBits): number | bigint {
  return bits === 64 ? reader.read64(64) : reader.read(bits);
}

function readMode(reader: PcoBitReader, version: FormatVersion, bits: LatentBits): Mode {
  const variant = reader.readSmall(4);
  switch (variant) {
    case 0:
      return { kind: "classic" };
    case 1:
      if (version.major === 0) corrupt("int mult mode of format version 0 (a yanked pcodec release) is not readable");
      return { kind: "int_mult", base: readLatent(reader, bits) };
    case 2:
      return { kind: "float_mult", baseLatent: readLatent(reader, bits) };
    case 3:
      return { kind: "float_quant", k: reader.readSmall(8) };
    case 4: {
      const length = reader.read(25);
      reader.alignToByte("the dictionary length");
      // Bound the allocation by what the stream can hold before trusting the length.
      if (length * (bits / 8) > reader.bytesLeft) corrupt(`dictionary of ${length} values is longer than the stream`);
      const dict = latentArray(bits, length);
      for (let i = 0; i < length; i++) dict[i] = readLatent(reader, bits) as never;
      return { kind: "dict", dict };
    }
    default:
      return corrupt(`unknown mode ${variant}`);
  }
}

function readDelta(reader: PcoBitReader, version: FormatVersion): DeltaEncoding {
  if (version.major < 3) {
    // Before format 3 the field was just a consecutive order (0: none).
    const order = reader.readSmall(3);
    return order === 0 ? { kind: "none" } : { kind: "consecutive", order, secondaryUsesDelta: false };
  }
  const variant = reader.readSmall(4);
  switch (variant) {
    case 0:
      return { kind: "none" };
    case 1: {
      const order = reader.readSmall(3);
      if (order === 0) corrupt("consecutive delta encoding of order 0");
      return { kind: "consecutive", order, secondaryUsesDelta: reader.readSmall(1) === 1 };
    }
    case 2: {
      const windowNLog = 1 + reader.readSmall(5);
      const stateNLog = reader.readSmall(4);
      if (stateNLog > windowNLog) corrupt(`lookback state size log ${stateNLog} exceeds the window size log ${windowNLog}`);
      return { kind: "lookback", windowNLog, stateNLog, secondaryUsesDelta: reader.readSmall(1) === 1 };
    }
    case 3: {
      const quantization = reader.readSmall(5);
      // Raw values map back through the signed order-preserving bijection (flip the top bit).
      const bias = BigInt.asIntN(64, reader.read64(64) ^ (1n << 63n));
      const order = 1 + reader.readSmall(5);
      const weights: bigint[] = [];
      for (let i = 0; i < order; i++) weights.push(BigInt((reader.read(32) ^ 0x80000000) | 0));
      return { kind: "conv1", quantization, bias, weights };
    }
    default:
      return corrupt(`unknown delta encoding ${variant}`);
  }
}

function readLatentVar(reader: PcoBitReader, bits: LatentBits): LatentVar {
  const ansSizeLog = reader.readSmall(4);
  const nBins = reader.readSmall(15);
  if (ansSizeLog > MAX_ANS_BITS) corrupt(`ANS size log ${ansSizeLog} exceeds ${MAX_ANS_BITS}`);
  if (1 << ansSizeLog < nBins) corrupt(`ANS size log ${ansSizeLog} is too small for ${nBins} bins`);
  if (nBins === 1 && ansSizeLog > 0) corrupt(`one bin but ANS size log ${ansSizeLog} (should be 0)`);
  const offsetBitsBits = Math.log2(bits) + 1;
  // Each bin takes at least `bits` bits: bound the allocation by the stream.
  if (nBins * (bits / 8) > reader.bytesLeft + 1) corrupt(`${nBins} bins are longer than the stream`);
  const weights = new Uint32Array(nBins);
  const lowers = latentArray(bits, nBins);
  const offsetBits = new Uint8Array(nBins);
  let total = 0;
  for (let i = 0; i < nBins; i++) {
    weights[i] = reader.readSmall(ansSizeLog) + 1;
    lowers[i] = readLatent(reader, bits) as never;
    const ob = reader.readSmall(offsetBitsBits);
    if (ob > bits) corrupt(`bin offset bits ${ob} exceed the ${bits}-bit latent`);
    offsetBits[i] = ob;
    total += weights[i];
  }
  reader.checkInBounds("bins");
  if (nBins > 0 && total !== 1 << ansSizeLog) corrupt(`bin weights add up to ${total}, not the tANS table size ${1 << ansSizeLog}`);
  if (nBins === 0 && ansSizeLog !== 0) corrupt(`no bins but ANS size log ${ansSizeLog}`);
  return { bits, ansSizeLog, weights, lowers, offsetBits };
}

function checkModeFitsType(mode: Mode, type: NumberTypeInfo): void {
  switch (mode.kind) {
    case "classic":
    case "dict":
      return;
    case "int_mult":
      if (type.kind === "float") corrupt(`int mult mode on ${type.name} numbers`);
      if (mode.base === 0 || mode.base === 0n) corrupt("int mult mode with base 0");
      return;
    case "float_mult": {
      if (type.kind !== "float") corrupt(`float mult mode on ${type.name} numbers`);
      const base = floatFromLatent(mode.baseLatent, type);
      if (!Number.isFinite(base) || base === 0) corrupt(`float mult mode with base ${base}`);
      return;
    }
    case "float_quant":
      if (type.kind !== "float") corrupt(`float quant mode on ${type.name} numbers`);
      if (mode.k === 0 || mode.k > type.precisionBits) corrupt(`float quant mode with k = ${mode.k}`);
      return;
  }
}

/** The float a latent stands for (order-preserving bijection), as a JS number. */
export function floatFromLatent(latent: number | bigint, type: NumberTypeInfo): number {
  if (type.bits === 64) {
    const l = BigInt(latent);
    const sign = 1n << 63n;
    const bitsValue = l & sign ? l ^ sign : BigInt.asUintN(64, ~l);
    const view = new DataView(new ArrayBuffer(8));
    view.setBigUint64(0, bitsValue, true);
    return view.getFloat64(0, true);
  }
  const l = Number(latent);
  if (type.bits === 32) {
    const bitsValue = l >= 0x80000000 ? l - 0x80000000 : ~l >>> 0;
    const view = new DataView(new ArrayBuffer(4));
    view.setUint32(0, bitsValue, true);
    return view.getFloat32(0, true);
  }
  const bitsValue = l & 0x8000 ? l ^ 0x8000 : ~l & 0xffff;
  return halfToFloat(bitsValue);
}

/** A binary16 bit pattern as a JS number (exact). */
export function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** The number of latents a delta encoding keeps in page metadata for one latent variable. */
export function stateLength(delta: DeltaEncoding): number {
  switch (delta.kind) {
    case "none":
      return 0;
    case "consecutive":
      return delta.order;
    case "lookback":
      return 2 ** delta.stateNLog;
    case "conv1":
      return delta.weights.length;
  }
}

/** The delta encoding applied to the secondary latent variable. */
export function secondaryDelta(delta: DeltaEncoding): DeltaEncoding {
  if ((delta.kind === "consecutive" || delta.kind === "lookback") && delta.secondaryUsesDelta) return delta;
  return { kind: "none" };
}

function checkDeltaFitsChunk(meta: ChunkMeta): void {
  const delta = meta.delta;
  if (delta.kind === "lookback") {
    const windowN = 2 ** delta.windowNLog;
    const lowers = meta.deltaVar?.lowers as Uint32Array;
    for (const lower of lowers) {
      if (lower < 1 || lower > windowN) corrupt(`lookback bin lower bound ${lower} is outside the window [1, ${windowN}]`);
    }
  }
  if (delta.kind === "conv1") {
    const bits = meta.primary.bits;
    if (bits > 32) corrupt("conv1 delta encoding on latents wider than 32 bits");
    const convBits = 2 * bits;
    if (delta.quantization > convBits - 1) corrupt(`conv1 quantization ${delta.quantization} exceeds ${convBits - 1}`);
    let sumAbs = 0;
    for (const w of delta.weights) sumAbs += Math.abs(Number(w));
    const maxPred = Math.abs(Number(delta.bias)) + 2 ** bits * sumAbs;
    if (maxPred >= 2 ** (convBits - 1)) corrupt(`conv1 weights and bias could overflow (up to ${maxPred})`);
  }
}

/**
 * Reads one chunk's metadata for numbers of `type`, in the wrapped format of `version`,
 * ending at a byte boundary.
 */
export function readChunkMeta(reader: PcoBitReader, version: FormatVersion, type: NumberTypeInfo): ChunkMeta {
  const mode = readMode(reader, version, type.bits);
  reader.checkInBounds("the chunk's mode");
  const delta = readDelta(reader, version);
  reader.checkInBounds("the chunk's delta encoding");
  const deltaVar = delta.kind === "lookback" ? readLatentVar(reader, 32) : undefined;
  const primary = readLatentVar(reader, mode.kind === "dict" ? 32 : type.bits);
  const secondary = mode.kind === "int_mult" || mode.kind === "float_mult" || mode.kind === "float_quant" ? readLatentVar(reader, type.bits) : undefined;
  reader.alignToByte("the chunk metadata");
  reader.checkInBounds("the chunk metadata");
  const meta: ChunkMeta = { mode, delta, deltaVar, primary, secondary };
  checkDeltaFitsChunk(meta);
  checkModeFitsType(mode, type);
  return meta;
}
