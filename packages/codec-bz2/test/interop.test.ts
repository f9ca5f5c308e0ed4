/**
 * Interoperability with libbzip2 through Debian's Python (`bz2`) and numcodecs 0.11
 * (`numcodecs.BZ2`, which wraps `bz2`): what we write they read, and the reverse.
 * All requests go through one Python process, started once in `beforeAll`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { compressStream } from "../src/encoder.js";
import { type Bz2Codec, bz2, bz2Compress, bz2Decompress } from "../src/index.js";
import {
  concat,
  firstDifference,
  floatFieldBytes,
  int16StepBytes,
  makeBuildContext,
  type PythonRequest,
  pythonBatch,
  randomBytes,
  textBytes,
} from "./helpers.js";

const SAMPLES: Uint8Array[] = [
  new Uint8Array(0),
  Uint8Array.of(42),
  concat(new Uint8Array(4), new Uint8Array(5).fill(1), new Uint8Array(255).fill(2), new Uint8Array(256).fill(3)),
  textBytes(3000, 9),
  randomBytes(105_000, 21), // more than one block at level 1
  textBytes(110_000, 3),
  floatFieldBytes(20_000),
  int16StepBytes(20_000),
  new Uint8Array(300_000),
];
/** Every level for small samples, 1 and 9 for the large ones. */
const SAMPLE_CASES = SAMPLES.flatMap((input) =>
  (input.length > 10_000 ? [1, 9] : [1, 2, 3, 4, 5, 6, 7, 8, 9]).map((level) => ({ input, level })),
);
const NUMCODECS_CASES = [1, 5, 9].flatMap((level) =>
  [textBytes(101_000, 9), floatFieldBytes(5_000, 4)].map((input) => ({ level, input })),
);
// 300 000 bytes of randomised block use about 600 gaps: all 512 table entries, and the wrap.
const RANDOMISED_INPUTS = [textBytes(300_000, 5), randomBytes(3000, 8)];
const CONCAT_PARTS = [textBytes(50_000, 1), randomBytes(20_000, 2), new Uint8Array(0)];
const SIZE_CASES = [1, 9].flatMap((level) =>
  [textBytes(120_000, 12), floatFieldBytes(25_000, 13), int16StepBytes(50_000), randomBytes(30_000)].map((input) => ({
    level,
    input,
  })),
);

/** Our side of each exchange, and Python's answers, filled in by `beforeAll`. */
const ours = {
  samples: [] as Uint8Array[],
  numcodecs: [] as Uint8Array[],
  randomised: [] as Uint8Array[],
  concatenated: new Uint8Array(0) as Uint8Array,
};
const python = {
  decodedSamples: [] as Uint8Array[],
  compressedSamples: [] as Uint8Array[],
  numcodecsEncoded: [] as Uint8Array[],
  numcodecsDecoded: [] as Uint8Array[],
  decodedRandomised: [] as Uint8Array[],
  concatParts: [] as Uint8Array[],
  decodedConcatenated: new Uint8Array(0) as Uint8Array,
  sizes: [] as Uint8Array[],
};

