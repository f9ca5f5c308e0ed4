/** TIFF LZW: the stream format bit by bit, round trips, the registry entry and bad input. */
import { createRegistry } from "@zarr/core";
import { ZarrError } from "@zarr/spec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LZW_CODEC_NAME, LzwCodec, lzw, lzwCompress, lzwDecompress } from "../src/index.js";
import { lzwLazy } from "../src/lazy.js";

/** Packs codes of the given widths MSB-first, as TIFF LZW does. */
function pack(codes: Array<[number, number]>): Uint8Array {
  let bits = "";
  for (const [code, width] of codes) bits += code.toString(2).padStart(width, "0");
  bits = bits.padEnd(Math.ceil(bits.length / 8) * 8, "0");
  return Uint8Array.from({ length: bits.length / 8 }, (_, i) => Number.parseInt(bits.slice(i * 8, i * 8 + 8), 2));
}

function errorOf(fn: () => unknown): ZarrError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ZarrError);
    return error as ZarrError;
  }
  throw new Error("expected an error");
}

const text = (s: string) => new TextEncoder().encode(s);

describe("the stream format", () => {
  it("decodes a hand-packed stream: Clear, literals, a table string, KwKwK, EOI", () => {
    // "ABABABA": A B <AB=258> <ABA=260, not yet in the table: KwKwK>
    const stream = pack([
      [256, 9],
      [65, 9],
      [66, 9],
      [258, 9],
      [260, 9],
      [257, 9],
    ]);
    expect(new TextDecoder().decode(lzwDecompress(stream))).toBe("ABABABA");
    // Our encoder writes exactly that stream.
    expect(Array.from(lzwCompress(text("ABABABA")))).toEqual(Array.from(stream));
  });

  it("widens codes one code early: after entry 510 is added, the next code is 10 bits wide", () => {
    // n distinct bytes: the decoder adds entries 258… after each literal but the first, so
    // after 254 literals its next free code is 511 = 2^9 − 1 and EOI comes at 10 bits; after 253, at 9.
    for (const [n, eoiWidth] of [
      [253, 9],
      [254, 10],
    ]) {
      const literals = Array.from({ length: n }, (_, i) => i);
      const stream = pack([[256, 9], ...literals.map((b): [number, number] => [b, 9]), [257, eoiWidth]]);
      expect(Array.from(lzwDecompress(stream))).toEqual(literals);
      expect(Array.from(lzwCompress(Uint8Array.from(literals)))).toEqual(Array.from(stream));
    }
  });

  it("ends where the input ends between codes, as libtiff does (no EOI)", () => {
    expect(new TextDecoder().decode(lzwDecompress(pack([[256, 9], [72, 9], [105, 9]])))).toBe("Hi");
  });

  it("round-trips data long enough for 12-bit codes and table resets", () => {
    let seed = 1;
    const data = Uint8Array.from({ length: 300_000 }, (_, i) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (i >> 6) + (seed >>> 29);
    });
    const packed = lzwCompress(data);
    expect(packed.length).toBeLessThan(data.length);
    expect(Buffer.from(lzwDecompress(packed)).equals(Buffer.from(data))).toBe(true);
  });

  it("round-trips any bytes (fast-check)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 20_000 }), (data) => {
        expect(Buffer.from(lzwDecompress(lzwCompress(data))).equals(Buffer.from(data))).toBe(true);
      }),
      { numRuns: 200, seed: 24 },
    );
  });
});

describe("bad input", () => {
  it("a code past the table is CODEC_FAILED naming the chunk", () => {
    const e = errorOf(() => lzwDecompress(pack([[256, 9], [65, 9], [300, 9]]), { key: "band/0.0" }));
    expect(e.code).toBe("CODEC_FAILED");
    expect(e.message).toContain("code 300");
    expect(e.message).toContain('chunk "band/0.0"');
  });

  it("a table code right after Clear refers to no string", () => {
    expect(errorOf(() => lzwDecompress(pack([[256, 9], [258, 9]]))).message).toContain("not in the table");
  });

  it("output past maxOutputLength fails before growing", () => {
    const packed = lzwCompress(new Uint8Array(100_000));
    expect(errorOf(() => lzwDecompress(packed, { maxOutputLength: 1000 })).message).toContain("limit of 1000 bytes");
    expect(lzwDecompress(packed, { maxOutputLength: 100_000 }).length).toBe(100_000);
  });

  it("old-style (LSB-first) streams are refused by name", () => {
    expect(errorOf(() => lzwDecompress(Uint8Array.of(0, 1, 2, 3))).message).toContain("old-style");
  });
});

describe("the codec entry", () => {
  it("registers as numcodecs.imagecodecs_lzw (alias imagecodecs_lzw), eager and lazy", async () => {
    for (const entry of [lzw, lzwLazy]) {
      const registry = createRegistry([entry]);
      const codec = await registry.codec("imagecodecs_lzw");
      expect(codec.name).toBe(LZW_CODEC_NAME);
      expect(codec.codecKind).toBe("bytes_to_bytes");
    }
    expect(new LzwCodec().toJSON()).toEqual({ name: "numcodecs.imagecodecs_lzw", configuration: {} });
  });

  it("takes no options", () => {
    const path = ["codecs", 0];
    expect(lzw.fromConfig({}, { path } as never)).toBeInstanceOf(LzwCodec);
    expect(lzw.fromConfig({ id: "imagecodecs_lzw" }, { path } as never)).toBeInstanceOf(LzwCodec);
    expect(() => lzw.fromConfig({ level: 5 }, { path } as never)).toThrow(/unknown lzw codec option "level"/);
  });

  it("decode failures are CODEC_FAILED with the key", () => {
    const e = errorOf(() => new LzwCodec().decode(pack([[256, 9], [999, 9]]), { key: "v/0" }));
    expect(e.code).toBe("CODEC_FAILED");
    expect(e.message).toContain('"v/0"');
  });
});
