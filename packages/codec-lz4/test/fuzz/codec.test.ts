/** Fuzz properties of the numcodecs lz4 decoder (see scripts/codec-fuzz.mjs; FUZZ_RUNS=… for more runs). */
import type { BytesToBytesCodec, CodecBuildContext } from "@zarr/spec";
import { describe } from "vitest";
import { codecFuzzProperties } from "../../../../scripts/codec-fuzz.mjs";
import { lz4 } from "../../src/index.js";

describe("numcodecs.lz4", () => {
  codecFuzzProperties(lz4.fromConfig({ acceleration: 1 }, { path: ["codecs", 1] } as unknown as CodecBuildContext) as BytesToBytesCodec);
});
