import type { BytesToBytesCodec, CodecBuildContext, CodecEntry } from "@zarr/spec";
import { ZarrError } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { lzmaLazy as lazyLzma } from "../src/lazy.js";
import { FILTER_DELTA, FILTER_LZMA1, FILTER_LZMA2, FORMAT_RAW, lzma } from "../src/index.js";
import { float32Field, sameBytes } from "./data.js";
import { okBytes, runPython } from "./python.js";

const context: CodecBuildContext = {
  spec: { shape: [4], dataType: {} as CodecBuildContext["spec"]["dataType"], fillValue: 0 },
  path: ["codecs", 0],
  buildPipeline: () => Promise.reject(new Error("not used")),
  resolveDataType: () => Promise.reject(new Error("not used")),
};

function build(entry: CodecEntry, configuration: Record<string, unknown>): BytesToBytesCodec {
  return entry.fromConfig(configuration as never, context) as BytesToBytesCodec;
}

describe("codec entry", () => {
  it("is a bytes-to-bytes entry named numcodecs.lzma with the alias lzma", () => {
    expect(lzma.type).toBe("codec");
    expect(lzma.name).toBe("numcodecs.lzma");
    expect(lzma.aliases).toEqual(["lzma"]);
    expect(lzma.codecKind).toBe("bytes_to_bytes");
    expect(lzma.package).toBe("@zarr/codec-lzma");
  });

  it("uses numcodecs' defaults and round-trips its configuration through toJSON", () => {
    const c = build(lzma, {});
    expect(c.kind).toBe("bytes_to_bytes");
    expect(c.toJSON()).toEqual({
      name: "numcodecs.lzma",
      configuration: { format: 1, check: -1, preset: null, filters: null },
    });
    const filters = [
      { id: FILTER_DELTA, dist: 4 },
      { id: FILTER_LZMA2, preset: 1 },
    ];
    const config = { format: FORMAT_RAW, check: -1, preset: null, filters };
    expect(build(lzma, config).toJSON().configuration).toEqual(config);
    // A v2 .zarray compressor object carries an "id" too.
    expect(build(lzma, { id: "lzma", format: 1, check: -1, preset: 9, filters: null }).toJSON().configuration.preset).toBe(9);
  });

  it("accepts the LZMA1 filter id as a bigint or as the double JSON.parse makes of it", () => {
    const data = float32Field(2000);
    for (const id of [FILTER_LZMA1, Number(FILTER_LZMA1)]) {
      const c = build(lzma, { format: FORMAT_RAW, filters: [{ id, preset: 1 }] });
      expect(sameBytes(c.decode(c.encode(data, { key: "k" }) as Uint8Array, { key: "k" }) as Uint8Array, data)).toBe(true);
    }
  });

  it("encodes what numcodecs decodes with the same configuration, and the reverse", () => {
    const data = float32Field(5000);
    const config = { format: 1, check: 10, preset: 3, filters: null };
    const c = build(lzma, config);
    const ours = c.encode(data, { key: "k" }) as Uint8Array;
    const [decoded, theirs] = runPython([
      { op: "numcodecs_decode", data: ours, kwargs: config },
      { op: "numcodecs_encode", data, kwargs: config },
    ]);
    expect(sameBytes(okBytes(decoded), data)).toBe(true);
    expect(sameBytes(c.decode(okBytes(theirs), { key: "k" }) as Uint8Array, data)).toBe(true);
  });

  it("honours an aborted signal", () => {
    const c = build(lzma, {});
    const controller = new AbortController();
    controller.abort();
    expect(() => c.encode(new Uint8Array(4), { key: "k", signal: controller.signal })).toThrow(ZarrError);
    try {
      c.decode(new Uint8Array(4), { key: "k", signal: controller.signal });
    } catch (e) {
      expect((e as ZarrError).code).toBe("ABORTED");
    }
  });

  it("has a lazy entry that loads the same codec", async () => {
    expect(lazyLzma.lazy).toBe(true);
    expect(lazyLzma.name).toBe(lzma.name);
    expect(lazyLzma.aliases).toEqual(lzma.aliases);
    const loaded = await lazyLzma.load();
    expect(loaded).toBe(lzma);
  });
});
