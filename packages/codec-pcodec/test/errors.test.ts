import { ZarrError } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { PcoBitWriter } from "../src/bit-writer.js";
import { pcoDecompress } from "../src/index.js";
import { EXPECTED, fixture } from "./expected.js";

interface CraftedBin {
  weight: number;
  lower: number;
  offsetBits: number;
}

interface CraftedChunk {
  /** Number type byte (default 1: u32). */
  type?: number;
  n?: number;
  mode?: (w: PcoBitWriter) => void;
  delta?: (w: PcoBitWriter) => void;
  ansSizeLog?: number;
  bins?: CraftedBin[];
  /** Bits per bin lower bound and per offset-bits field (u32: 32 and 6). */
  lowerBits?: number;
  /** The page after the metadata (default: 4 empty tANS states, nothing else). */
  page?: (w: PcoBitWriter) => void;
  /** Extra secondary latent variable, written like the primary. */
  secondary?: boolean;
  /** Extra lookback latent variable before the primary, written like it (or with these bins). */
  lookbackVar?: boolean;
  lookbackBins?: CraftedBin[];
}

/** A standalone stream (v3, format 4.1) with one hand-made chunk: lets each test break one field. */
function craft(chunk: CraftedChunk = {}): Uint8Array {
  const w = new PcoBitWriter();
  for (const b of [0x70, 0x63, 0x6f, 0x21, 3, 0]) w.write(b, 8);
  w.write(0, 6); // size hint of 1 bit
  w.write(0, 1);
  w.alignToByte();
  w.write(4, 8);
  w.write(1, 8);
  w.write(chunk.type ?? 1, 8);
  w.write((chunk.n ?? 3) - 1, 24);
  (chunk.mode ?? ((x) => x.write(0, 4)))(w);
  (chunk.delta ?? ((x) => x.write(0, 4)))(w);
  const lowerBits = chunk.lowerBits ?? 32;
  const writeVar = (lookback = false) => {
    const bins = (lookback ? chunk.lookbackBins : undefined) ?? chunk.bins ?? [{ weight: 1, lower: 42, offsetBits: 0 }];
    const log = chunk.ansSizeLog ?? 0;
    w.write(log, 4);
    w.write(bins.length, 15);
    for (const b of bins) {
      w.write(b.weight - 1, log);
      w.write(b.lower, Math.min(32, lowerBits));
      if (lowerBits > 32) w.write(0, lowerBits - 32);
      w.write(b.offsetBits, Math.log2(lowerBits) + 1);
    }
  };
  if (chunk.lookbackVar) writeVar(true);
  writeVar();
  if (chunk.secondary) writeVar();
  w.alignToByte();
  (chunk.page ?? ((x) => x.alignToByte()))(w);
  w.alignToByte();
  w.write(0, 8);
  return w.finish();
}

/** Decodes and returns the ZarrError it must throw. */
function failure(bytes: Uint8Array, key: string | undefined = "arr/c/0", maxDecodedBytes?: number): ZarrError {
  try {
    pcoDecompress(bytes, { key, maxDecodedBytes });
  } catch (error) {
    expect(error).toBeInstanceOf(ZarrError);
    return error as ZarrError;
  }
  throw new Error("decoded without an error");
}

function expectCorrupt(bytes: Uint8Array, message: RegExp): void {
  const error = failure(bytes);
  expect(error.code).toBe("CODEC_FAILED");
  expect(error.key).toBe("arr/c/0");
  expect(error.message).toMatch(/^pcodec: chunk "arr\/c\/0": /);
  expect(error.message).toMatch(message);
}

describe("the crafted baseline", () => {
  it("decodes: three u32 numbers of one bin with no offset bits", () => {
    expect(Array.from(pcoDecompress(craft()).values as Uint32Array)).toEqual([42, 42, 42]);
  });
});

