/** Fuzz properties of the LZW decoder (see scripts/codec-fuzz.mjs; FUZZ_RUNS=… for more runs). */
import { describe } from "vitest";
import { codecFuzzProperties } from "../../../../scripts/codec-fuzz.mjs";
import { LzwCodec } from "../../src/index.js";

describe("numcodecs.imagecodecs_lzw", () => {
  codecFuzzProperties(new LzwCodec());
});
