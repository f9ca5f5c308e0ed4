import type { BytesToBytesCodec } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { createZstdCodec } from "../src/codec.js";
import { zstdCompress } from "../src/encoder/frame.js";

const codec = createZstdCodec();
const decodeInto = (bytes: Uint8Array, scratch: Uint8Array, key: string) =>
  (codec.decodeInto as NonNullable<BytesToBytesCodec["decodeInto"]>)(bytes, scratch, { key }) as Uint8Array;
const decode = (bytes: Uint8Array, key: string) => codec.decode(bytes, { key }) as Uint8Array;

describe("decoding into a kept buffer (decodeInto)", () => {
  const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7) % 251 ^ (i >> 9));
  const frame = zstdCompress(bytes, 3);

  it("decodeInto decodes into the start of a scratch buffer that is large enough", () => {
    const scratch = new Uint8Array(bytes.length + 64).fill(0xee);
    const out = decodeInto(frame, scratch, "k");
    expect(out.buffer).toBe(scratch.buffer);
    expect(out.byteOffset).toBe(0);
    expect(out).toEqual(bytes);
    expect(scratch[bytes.length]).toBe(0xee);
  });

  it("decodeInto allocates when the scratch is too small or a frame does not declare its size", () => {
    expect(decodeInto(frame, new Uint8Array(10), "k")).toEqual(bytes);
    // Frame_Content_Size_flag 0 and no single segment: the descriptor byte after the magic.
    const unsized = Uint8Array.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x48, 0x09, 0x00, 0x00, 0x61]); // window 2^19, one last raw block "a"
    const scratch = new Uint8Array(100);
    const out = decodeInto(unsized, scratch, "k");
    expect(out.buffer).not.toBe(scratch.buffer);
    expect(Array.from(out)).toEqual([0x61]);
    expect(decode(frame, "k")).toEqual(bytes);
  });

  it("names the chunk when it is corrupt", () => {
    expect(() => decodeInto(frame.subarray(0, frame.length - 5), new Uint8Array(bytes.length), "t2m/c/1")).toThrow(
      expect.objectContaining({ code: "CODEC_FAILED", key: "t2m/c/1" }),
    );
  });
});
