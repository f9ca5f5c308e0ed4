import { describe, expect, it } from "vitest";
import { codecStep, ZarrError } from "../src/index.js";

describe("codecStep", () => {
  it("returns what the step returns", () => {
    expect(codecStep("lzw", "decode", { key: "c/0" }, () => 42)).toBe(42);
  });

  it("turns a plain error into CODEC_FAILED naming the codec, the step and the chunk, with the cause", () => {
    const cause = new RangeError("offset is out of bounds");
    let caught: unknown;
    try {
      codecStep("bz2", "encode", { key: "c/1/2" }, () => {
        throw cause;
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ZarrError);
    const error = caught as ZarrError;
    expect(error.code).toBe("CODEC_FAILED");
    expect(error.message).toBe('bz2: cannot encode chunk "c/1/2": offset is out of bounds');
    expect(error.key).toBe("c/1/2");
    expect(error.cause).toBe(cause);
  });

  it("passes a ZarrError through unchanged", () => {
    const own = new ZarrError("UNSUPPORTED", "not this one", { key: "c/0" });
    expect(() =>
      codecStep("zfpy", "decode", { key: "c/0" }, () => {
        throw own;
      }),
    ).toThrow(own);
  });

  it("does not run the step when the call is aborted", () => {
    const controller = new AbortController();
    controller.abort();
    let ran = false;
    expect(() =>
      codecStep("lzw", "decode", { key: "c/0", signal: controller.signal }, () => {
        ran = true;
      }),
    ).toThrow(expect.objectContaining({ code: "ABORTED" }));
    expect(ran).toBe(false);
  });
});
