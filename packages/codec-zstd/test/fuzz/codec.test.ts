/** Fuzz properties of the zstd decoder (see scripts/codec-fuzz.mjs; FUZZ_RUNS=… for more runs). */
import { describe } from "vitest";
import { codecFuzzProperties } from "../../../../scripts/codec-fuzz.mjs";
import { createZstdCodec } from "../../src/index.js";

for (const checksum of [false, true]) {
  describe(`zstd, checksum ${checksum}`, () => {
    codecFuzzProperties(createZstdCodec({ level: 1, checksum }));
  });
}
