import { MetadataError, ZarrError } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { BZ2_CODEC_NAME, Bz2Codec, bz2, bz2Decompress } from "../src/index.js";
import { bz2Lazy } from "../src/lazy.js";
import { firstDifference, makeBuildContext, textBytes } from "./helpers.js";

/** The error `fromConfig` throws (synchronously or not), or undefined. */
async function configError(configuration: Record<string, unknown>): Promise<unknown> {
  try {
    await bz2.fromConfig(configuration as never, makeBuildContext(["codecs", 2]));
  } catch (error) {
    return error;
  }
  return undefined;
}

async function build(configuration: Record<string, unknown>): Promise<Bz2Codec> {
  const codec = await bz2.fromConfig(configuration as never, makeBuildContext(["codecs", 2]));
  expect(codec).toBeInstanceOf(Bz2Codec);
  return codec as Bz2Codec;
}

describe("numcodecs.bz2 codec entry", () => {
  it("registers under numcodecs.bz2 with the alias bz2", () => {
    expect(bz2.type).toBe("codec");
    expect(bz2.name).toBe("numcodecs.bz2");
    expect(BZ2_CODEC_NAME).toBe("numcodecs.bz2");
    expect(bz2.aliases).toEqual(["bz2"]);
    expect(bz2.codecKind).toBe("bytes_to_bytes");
    expect(bz2.package).toBe("@zarr/codec-bz2");
  });

  it("defaults to level 1 like numcodecs and writes the level back", async () => {
    const codec = await build({});
    expect(codec.level).toBe(1);
    expect(codec.toJSON()).toEqual({ name: "numcodecs.bz2", configuration: { level: 1 } });
    expect((await build({ level: 7 })).toJSON()).toEqual({ name: "numcodecs.bz2", configuration: { level: 7 } });
    // A numcodecs v2 config object may still carry its id.
    expect((await build({ id: "bz2", level: 3 })).level).toBe(3);
  });

  it("encodes with the configured block size and decodes", async () => {
    const input = textBytes(101_000, 6);
    for (const level of [1, 9]) {
      const codec = await build({ level });
      const packed = codec.encode(input, { key: "c/0/0" });
      expect(packed[3]).toBe(0x30 + level);
      expect(firstDifference(await codec.decode(packed, { key: "c/0/0" }), input)).toBe(-1);
      expect(firstDifference(bz2Decompress(packed), input)).toBe(-1);
    }
  });

  it("rejects bad configurations with the JSON path of the bad value", async () => {
    for (const level of [0, 10, 2.5, "9", null, -1]) {
      const error = await configError({ level });
      expect(error).toBeInstanceOf(MetadataError);
      expect((error as MetadataError).code).toBe("METADATA_INVALID");
      expect((error as MetadataError).jsonPath).toBe("$.codecs[2].configuration.level");
    }
    const unknown = await configError({ level: 1, blocksize: 3 });
    expect((unknown as MetadataError).jsonPath).toBe("$.codecs[2].configuration.blocksize");
  });

  it("names the chunk key when decoding fails and honours abort signals", async () => {
    const codec = await build({ level: 1 });
    let caught: unknown;
    try {
      codec.decode(new TextEncoder().encode("not bzip2 at all"), { key: "arr/c/3/4" });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ZarrError);
    expect((caught as ZarrError).code).toBe("CODEC_FAILED");
    expect((caught as ZarrError).key).toBe("arr/c/3/4");
    expect((caught as ZarrError).message).toContain("arr/c/3/4");

    const controller = new AbortController();
    controller.abort();
    expect(() => codec.encode(new Uint8Array(10), { key: "k", signal: controller.signal })).toThrow(
      expect.objectContaining({ code: "ABORTED" }),
    );
  });

  it("has a lazy entry that loads the same codec", async () => {
    expect(bz2Lazy.lazy).toBe(true);
    expect(bz2Lazy.type).toBe("codec");
    expect(bz2Lazy.name).toBe(bz2.name);
    expect(bz2Lazy.aliases).toEqual(bz2.aliases);
    expect(bz2Lazy.package).toBe(bz2.package);
    const loaded = await bz2Lazy.load();
    expect(loaded).toBe(bz2);
  });
});
