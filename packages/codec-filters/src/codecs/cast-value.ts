/**
 * The registered `cast_value` codec `{data_type, rounding?, out_of_range?, scalar_map?}`
 * (array→array) and its earlier draft `cast-value` (`range` instead of `out_of_range`):
 * converts values (not bit patterns) between integer and float types.
 *
 * - `rounding` (float → integer only): `nearest-even` (default), `towards-zero`,
 *   `towards-positive`, `towards-negative`, `nearest-away`. Casts to float types round to
 *   nearest, ties to even.
 * - `out_of_range`: absent or `"error"` fails on a value outside the target's range;
 *   `"clamp"` saturates (±Infinity count as out of range for integer targets, and finite
 *   values that overflow a float target clamp to its largest finite value); `"wrap"`
 *   (integer targets only) reduces modulo 2^bits. When decoding back to a float type,
 *   `"wrap"` acts as `"error"` (only int64 → float16 can overflow there).
 * - NaN cast to an integer type always fails, unless `scalar_map` maps it.
 * - `scalar_map`: `{"encode": [[from, to], …], "decode": [[from, to], …]}`, values written
 *   like fill values of the source and target types; a mapped value bypasses the cast.
 *   NaN matches every NaN; otherwise values match by `===` (so 0 matches -0).
 *
 * The same rounding and range rules apply when decoding (target type → array type).
 */
import {
  type ArrayToArrayCodec,
  type ChunkSpec,
  type CodecCallContext,
  type CodecEntry,
  type DataType,
  describeJson,
  type ExtensionObject,
  isJsonObject,
  type JsonObject,
  type JsonPath,
  type JsonValue,
  MetadataError,
  type NdArray,
  roundHalfEven,
  type Scalar,
  shapeSize,
  type TypedArray,
} from "@zarr/spec";
import { cannotEncode, codecFailed, contiguous, elementsOf, withDataType } from "../chunk.js";
import { ConfigReader } from "../config.js";
import { roundToFloat16 } from "../float16.js";
import { bigintToFloat32 } from "../numpy-cast.js";
import { isBigIntType, type NumType, numTypeOf } from "../numeric-type.js";

const ROUNDINGS = ["nearest-even", "towards-zero", "towards-positive", "towards-negative", "nearest-away"] as const;
type Rounding = (typeof ROUNDINGS)[number];
const RANGES = ["error", "clamp", "wrap"] as const;
type OutOfRange = (typeof RANGES)[number];

const FLOAT_MAX: Record<string, number> = { f2: 65504, f4: 3.4028234663852886e38, f8: Number.MAX_VALUE };

function roundingFunction(mode: Rounding): (x: number) => number {
  switch (mode) {
    case "nearest-even":
      return roundHalfEven;
    case "towards-zero":
      return Math.trunc;
    case "towards-positive":
      return Math.ceil;
    case "towards-negative":
      return Math.floor;
    case "nearest-away":
      return (x) => {
        const t = Math.trunc(x);
        return Math.abs(x - t) >= 0.5 ? t + Math.sign(x) : t;
      };
  }
}

/** Integer range of a numeric type, as bigints. */
function intRange(t: NumType): [bigint, bigint] {
  const bits = BigInt(8 * t.size);
  return t.kind === "u" ? [0n, (1n << bits) - 1n] : [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n];
}

/** Why one value could not be cast (the caller adds where). */
class CastFailure extends Error {}

/** One value map entry: source value → target value. */
interface MapEntry {
  from: number | bigint;
  to: number | bigint;
}

/** Casts element values from one numeric type to another under the codec's rules. */
class Caster {
  private readonly round: (x: number) => number;
  private readonly lo: bigint;
  private readonly hi: bigint;
  /** The same bounds as numbers, for targets up to 32 bits (no bigint per element there). */
  private readonly loN: number;
  private readonly hiN: number;
  private readonly bigTarget: boolean;

  constructor(
    private readonly from: NumType,
    private readonly to: NumType,
    rounding: Rounding,
    private readonly range: OutOfRange,
    private readonly map: readonly MapEntry[],
  ) {
    this.round = roundingFunction(rounding);
    [this.lo, this.hi] = to.kind === "f" ? [0n, 0n] : intRange(to);
    this.loN = Number(this.lo);
    this.hiN = Number(this.hi);
    this.bigTarget = isBigIntType(to);
  }

  private lookup(v: number | bigint): number | bigint | undefined {
    for (const e of this.map) {
      if (typeof e.from === "number" && Number.isNaN(e.from)) {
        if (typeof v === "number" && Number.isNaN(v)) return e.to;
      } else if (v === e.from) {
        return e.to;
      }
    }
    return undefined;
  }

  /** An integer (as a bigint) into the integer target range. */
  private fitInteger(v: bigint): bigint {
    if (v >= this.lo && v <= this.hi) return v;
    if (this.range === "clamp") return v < this.lo ? this.lo : this.hi;
    if (this.range === "wrap") {
      const span = this.hi - this.lo + 1n;
      return ((((v - this.lo) % span) + span) % span) + this.lo;
    }
    throw new CastFailure(`${v} is outside the range of ${this.to.v3} [${this.lo}, ${this.hi}]`);
  }

