/**
 * The `optional` array→bytes codec (zarrs; zarr-extensions: codecs/optional) for arrays of
 * the `optional` data type. A chunk is stored as
 *
 *     [mask length: u64 LE][data length: u64 LE][encoded mask][encoded data]
 *
 * where the mask is a `bool` array of the chunk's shape (true = the element is present),
 * encoded by the `mask_codecs` chain, and the data is the present elements only, in C
 * order, as a one-dimensional array of the inner type encoded by the `data_codecs` chain
 * (nothing at all when no element is present). Not in a registry by default (see
 * `optionalEntries` in data-types/composite-entries.ts), so bundles that never meet the
 * type stay as small as before.
 */
import {
  type ArrayToBytesCodec,
  type ChunkSpec,
  type CodecCallContext,
  type CodecEntry,
  type CodecPipeline,
  cStrides,
  describeJson,
  type ExtensionObject,
  type JsonObject,
  type JsonValue,
  MetadataError,
  type NdArray,
  parseExtension,
  type Scalar,
  shapeSize,
  ZarrError,
} from "@zarr/spec";
import { isOptionalDataType, type OptionalDataType, type OptionalScalar } from "../data-types/optional.js";

const NAME = "optional";
const HEADER_BYTES = 16;

function failed(ctx: CodecCallContext, why: string): ZarrError {
  return new ZarrError("CODEC_FAILED", `${NAME}: chunk "${ctx.key}" ${why}`, { key: ctx.key });
}

/** Flat C-order position `i` of `nd` as an index into its data. */
function elementIndex(nd: NdArray, i: number): number {
  let rest = i;
  let at = nd.offset ?? 0;
  for (let d = nd.shape.length - 1; d >= 0; d--) {
    const n = nd.shape[d];
    at += (rest % n) * nd.stride[d];
    rest = Math.floor(rest / n);
  }
  return at;
}

/** The codec for chunks of `dataType`, with its two chains built. */
class OptionalCodec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes";
  readonly name = NAME;
  constructor(
    private readonly dataType: OptionalDataType,
    private readonly mask: CodecPipeline,
    private readonly data: CodecPipeline,
    private readonly boolType: ChunkSpec["dataType"],
  ) {}

  private maskSpec(shape: number[]): ChunkSpec {
    return { shape, dataType: this.boolType, fillValue: false };
  }

  private dataSpec(count: number): ChunkSpec {
    const inner = this.dataType.inner;
    return { shape: [count], dataType: inner, fillValue: inner.getItem(inner.allocate(1), 0) };
  }

  async encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): Promise<Uint8Array> {
    const n = shapeSize(spec.shape);
    const values = chunk.data as OptionalScalar[];
    const present = this.boolType.allocate(n);
    let count = 0;
    for (let i = 0; i < n; i++) {
      if (values[elementIndex(chunk, i)] !== null) {
        this.boolType.setItem(present, i, true);
        count++;
      }
    }
    const maskBytes = await this.mask.encode({ data: present, shape: [...spec.shape], stride: cStrides(spec.shape) }, this.maskSpec([...spec.shape]), ctx);
    let dataBytes: Uint8Array = new Uint8Array(0);
    if (count > 0) {
      const inner = this.dataType.inner;
      const packed = inner.allocate(count);
      for (let i = 0, k = 0; i < n; i++) {
        const v = values[elementIndex(chunk, i)];
        if (v !== null) inner.setItem(packed, k++, v as Scalar);
      }
      dataBytes = await this.data.encode({ data: packed, shape: [count], stride: [1] }, this.dataSpec(count), ctx);
    }
    const out = new Uint8Array(HEADER_BYTES + maskBytes.length + dataBytes.length);
    const view = new DataView(out.buffer);
    view.setBigUint64(0, BigInt(maskBytes.length), true);
    view.setBigUint64(8, BigInt(dataBytes.length), true);
    out.set(maskBytes, HEADER_BYTES);
    out.set(dataBytes, HEADER_BYTES + maskBytes.length);
    return out;
  }

  async decode(bytes: Uint8Array, spec: ChunkSpec, ctx: CodecCallContext): Promise<NdArray> {
    if (bytes.length < HEADER_BYTES) throw failed(ctx, `has ${bytes.length} bytes, fewer than the 16-byte header`);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const maskLength = view.getBigUint64(0, true);
    const dataLength = view.getBigUint64(8, true);
    const expected = BigInt(HEADER_BYTES) + maskLength + dataLength;
    if (expected !== BigInt(bytes.length)) {
      throw failed(ctx, `has ${bytes.length} bytes, but its header says ${expected} (mask ${maskLength}, data ${dataLength})`);
    }
    const maskEnd = HEADER_BYTES + Number(maskLength);
    const mask = await this.mask.decode(bytes.subarray(HEADER_BYTES, maskEnd), this.maskSpec([...spec.shape]), ctx);
    const n = shapeSize(spec.shape);
    const present: boolean[] = new Array(n);
    let count = 0;
    for (let i = 0; i < n; i++) {
      present[i] = Boolean(this.boolType.getItem(mask.data, elementIndex(mask, i)));
      if (present[i]) count++;
    }
    const out = this.dataType.allocate(n);
    if (count > 0) {
      const data = await this.data.decode(bytes.subarray(maskEnd), this.dataSpec(count), ctx);
      if (shapeSize(data.shape) !== count) throw failed(ctx, `holds ${shapeSize(data.shape)} values for ${count} present elements`);
      const inner = this.dataType.inner;
      for (let i = 0, k = 0; i < n; i++) if (present[i]) out[i] = inner.getItem(data.data, elementIndex(data, k++));
    } else if (dataLength !== 0n) {
      throw failed(ctx, `has ${dataLength} data bytes but no present element`);
    }
    return { data: out, shape: [...spec.shape], stride: cStrides(spec.shape) };
  }

  toJSON(): ExtensionObject {
    return {
      name: NAME,
      configuration: {
        mask_codecs: this.mask.toJSON() as unknown as JsonValue[],
        data_codecs: this.data.toJSON() as unknown as JsonValue[],
      },
    };
  }
}

