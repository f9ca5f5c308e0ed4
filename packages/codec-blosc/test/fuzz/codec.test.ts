/** Fuzz properties of the blosc decoder, every inner compressor and shuffle (see scripts/codec-fuzz.mjs). */
import type { BytesToBytesCodec, ChunkSpec, CodecBuildContext, DataType } from "@zarr/spec";
import { describe } from "vitest";
import { codecFuzzProperties } from "../../../../scripts/codec-fuzz.mjs";
import { blosc } from "../../src/index.js";

const spec: ChunkSpec = { shape: [100], dataType: { name: "uint8", byteSize: 1 } as unknown as DataType, fillValue: 0 };
const context = { spec, path: ["codecs", 1] } as unknown as CodecBuildContext;

for (const cname of ["blosclz", "lz4", "lz4hc", "zlib", "zstd", "snappy"]) {
  for (const shuffle of ["noshuffle", "shuffle", "bitshuffle"]) {
    describe(`blosc ${cname}, ${shuffle}`, async () => {
      const codec = (await blosc.fromConfig({ cname, clevel: 5, shuffle, typesize: 4, blocksize: 0 }, context)) as BytesToBytesCodec;
      codecFuzzProperties(codec);
    });
  }
}