describe("bad headers", () => {
  it("refuses empty and too-short input", () => {
    expectCorrupt(new Uint8Array(0), /too short for a pcodec stream/);
    expectCorrupt(Uint8Array.of(0x70, 0x63, 0x6f), /too short/);
  });

  it("refuses a wrong magic", () => {
    const bytes = craft();
    bytes[3] = 0x3f; // "pco?"
    expectCorrupt(bytes, /not a pcodec standalone stream \(no "pco!" magic\)/);
  });

  it("refuses an unknown standalone version", () => {
    const bytes = craft();
    bytes[4] = 9;
    expectCorrupt(bytes, /standalone version 9 is newer than this decoder reads \(3\)/);
  });

  it("refuses an unknown format version, and reads an unknown minor version of format 4", () => {
    const bytes = craft();
    bytes[7] = 5;
    expectCorrupt(bytes, /format version 5\.1 is newer than this decoder reads \(4\.x\)/);
    bytes[7] = 4;
    bytes[8] = 9;
    expect(pcoDecompress(bytes).formatVersion).toEqual({ major: 4, minor: 9 });
  });

  it("refuses an unknown number type, and a chunk whose type differs from the uniform type", () => {
    const bytes = craft();
    bytes[9] = 200;
    expectCorrupt(bytes, /unknown number type byte 200/);
    const uniform = fixture("v0_4_5_uniform_type.pco").slice();
    uniform[5] = 3; // declares i32 while its chunks hold u32
    expectCorrupt(uniform, /a chunk of u32 numbers among i32 numbers/);
    uniform[5] = 99;
    expectCorrupt(uniform, /unknown uniform number type byte 99/);
  });

  it("refuses bytes after the terminating zero byte", () => {
    const bytes = craft();
    const longer = new Uint8Array(bytes.length + 2);
    longer.set(bytes);
    expectCorrupt(longer, /2 bytes after the end of the stream/);
  });
});