beforeAll(async () => {
  ours.samples = SAMPLE_CASES.map((c) => bz2Compress(c.input, c.level));
  for (const [i, c] of NUMCODECS_CASES.entries()) {
    const codec = (await bz2.fromConfig({ level: c.level }, makeBuildContext())) as Bz2Codec;
    ours.numcodecs.push(codec.encode(c.input, { key: `c/${i}` }));
  }
  ours.randomised = RANDOMISED_INPUTS.map((input) => compressStream(input, 9, { randomise: true }));
  ours.concatenated = concat(bz2Compress(CONCAT_PARTS[0], 3), bz2Compress(CONCAT_PARTS[2], 1), bz2Compress(CONCAT_PARTS[1], 9));

  const requests: PythonRequest[] = [];
  const take = (list: PythonRequest[]) => {
    const start = requests.length;
    requests.push(...list);
    return [start, requests.length] as const;
  };
  const ranges = {
    decodedSamples: take(ours.samples.map((data) => ({ op: "decompress", data }))),
    compressedSamples: take(SAMPLE_CASES.map((c) => ({ op: "compress", level: c.level, data: c.input }))),
    numcodecsEncoded: take(NUMCODECS_CASES.map((c) => ({ op: "numcodecs-encode", level: c.level, data: c.input }))),
    numcodecsDecoded: take(ours.numcodecs.map((data) => ({ op: "numcodecs-decode", data }))),
    decodedRandomised: take(ours.randomised.map((data) => ({ op: "decompress", data }))),
    concatParts: take(CONCAT_PARTS.map((data, i) => ({ op: "compress", level: [9, 1, 5][i], data }))),
    decodedConcatenated: take([{ op: "decompress", data: ours.concatenated }]),
    sizes: take(SIZE_CASES.map((c) => ({ op: "compress", level: c.level, data: c.input }))),
  };
  const answers = pythonBatch(requests);
  const slice = ([a, b]: readonly [number, number]) => answers.slice(a, b);
  python.decodedSamples = slice(ranges.decodedSamples);
  python.compressedSamples = slice(ranges.compressedSamples);
  python.numcodecsEncoded = slice(ranges.numcodecsEncoded);
  python.numcodecsDecoded = slice(ranges.numcodecsDecoded);
  python.decodedRandomised = slice(ranges.decodedRandomised);
  python.concatParts = slice(ranges.concatParts);
  python.decodedConcatenated = slice(ranges.decodedConcatenated)[0];
  python.sizes = slice(ranges.sizes);
});

describe("interop with libbzip2", () => {
  it("Python's bz2.decompress reads what we write, at every level", () => {
    expect(python.decodedSamples.length).toBe(SAMPLE_CASES.length);
    for (const [i, c] of SAMPLE_CASES.entries()) {
      expect(ours.samples[i][3]).toBe(0x30 + c.level);
      expect(firstDifference(python.decodedSamples[i], c.input)).toBe(-1);
    }
  });

  it("we read what Python's bz2.compress writes, at every level", () => {
    for (const [i, c] of SAMPLE_CASES.entries()) {
      const packed = python.compressedSamples[i];
      expect(packed[3]).toBe(0x30 + c.level);
      expect(firstDifference(bz2Decompress(packed), c.input)).toBe(-1);
    }
  });

  it("matches numcodecs.BZ2 both ways through the codec", async () => {
    for (const [i, c] of NUMCODECS_CASES.entries()) {
      const codec = (await bz2.fromConfig({ level: c.level }, makeBuildContext())) as Bz2Codec;
      expect(firstDifference(await codec.decode(python.numcodecsEncoded[i], { key: `c/${i}` }), c.input)).toBe(-1);
      expect(firstDifference(python.numcodecsDecoded[i], c.input)).toBe(-1);
    }
  });

  it("writes randomised blocks (bzip2 0.9.0) exactly as libbzip2 reads them", () => {
    for (const [i, input] of RANDOMISED_INPUTS.entries()) {
      // The randomised flag is the first bit after "BZh9", the block magic and the CRC.
      expect(ours.randomised[i][14] & 0x80).toBe(0x80);
      expect(firstDifference(python.decodedRandomised[i], input)).toBe(-1);
      expect(firstDifference(bz2Decompress(ours.randomised[i]), input)).toBe(-1);
    }
  });

  it("decodes concatenated streams like bz2.decompress, both ways", () => {
    const [a, b, c] = CONCAT_PARTS;
    const fromPython = concat(...python.concatParts);
    expect(firstDifference(bz2Decompress(fromPython), concat(a, b, c))).toBe(-1);
    expect(firstDifference(python.decodedConcatenated, concat(a, c, b))).toBe(-1);
    expect(firstDifference(bz2Decompress(ours.concatenated), concat(a, c, b))).toBe(-1);
  });

  it("compresses within 1 % of libbzip2's size", () => {
    for (const [i, c] of SIZE_CASES.entries()) {
      const size = bz2Compress(c.input, c.level).length;
      expect(Math.abs(size / python.sizes[i].length - 1)).toBeLessThan(0.01);
    }
  });
});
