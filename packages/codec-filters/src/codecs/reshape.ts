/**
 * The registered `reshape` codec `{shape}` (array→array): the same elements in the same C
 * order under another shape. Each output dimension is a positive size, `-1` (at most once:
 * whatever makes the element counts agree), or a list of input dimensions whose sizes
 * multiply (`[[0, 1], [2], 3]`). Input dimension lists must increase across the whole
 * `shape` and line up with the output dimensions before and after them, as the spec
 * requires. Both directions return views when the input is C-contiguous.
 */
import {
  type ArrayToArrayCodec,
  type ChunkSpec,
  type CodecCallContext,
  type CodecEntry,
  describeJson,
  type ExtensionObject,
  type JsonPath,
  type JsonValue,
  MetadataError,
  type NdArray,
  shapeSize,
} from "@zarr/spec";
import { contiguous, elementsOf } from "../chunk.js";
import { ConfigReader } from "../config.js";

const NAME = "reshape";

/** One output dimension: a fixed size, the inferred one, or a product of input dimensions. */
type OutputDim = { size: number } | { infer: true } | { inputs: number[] };

const product = (values: readonly number[]): number => values.reduce((a, b) => a * b, 1);

/** Parses and checks `shape` as far as it does not depend on the input shape. */
function parseShape(json: JsonValue | undefined, path: JsonPath): OutputDim[] {
  if (!Array.isArray(json)) throw new MetadataError(path, `expected an array, found ${describeJson(json)}`);
  let inferred = false;
  let lastInput = -1;
  return json.map((v, i) => {
    if (typeof v === "number" && Number.isSafeInteger(v) && v > 0) return { size: v };
    if (v === -1) {
      if (inferred) throw new MetadataError([...path, i], "-1 may appear only once");
      inferred = true;
      return { infer: true } as const;
    }
    if (Array.isArray(v)) {
      const inputs: number[] = [];
      for (const [j, d] of v.entries()) {
        if (typeof d !== "number" || !Number.isSafeInteger(d) || d < 0) {
          throw new MetadataError([...path, i, j], `expected an input dimension index, found ${describeJson(d)}`);
        }
        if (d <= lastInput) {
          throw new MetadataError([...path, i, j], "input dimensions must increase across the whole shape (reshape never transposes)");
        }
        lastInput = d;
        inputs.push(d);
      }
      return { inputs };
    }
    throw new MetadataError([...path, i], `expected a positive integer, -1 or a list of input dimensions, found ${describeJson(v)}`);
  });
}

/** The output shape for input shape `input`, or a `MetadataError` at `path`. */
export function reshapeOutput(dims: readonly OutputDim[], input: readonly number[], path: JsonPath): number[] {
  const total = shapeSize(input);
  const out = dims.map((d) => {
    if ("size" in d) return d.size;
    if ("infer" in d) return -1;
    for (const k of d.inputs) {
      if (k >= input.length) {
        throw new MetadataError(path, `input dimension ${k} does not exist in a ${input.length}-dimensional chunk`);
      }
    }
    return product(d.inputs.map((k) => input[k]));
  });
  const at = out.indexOf(-1);
  if (at >= 0) {
    const known = product(out.filter((s) => s !== -1));
    if (known === 0 || total % known !== 0) {
      throw new MetadataError(path, `no size for -1 makes [${out}] hold the ${total} elements of [${input}]`);
    }
    out[at] = total / known;
  }
  if (product(out) !== total) {
    throw new MetadataError(path, `the output shape [${out}] does not hold the ${total} elements of the chunk shape [${input}]`);
  }
  dims.forEach((d, i) => {
    if (!("inputs" in d) || d.inputs.length === 0) return;
    const first = d.inputs[0];
    const last = d.inputs[d.inputs.length - 1];
    if (product(out.slice(0, i)) !== product(input.slice(0, first)) || product(out.slice(i + 1)) !== product(input.slice(last + 1))) {
      throw new MetadataError(
        path,
        `output dimension ${i} ([${d.inputs}]) does not line up with input dimensions ${first}…${last} of [${input}]`,
      );
    }
  });
  return out;
}

class ReshapeCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array" as const;
  readonly name = NAME;

  constructor(
    private readonly dims: readonly OutputDim[],
    private readonly json: JsonValue,
    private readonly path: JsonPath,
  ) {}

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    return { ...spec, shape: reshapeOutput(this.dims, spec.shape, this.path) };
  }

  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const data = elementsOf(chunk, spec.dataType, spec.shape, NAME, ctx);
    return contiguous(data, reshapeOutput(this.dims, spec.shape, this.path));
  }

  decode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const encodedShape = reshapeOutput(this.dims, spec.shape, this.path);
    return contiguous(elementsOf(chunk, spec.dataType, encodedShape, NAME, ctx), spec.shape);
  }

  toJSON(): ExtensionObject {
    return { name: NAME, configuration: { shape: structuredClone(this.json) } };
  }
}

/**
 * The registered `reshape` codec entry (array→array, any data type).
 *
 * @example
 * ```ts
 * const codecs = [{ name: "reshape", configuration: { shape: [[0, 1], -1] } }, "bytes"];
 * ```
 */
export const reshape: CodecEntry = {
  type: "codec",
  name: NAME,
  codecKind: "array_to_array",
  package: "@zarr/codec-filters",
  fromConfig(configuration, context) {
    const r: ConfigReader = new ConfigReader(NAME, configuration, context.path, ["shape"]);
    const json = r.raw("shape");
    const dims = parseShape(json, r.at("shape"));
    reshapeOutput(dims, context.spec.shape, r.at("shape"));
    return new ReshapeCodec(dims, json as JsonValue, r.at("shape"));
  },
};
