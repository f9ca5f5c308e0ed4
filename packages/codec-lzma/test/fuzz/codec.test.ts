/** Fuzz properties of the lzma decoders: .xz, .lzma and raw (see scripts/codec-fuzz.mjs; FUZZ_RUNS=… for more runs). */
import type { BytesToBytesCodec, CodecBuildContext } from "@zarr/spec";
import { describe } from "vitest";
import { codecFuzzProperties } from "../../../../scripts/codec-fuzz.mjs";
import { FILTER_DELTA, FILTER_LZMA1, FILTER_LZMA2, lzma } from "../../src/index.js";

const context = { path: ["codecs", 1] } as unknown as CodecBuildContext;
const configurations = {
  xz: { format: 1, check: -1, preset: 1, filters: null },
  "xz, delta": { format: 1, check: 1, preset: null, filters: [{ id: FILTER_DELTA, dist: 4 }, { id: FILTER_LZMA2, preset: 1 }] },
  ".lzma": { format: 2, check: -1, preset: 1, filters: null },
  "raw lzma2": { format: 3, check: -1, preset: null, filters: [{ id: FILTER_LZMA2, preset: 1 }] },
  "raw lzma1": { format: 3, check: -1, preset: null, filters: [{ id: FILTER_LZMA1, preset: 1 }] },
};

for (const [label, configuration] of Object.entries(configurations)) {
  describe(`numcodecs.lzma ${label}`, () => {
    codecFuzzProperties(lzma.fromConfig(configuration as never, context) as BytesToBytesCodec);
  });
}