  /** A finite or infinite number into the float target. */
  private fitFloat(v: number): number {
    const r = this.to.code === "f2" ? roundToFloat16(v) : this.to.code === "f4" ? Math.fround(v) : v;
    if (Number.isFinite(r) || !Number.isFinite(v)) return r;
    if (this.range === "clamp") return v > 0 ? FLOAT_MAX[this.to.code] : -FLOAT_MAX[this.to.code];
    throw new CastFailure(`${v} is outside the range of ${this.to.v3}`);
  }

  /** Casts one value. */
  cast(v: number | bigint): number | bigint {
    if (this.map.length > 0) {
      const mapped = this.lookup(v);
      if (mapped !== undefined) return mapped;
    }
    const to = this.to;
    if (to.kind === "f") {
      if (typeof v === "bigint") {
        if (to.code === "f4") return this.fitFloat(bigintToFloat32(v));
        return this.fitFloat(Number(v));
      }
      return this.fitFloat(v);
    }
    if (typeof v === "bigint") return this.toTarget(this.fitInteger(v));
    let r = v;
    if (this.from.kind === "f") {
      if (Number.isNaN(v)) throw new CastFailure(`NaN cannot be cast to ${to.v3}`);
      if (!Number.isFinite(v)) {
        if (this.range === "clamp") return this.toTarget(v > 0 ? this.hi : this.lo);
        throw new CastFailure(`${v} is outside the range of ${to.v3}`);
      }
      r = this.round(v);
    }
    if (this.bigTarget) return this.fitInteger(BigInt(r));
    return this.fitSmallInteger(r);
  }

  /** An integral number into a target of at most 32 bits, without bigints. */
  private fitSmallInteger(r: number): number {
    if (r >= this.loN && r <= this.hiN) return r + 0; // + 0 turns -0 into 0
    if (this.range === "clamp") return r < this.loN ? this.loN : this.hiN;
    if (this.range === "wrap") {
      // % is exact on doubles; reduce first so the subtraction below is exact too
      const span = this.hiN - this.loN + 1;
      const m = (r % span) - this.loN;
      return (((m % span) + span) % span) + this.loN;
    }
    throw new CastFailure(`${r} is outside the range of ${this.to.v3} [${this.lo}, ${this.hi}]`);
  }

  private toTarget(v: bigint): number | bigint {
    return isBigIntType(this.to) ? v : Number(v);
  }

  /** Casts `n` elements of `src` into `out`; failures name the element index. */
  castArray(src: TypedArray, out: TypedArray, n: number): void {
    const s = src as unknown as ArrayLike<number | bigint>;
    const o = out as unknown as { [i: number]: number | bigint };
    for (let i = 0; i < n; i++) {
      try {
        o[i] = this.cast(s[i]);
      } catch (error) {
        if (error instanceof CastFailure) throw new CastFailure(`element ${i}: ${error.message}`);
        throw error;
      }
    }
  }
}

/** Parses scalar_map entries for one direction. */
function parseMap(
  json: JsonValue | undefined,
  fromType: DataType,
  toType: DataType,
  fromNum: NumType,
  toNum: NumType,
  path: JsonPath,
): MapEntry[] {
  if (json === undefined || json === null) return [];
  if (!Array.isArray(json)) throw new MetadataError(path, `expected an array of [from, to] pairs, found ${describeJson(json)}`);
  return json.map((pair, i) => {
    if (!Array.isArray(pair) || pair.length !== 2) {
      throw new MetadataError([...path, i], `expected a [from, to] pair, found ${describeJson(pair)}`);
    }
    const from = fromType.parseFillValue(pair[0], [...path, i, 0]);
    const to = toType.parseFillValue(pair[1], [...path, i, 1]);
    const asNumber = (v: Scalar, t: NumType): number | bigint => (isBigIntType(t) ? (v as bigint) : Number(v));
    return { from: asNumber(from, fromNum), to: asNumber(to, toNum) };
  });
}

class CastValueCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array" as const;
  private lastFill: { value: Scalar; encoded: Scalar } | undefined;

  constructor(
    readonly name: string,
    private readonly encodeCaster: Caster,
    private readonly decodeCaster: Caster,
    private readonly target: DataType,
    private readonly path: JsonPath,
    private readonly json: JsonObject,
  ) {}

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    const cached = this.lastFill;
    if (cached !== undefined && Object.is(cached.value, spec.fillValue)) return withDataType(spec, this.target, cached.encoded);
    let encoded: Scalar;
    try {
      encoded = this.encodeCaster.cast(spec.fillValue as number | bigint);
    } catch (error) {
      if (!(error instanceof CastFailure)) throw error;
      throw new MetadataError(this.path, `the fill value ${String(spec.fillValue)} cannot be cast to ${this.target.name}: ${error.message}`);
    }
    this.lastFill = { value: spec.fillValue, encoded };
    return withDataType(spec, this.target, encoded);
  }

  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const n = shapeSize(spec.shape);
    const data = elementsOf(chunk, spec.dataType, spec.shape, this.name, ctx) as TypedArray;
    const out = this.target.allocate(n) as TypedArray;
    try {
      this.encodeCaster.castArray(data, out, n);
    } catch (error) {
      if (error instanceof CastFailure) throw cannotEncode(this.name, ctx, error.message);
      throw error;
    }
    return contiguous(out, spec.shape);
  }

  decode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const n = shapeSize(spec.shape);
    const data = elementsOf(chunk, this.target, spec.shape, this.name, ctx) as TypedArray;
    const out = spec.dataType.allocate(n) as TypedArray;
    try {
      this.decodeCaster.castArray(data, out, n);
    } catch (error) {
      if (error instanceof CastFailure) throw codecFailed(this.name, ctx, error.message);
      throw error;
    }
    return contiguous(out, spec.shape);
  }

  toJSON(): ExtensionObject {
    return { name: this.name, configuration: structuredClone(this.json) };
  }
}

function castValueEntry(name: string, rangeKey: "out_of_range" | "range"): CodecEntry {
  return {
    type: "codec",
    name,
    codecKind: "array_to_array",
    package: "@zarr/codec-filters",
    async fromConfig(configuration, context) {
      const r: ConfigReader = new ConfigReader(name, configuration, context.path, ["data_type", "rounding", rangeKey, "scalar_map"]);
      const source = context.spec.dataType;
      const sourceNum = numTypeOf(source);
      if (sourceNum === undefined || sourceNum.kind === "b" || sourceNum.kind === "c") {
        r.failCodec(`the codec "${name}" needs integer or float data, but the array entering it is ${source.name}`);
      }
      const dt = r.raw("data_type");
      let target: DataType;
      if (typeof dt === "string") target = await context.resolveDataType(dt);
      else if (isJsonObject(dt) && typeof dt.name === "string") {
        const conf = dt.configuration;
        target = await context.resolveDataType(dt.name, isJsonObject(conf) ? conf : {});
      } else throw r.fail("data_type", `expected Zarr v3 data type metadata, found ${describeJson(dt)}`);
      const targetNum = numTypeOf(target);
      if (targetNum === undefined || targetNum.kind === "b" || targetNum.kind === "c") {
        r.fail("data_type", `the codec "${name}" casts to integer or float types only, not ${target.name}`);
      }
      const rounding = r.oneOf("rounding", ROUNDINGS, "nearest-even");
      const range = r.oneOf(rangeKey, RANGES, "error");
      if (range === "wrap" && targetNum.kind === "f") {
        r.fail(rangeKey, `"wrap" is only defined for integer target types, not ${target.name}`);
      }
      let encodeMap: MapEntry[] = [];
      let decodeMap: MapEntry[] = [];
      const sm = r.raw("scalar_map");
      if (sm !== undefined && sm !== null) {
        if (!isJsonObject(sm)) r.fail("scalar_map", `expected an object with "encode" and/or "decode", found ${describeJson(sm)}`);
        for (const key of Object.keys(sm)) {
          if (key !== "encode" && key !== "decode") r.fail("scalar_map", `unknown key ${JSON.stringify(key)}`);
        }
        const at = r.at("scalar_map");
        encodeMap = parseMap(sm.encode, source, target, sourceNum, targetNum, [...at, "encode"]);
        decodeMap = parseMap(sm.decode, target, source, targetNum, sourceNum, [...at, "decode"]);
      }
      const json: JsonObject = { data_type: structuredClone(dt as JsonValue), rounding };
      if (r.has(rangeKey)) json[rangeKey] = range;
      if (sm !== undefined && sm !== null) json.scalar_map = structuredClone(sm);
      const codec = new CastValueCodec(
        name,
        new Caster(sourceNum, targetNum, rounding, range, encodeMap),
        new Caster(targetNum, sourceNum, rounding, range, decodeMap),
        target,
        context.path,
        json,
      );
      codec.encodedSpec(context.spec); // a fill value that cannot be cast is a metadata error
      return codec;
    },
  };
}

/**
 * The registered `cast_value` codec entry (array→array) for integer and float data.
 *
 * @example
 * ```ts
 * const codecs = [{ name: "scale_offset", configuration: { offset: 0, scale: 100 } },
 *   { name: "cast_value", configuration: { data_type: "int16", out_of_range: "clamp" } }, "bytes"];
 * ```
 */
export const castValue: CodecEntry = castValueEntry("cast_value", "out_of_range");

/**
 * The `cast-value` codec entry: the earlier draft of `cast_value`, with `range` in place
 * of `out_of_range`.
 *
 * @example
 * ```ts
 * const codecs = [{ name: "cast-value", configuration: { data_type: "uint8", range: "clamp" } }, "bytes"];
 * ```
 */
export const castValueDraft: CodecEntry = castValueEntry("cast-value", "range");