describe("bad chunk metadata", () => {
  it("refuses unknown modes and delta encodings", () => {
    expectCorrupt(craft({ mode: (w) => w.write(7, 4) }), /unknown mode 7/);
    expectCorrupt(craft({ delta: (w) => w.write(9, 4) }), /unknown delta encoding 9/);
  });

  it("refuses a consecutive delta order of 0 and a lookback state larger than its window", () => {
    expectCorrupt(craft({ delta: (w) => w.write(1, 4) }), /consecutive delta encoding of order 0/);
    expectCorrupt(
      craft({
        delta: (w) => {
          w.write(2, 4);
          w.write(0, 5); // window 2^1
          w.write(3, 4); // state 2^3
        },
      }),
      /lookback state size log 3 exceeds the window size log 1/,
    );
  });

  it("refuses bins whose weights do not fill the tANS table", () => {
    const bins = [
      { weight: 1, lower: 0, offsetBits: 0 },
      { weight: 2, lower: 9, offsetBits: 0 },
    ];
    expectCorrupt(craft({ ansSizeLog: 2, bins }), /bin weights add up to 3, not the tANS table size 4/);
  });

  it("refuses a tANS size log over 14, too small for the bins, or non-zero with one bin", () => {
    expectCorrupt(craft({ ansSizeLog: 15, bins: [] }), /ANS size log 15 exceeds 14/);
    const three = [0, 1, 2].map((lower) => ({ weight: 1, lower, offsetBits: 0 }));
    expectCorrupt(craft({ ansSizeLog: 1, bins: three }), /ANS size log 1 is too small for 3 bins/);
    expectCorrupt(craft({ ansSizeLog: 1, bins: [{ weight: 2, lower: 0, offsetBits: 0 }] }), /one bin but ANS size log 1/);
  });

  it("refuses offset bits wider than the number type", () => {
    expectCorrupt(craft({ bins: [{ weight: 1, lower: 0, offsetBits: 33 }] }), /bin offset bits 33 exceed the 32-bit latent/);
    expectCorrupt(craft({ type: 10, lowerBits: 8, bins: [{ weight: 1, lower: 0, offsetBits: 9 }] }), /bin offset bits 9 exceed the 8-bit latent/);
  });

  it("refuses a page of numbers with no bins", () => {
    expectCorrupt(craft({ bins: [] }), /a latent variable has no bins but 3 latents/);
  });

  it("refuses modes that do not fit the number type", () => {
    const quant = (k: number) => (w: PcoBitWriter) => {
      w.write(3, 4);
      w.write(k, 8);
    };
    expectCorrupt(craft({ mode: quant(3), secondary: true }), /float quant mode on u32 numbers/);
    expectCorrupt(craft({ type: 5, mode: quant(24), secondary: true }), /float quant mode with k = 24/);
    const intMult = (base: number) => (w: PcoBitWriter) => {
      w.write(1, 4);
      w.write(base, 32);
    };
    expectCorrupt(craft({ mode: intMult(0), secondary: true }), /int mult mode with base 0/);
    expectCorrupt(craft({ type: 5, mode: intMult(3), secondary: true }), /int mult mode on f32 numbers/);
    const floatMult = (w: PcoBitWriter) => {
      w.write(2, 4);
      w.write(0x80000000, 32); // the latent of +0.0
    };
    expectCorrupt(craft({ type: 5, mode: floatMult, secondary: true }), /float mult mode with base 0/);
  });

  it("refuses lookback bins outside the window", () => {
    const lookback = (w: PcoBitWriter) => {
      w.write(2, 4);
      w.write(1, 5); // window 2^2 = 4
      w.write(0, 4); // state 1
      w.write(0, 1);
    };
    // The lookback variable's bins come first: one bin at lookback 5.
    expectCorrupt(craft({ delta: lookback, bins: [{ weight: 1, lower: 5, offsetBits: 0 }], lookbackVar: true }), /lookback bin lower bound 5 is outside the window \[1, 4\]/);
  });

  it("refuses a dictionary index past the dictionary", () => {
    const dict = (w: PcoBitWriter) => {
      w.write(4, 4);
      w.write(2, 25); // two entries
      w.alignToByte();
      w.write(10, 32);
      w.write(20, 32);
    };
    expectCorrupt(craft({ mode: dict, bins: [{ weight: 1, lower: 2, offsetBits: 0 }] }), /dictionary index 2 is past the 2-entry dictionary/);
    expect(Array.from(pcoDecompress(craft({ mode: dict, bins: [{ weight: 1, lower: 1, offsetBits: 0 }] })).values as Uint32Array)).toEqual([20, 20, 20]);
  });

  it("refuses a dictionary longer than the stream before allocating it", () => {
    const huge = (w: PcoBitWriter) => {
      w.write(4, 4);
      w.write(2 ** 25 - 1, 25);
    };
    expectCorrupt(craft({ mode: huge }), /dictionary of 33554431 values is longer than the stream/);
  });

  it("refuses conv1 on 64-bit numbers and conv1 weights that could overflow", () => {
    const conv1 = (weight: number, bias = 0n) => (w: PcoBitWriter) => {
      w.write(3, 4);
      w.write(0, 5); // quantization
      w.write64((1n << 63n) + bias, 64);
      w.write(0, 5); // one weight
      w.write((weight ^ 0x80000000) >>> 0, 32);
    };
    expectCorrupt(craft({ type: 2, lowerBits: 64, delta: conv1(1) }), /conv1 delta encoding on latents wider than 32 bits/);
    // |bias| + 2^32 · Σ|weight| must stay below 2^63 (pcodec computes in i64 for u32).
    expectCorrupt(craft({ delta: conv1(2 ** 31 - 1, 2n ** 32n) }), /conv1 weights and bias could overflow/);
  });

  it("refuses non-zero padding bits", () => {
    const bytes = craft();
    bytes[bytes.length - 2] |= 0x80; // the last bit of the chunk metadata's final byte
    expectCorrupt(bytes, /nonzero padding bits after the chunk metadata/);
  });
});