/** The `mask_codecs` or `data_codecs` list of a configuration, checked. */
function chainAt(configuration: JsonObject, field: "mask_codecs" | "data_codecs", path: (string | number)[]): ExtensionObject[] {
  const chain = configuration[field];
  if (!Array.isArray(chain) || chain.length === 0) {
    throw new MetadataError([...path, field], `expected a non-empty list of codecs, got ${describeJson(chain)}`);
  }
  return chain.map((c, i) => parseExtension(c, [...path, field, i]));
}

/** The `optional` codec entry: `{"mask_codecs": [...], "data_codecs": [...]}`. */
export const optionalCodec: CodecEntry = {
  type: "codec",
  name: NAME,
  codecKind: "array_to_bytes",
  package: "@zarr/core",
  async withDefaults(configuration, context) {
    const out: JsonObject = { ...configuration };
    if (Array.isArray(configuration.mask_codecs)) out.mask_codecs = await context.completeChain(configuration.mask_codecs, false);
    if (Array.isArray(configuration.data_codecs)) out.data_codecs = await context.completeChain(configuration.data_codecs, context.multiByte);
    return out;
  },
  async fromConfig(configuration, context) {
    const cpath = [...context.path, "configuration"];
    for (const k of Object.keys(configuration)) {
      if (k !== "mask_codecs" && k !== "data_codecs") throw new MetadataError([...cpath, k], `unknown configuration field "${k}"`);
    }
    const dataType = context.spec.dataType;
    if (!isOptionalDataType(dataType)) {
      throw new MetadataError(context.path, `the optional codec encodes arrays of the optional data type, not ${dataType.name}`);
    }
    const maskChain = chainAt(configuration, "mask_codecs", cpath);
    const dataChain = chainAt(configuration, "data_codecs", cpath);
    const boolType = await context.resolveDataType("bool");
    const mask = await context.buildPipeline(maskChain, { shape: [...context.spec.shape], dataType: boolType, fillValue: false }, [...cpath, "mask_codecs"]);
    const inner = dataType.inner;
    const innerZero = inner.getItem(inner.allocate(1), 0);
    const data = await context.buildPipeline(dataChain, { shape: [1], dataType: inner, fillValue: innerZero }, [...cpath, "data_codecs"]);
    return new OptionalCodec(dataType, mask, data, boolType);
  },
};
