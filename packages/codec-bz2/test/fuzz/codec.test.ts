/** Fuzz properties of the bz2 decoder (see scripts/codec-fuzz.mjs; FUZZ_RUNS=… for more runs). */
import { describe } from "vitest";
import { codecFuzzProperties } from "../../../../scripts/codec-fuzz.mjs";
import { Bz2Codec } from "../../src/index.js";

describe("numcodecs.bz2", () => {
  codecFuzzProperties(new Bz2Codec(1));
});
