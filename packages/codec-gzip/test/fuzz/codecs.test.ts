/** Fuzz properties of gzip and zlib over every backend (see scripts/codec-fuzz.mjs; FUZZ_RUNS=… for more runs). */
import { describe } from "vitest";
import { codecFuzzProperties } from "../../../../scripts/codec-fuzz.mjs";
import { backends, gzipCodec, zlibCodec } from "../helpers.js";

for (const backend of backends) {
  describe(`gzip over ${backend.name}`, async () => {
    codecFuzzProperties(await gzipCodec(backend, 1));
  });
  describe(`zlib over ${backend.name}`, async () => {
    codecFuzzProperties(await zlibCodec(backend, 1));
  });
}
