import { describe, expect, it } from "vitest";
import { asZarrError, MetadataError, ZarrError } from "../src/index.js";

/** A second copy of @zarr/spec's errors module, as an app gets with two versions installed. */
async function otherCopy(): Promise<typeof import("../src/errors.js")> {
  // @ts-expect-error: the query makes another module instance; TypeScript does not resolve it.
  return import("../src/errors.js?copy");
}

describe("ZarrError across copies of @zarr/spec", () => {
  it("an error of another copy is a ZarrError here, and asZarrError keeps its code", async () => {
    const other = await otherCopy();
    expect(other.ZarrError).not.toBe(ZarrError);
    const error = new other.ZarrError("CHECKSUM_MISMATCH", "bad crc", { key: "a/c/0" });
    expect(error instanceof ZarrError).toBe(true);
    const kept = asZarrError(error, "CODEC_FAILED", "Could not decode");
    expect(kept).toBe(error);
    expect(kept.code).toBe("CHECKSUM_MISMATCH");
    expect(new other.MetadataError(["shape"], "bad") instanceof ZarrError).toBe(true);
  });

  it("subclasses keep the ordinary check; other errors and values are not ZarrErrors", async () => {
    const other = await otherCopy();
    expect(new MetadataError(["a"], "p") instanceof ZarrError).toBe(true);
    expect(new MetadataError(["a"], "p") instanceof MetadataError).toBe(true);
    expect(new ZarrError("ABORTED", "stop") instanceof MetadataError).toBe(false);
    expect(new other.MetadataError(["a"], "p") instanceof MetadataError).toBe(false);
    for (const value of [new Error("x"), new TypeError("x"), null, undefined, 3, "ZarrError", { code: "ABORTED", name: "ZarrError" }]) {
      expect(value instanceof ZarrError).toBe(false);
    }
    const wrapped = asZarrError(new TypeError("boom"), "STORE_FAILED", "Could not read", "k");
    expect([wrapped.code, wrapped.message, wrapped.key]).toEqual(["STORE_FAILED", "Could not read: boom", "k"]);
  });

  it("the mark stays off the error's own keys and printed form", () => {
    const error = new ZarrError("ABORTED", "stop");
    expect(Object.getOwnPropertySymbols(error)).toEqual([]);
    expect(Object.keys(error).sort()).toEqual(["code", "jsonPath", "key", "name"]);
  });
});
