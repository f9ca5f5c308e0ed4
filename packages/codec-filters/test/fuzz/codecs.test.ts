/**
 * Fuzz properties of the bytes→bytes filters: checksums and shuffle (see
 * scripts/codec-fuzz.mjs). Their output is never larger than their input, so they leave
 * the bound to the pipeline's check.
 */
import type { CodecEntry, JsonObject } from "@zarr/spec";
import { describe } from "vitest";
import { chunkData, codecFuzzProperties } from "../../../../scripts/codec-fuzz.mjs";
import { adler32Codec, crc32Codec, fletcher32Codec, jenkinsLookup3Codec, shuffle } from "../../src/index.js";
import { b2bCodec } from "../helpers.js";

const cases: [string, CodecEntry, JsonObject][] = [
  ["crc32", crc32Codec, {}],
  ["adler32", adler32Codec, {}],
  ["fletcher32", fletcher32Codec, {}],
  ["jenkins_lookup3", jenkinsLookup3Codec, {}],
  ["shuffle", shuffle, { elementsize: 4 }],
];

for (const [label, entry, configuration] of cases) {
  describe(label, async () => {
    // Shuffle takes whole elements of 4 bytes.
    const data = label === "shuffle" ? chunkData.map((b) => b.subarray(0, b.length & ~3)) : chunkData;
    codecFuzzProperties(await b2bCodec(entry, configuration), { honoursBound: false, data });
  });
}
