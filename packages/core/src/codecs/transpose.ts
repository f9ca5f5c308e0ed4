/**
 * The `transpose` codec: permutes the chunk's dimensions. Both directions return a
 * strided view (no data is moved); the copy into the caller's array does the work once.
 */
import {
  type ArrayToArrayCodec,
  type ChunkSpec,
  type CodecEntry,
  describeJson,
  MetadataError,
  type NdArray,
} from "@zarr/spec";
import { workerModuleUrl } from "../up-front.js";

/** The `transpose` codec entry: `order` is a permutation (or the legacy "C" / "F"). */
export const transposeCodec: CodecEntry = {
  type: "codec",
  name: "transpose",
  codecKind: "array_to_array",
  worker: { moduleUrl: workerModuleUrl(import.meta.url, "transpose.js"), moduleName: "@zarr/core/engine-task", exportName: "transposeCodec" },
  lightweight: true,
  fromConfig(configuration, { spec, path }): ArrayToArrayCodec {
    for (const k of Object.keys(configuration)) {
      if (k !== "order") throw new MetadataError([...path, "configuration", k], `unknown configuration field "${k}"`);
    }
    const ndim = spec.shape.length;
    const raw = configuration.order;
    let order: number[];
    if (raw === "C") order = [...Array(ndim).keys()];
    else if (raw === "F") order = [...Array(ndim).keys()].reverse();
    else {
      if (!Array.isArray(raw)) {
        throw new MetadataError([...path, "configuration", "order"], `expected a permutation of 0…${ndim - 1}, got ${describeJson(raw)}`);
      }
      const seen = new Set<number>();
      for (const v of raw) {
        if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v >= ndim || seen.has(v)) break;
        seen.add(v);
      }
      if (raw.length !== ndim || seen.size !== ndim) {
        throw new MetadataError(
          [...path, "configuration", "order"],
          `expected a permutation of 0…${ndim - 1} for a ${ndim}-dimensional array, got ${JSON.stringify(raw)}`,
        );
      }
      order = raw as number[];
    }
    const inverse = new Array<number>(ndim);
    order.forEach((o, i) => {
      inverse[o] = i;
    });
    const permute = (a: NdArray, perm: readonly number[]): NdArray => ({
      data: a.data,
      shape: perm.map((p) => a.shape[p]),
      stride: perm.map((p) => a.stride[p]),
      offset: a.offset,
    });
    return {
      kind: "array_to_array",
      name: "transpose",
      encodedSpec: (s: ChunkSpec) => ({ ...s, shape: order.map((p) => s.shape[p]) }),
      encode: (chunk) => permute(chunk, order),
      decode: (chunk) => permute(chunk, inverse),
      toJSON: () => ({ name: "transpose", configuration: { order: order.slice() } }),
    };
  },
};
