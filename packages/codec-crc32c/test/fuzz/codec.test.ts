/**
 * Fuzz properties of the crc32c checksum codec (see scripts/codec-fuzz.mjs). Its output is
 * never larger than its input, so it leaves the bound to the pipeline's check.
 */
import type { BytesToBytesCodec, CodecBuildContext } from "@zarr/spec";
import { describe } from "vitest";
import { codecFuzzProperties } from "../../../../scripts/codec-fuzz.mjs";
import { crc32cCodec } from "../../src/index.js";

describe("crc32c", async () => {
  const codec = (await crc32cCodec.fromConfig({}, { path: ["codecs", 1] } as unknown as CodecBuildContext)) as BytesToBytesCodec;
  codecFuzzProperties(codec, { honoursBound: false });
});