describe("delta decoding of crafted pages", () => {
  const conv1 = (quantization: number, bias: bigint, weight: number) => (w: PcoBitWriter) => {
    w.write(3, 4);
    w.write(quantization, 5);
    w.write64((1n << 63n) + bias, 64);
    w.write(0, 5); // one weight
    w.write((weight ^ 0x80000000) >>> 0, 32);
  };
  // Every body latent is 100 once un-centred (the bin's lower bound 100 + 2^31).
  const hundred = [{ weight: 1, lower: 100 + 2 ** 31, offsetBits: 0 }];
  const state = (s0: number) => (w: PcoBitWriter) => w.write(s0, 32);

  it("conv1 clamps a negative prediction sum to 0 before shifting, as pcodec does", () => {
    // l1 = 100 + max(-5 + 1·2, 0) = 100; l2 = 100 + max(-5 + 100, 0) = 195.
    const small = craft({ delta: conv1(0, -5n, 1), bins: hundred, page: state(2) });
    expect(Array.from(pcoDecompress(small).values as Uint32Array)).toEqual([2, 100, 195]);
    // Weights too large for exact doubles take the BigInt path: same rule.
    // l1 = 100 + (max(-5 + 2^30·0, 0) >> 30) = 100; l2 = 100 + ((2^30·100 − 5) >> 30) = 199.
    const large = craft({ delta: conv1(30, -5n, 2 ** 30), bins: hundred, page: state(0) });
    expect(Array.from(pcoDecompress(large).values as Uint32Array)).toEqual([0, 100, 199]);
  });

  it("lookback reads back within the window, and refuses a lookback past it", () => {
    const lookback = (w: PcoBitWriter) => {
      w.write(2, 4);
      w.write(1, 5); // window 2^2 = 4
      w.write(0, 4); // state 1
      w.write(0, 1);
    };
    const lookbackBins = [{ weight: 1, lower: 1, offsetBits: 3 }]; // lookback = 1 + 3-bit offset
    const page = (offsets: number[]) => (w: PcoBitWriter) => {
      w.write(5, 32); // primary state: 5
      w.alignToByte();
      for (const o of offsets) w.write(o, 3);
    };
    const bins = [{ weight: 1, lower: 42 + 2 ** 31, offsetBits: 0 }]; // deltas of 42, centred
    const ok = craft({ delta: lookback, lookbackVar: true, lookbackBins, bins, page: page([0, 1]) });
    // Lookbacks 1 and 2: l1 = 42 + l0 = 47; l2 = 42 + l0 = 47.
    expect(Array.from(pcoDecompress(ok).values as Uint32Array)).toEqual([5, 47, 47]);
    const past = craft({ delta: lookback, lookbackVar: true, lookbackBins, bins, page: page([0, 6]) });
    expectCorrupt(past, /delta lookback 7 is outside the window \[1, 4\]/);
  });
});

describe("truncation and bounds", () => {
  it("every prefix of every compatibility file fails with CODEC_FAILED, never another error", () => {
    for (const name of Object.keys(EXPECTED)) {
      const bytes = fixture(name);
      for (let cut = 0; cut < bytes.length; cut++) {
        const error = failure(bytes.subarray(0, cut), name);
        expect(error.code, `${name} cut at ${cut}`).toBe("CODEC_FAILED");
        expect(error.key).toBe(name);
      }
    }
  });

  it("a stream whose numbers pass maxDecodedBytes fails before allocating them", () => {
    const bytes = fixture("v0_0_0_classic.pco"); // 2000 i32 numbers: 8000 bytes
    const error = failure(bytes, "arr/c/0", 7999);
    expect(error.message).toMatch(/decodes to at least 8000 bytes, more than the 7999 allowed/);
    expect(pcoDecompress(bytes, { maxDecodedBytes: 8000 }).values).toHaveLength(2000);
  });

  it("a chunk of 2^24 constant numbers is bounded by maxDecodedBytes, not by the stream's size", () => {
    const bytes = craft({ n: 2 ** 24 });
    expect(bytes.length).toBeLessThan(40);
    expect(failure(bytes, "arr/c/0", 2 ** 20).message).toMatch(/more than the 1048576 allowed/);
  });

  it("names no chunk when no key is given", () => {
    expect(() => pcoDecompress(new Uint8Array(0))).toThrow(/^pcodec: too short for a pcodec stream$/);
  });
});
