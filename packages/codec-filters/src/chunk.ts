/** Small helpers shared by the array→array codecs: contiguous element access, errors. */
import {
  type ChunkSpec,
  type CodecCallContext,
  cStrides,
  type DataArray,
  type DataType,
  type NdArray,
  shapeSize,
  toCContiguous,
  ZarrError,
} from "@zarr/spec";

/** A `CODEC_FAILED` error naming the codec and the chunk. */
export function codecFailed(codec: string, ctx: CodecCallContext, problem: string): ZarrError {
  return new ZarrError("CODEC_FAILED", `${codec}: cannot decode chunk "${ctx.key}": ${problem}`, { key: ctx.key });
}

/** An `INVALID_ARGUMENT` error for data a codec cannot encode, naming the chunk. */
export function cannotEncode(codec: string, ctx: CodecCallContext, problem: string): ZarrError {
  return new ZarrError("INVALID_ARGUMENT", `${codec}: cannot encode chunk "${ctx.key}": ${problem}`, { key: ctx.key });
}

/** A `CODEC_FAILED` error for a chunk whose shape or storage does not fit, either direction. */
function badChunk(codec: string, ctx: CodecCallContext, problem: string): ZarrError {
  return new ZarrError("CODEC_FAILED", `${codec}: chunk "${ctx.key}": ${problem}`, { key: ctx.key });
}

/**
 * The elements of `chunk` in C order (a view when the chunk already is C-contiguous, a
 * copy otherwise), checked to have as many elements as `shape`.
 */
export function elementsOf(
  chunk: NdArray,
  dataType: DataType,
  shape: readonly number[],
  codec: string,
  ctx: CodecCallContext,
): DataArray {
  const n = shapeSize(chunk.shape);
  if (n !== shapeSize(shape)) {
    throw badChunk(codec, ctx, `got ${n} elements (shape [${chunk.shape}]) where [${shape}] was expected`);
  }
  if (n > 0) {
    // the view must stay inside its storage
    let lo = chunk.offset ?? 0;
    let hi = lo;
    for (let d = 0; d < chunk.shape.length; d++) {
      const reach = (chunk.shape[d] - 1) * chunk.stride[d];
      if (reach < 0) lo += reach;
      else hi += reach;
    }
    if (lo < 0 || (hi + 1) * dataType.width > chunk.data.length) {
      throw badChunk(codec, ctx, `the chunk's ${chunk.data.length} slots cannot hold [${chunk.shape}] elements of ${dataType.name}`);
    }
  }
  return toCContiguous(chunk, dataType).data;
}

/** A C-contiguous array of `shape` over `data`. */
export function contiguous(data: DataArray, shape: readonly number[]): NdArray {
  return { data, shape: shape.slice(), stride: cStrides(shape) };
}

/** The spec with another data type and fill value. */
export function withDataType(spec: ChunkSpec, dataType: DataType, fillValue: ChunkSpec["fillValue"]): ChunkSpec {
  return { shape: spec.shape, dataType, fillValue };
}
