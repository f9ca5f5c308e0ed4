import { ZarrError } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { awsErrorName, describeAwsError, isMissingObject, storeError } from "../src/aws-errors.js";
import { collectBody, ownBytes } from "../src/body.js";
import { parseContentRange, rangeRequest } from "../src/byte-ranges.js";
import { normalizeBucketPrefix } from "../src/paths.js";

describe("rangeRequest", () => {
  it("builds the Range header forms", () => {
    expect(rangeRequest({ offset: 10, length: 5 })).toEqual({ kind: "header", header: "bytes=10-14" });
    expect(rangeRequest({ offset: 10 })).toEqual({ kind: "header", header: "bytes=10-" });
    expect(rangeRequest({ suffixLength: 8 })).toEqual({ kind: "header", header: "bytes=-8" });
    expect(rangeRequest({ offset: 0 })).toEqual({ kind: "whole" });
    expect(rangeRequest({ offset: 3, length: 0 })).toEqual({ kind: "empty" });
    expect(rangeRequest({ suffixLength: 0 })).toEqual({ kind: "empty" });
    expect(rangeRequest({ offset: 5, length: Number.MAX_SAFE_INTEGER })).toEqual({ kind: "header", header: "bytes=5-" });
  });
  it("rejects negative and fractional numbers", () => {
    for (const r of [{ offset: -1 }, { offset: 0.5 }, { offset: 1, length: -1 }, { suffixLength: 1.5 }]) {
      expect(() => rangeRequest(r)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    }
  });
});

describe("parseContentRange", () => {
  it("parses bytes first-last/total and rejects nonsense", () => {
    expect(parseContentRange("bytes 0-99/1234")).toEqual({ start: 0, end: 100, total: 1234 });
    expect(parseContentRange("bytes 5-5/*")).toEqual({ start: 5, end: 6, total: undefined });
    expect(parseContentRange(undefined)).toBeUndefined();
    expect(parseContentRange("bytes */100")).toBeUndefined();
    expect(parseContentRange("bytes 9-3/100")).toBeUndefined();
    expect(parseContentRange("bytes 0-200/100")).toBeUndefined();
    expect(parseContentRange("items 0-1/2")).toBeUndefined();
  });
});

describe("body bytes", () => {
  it("copies pooled Buffer views into standalone Uint8Arrays and keeps whole buffers as they are", async () => {
    const pooled = Buffer.from([1, 2, 3]); // a slice of Node's shared allocation pool
    expect(pooled.byteOffset > 0 || pooled.buffer.byteLength > 3).toBe(true);
    const own = ownBytes(pooled);
    expect(own.constructor).toBe(Uint8Array);
    expect(own.byteOffset).toBe(0);
    expect(own.buffer.byteLength).toBe(3);
    expect([...own]).toEqual([1, 2, 3]);
    const whole = new Uint8Array([4, 5]);
    expect(ownBytes(whole)).toBe(whole);
    const unpooled = Buffer.alloc(16, 7);
    const viewed = ownBytes(unpooled);
    expect(viewed.constructor).toBe(Uint8Array);
    expect(viewed.buffer).toBe(unpooled.buffer); // no copy needed
    expect(await collectBody({ transformToByteArray: async () => Buffer.from([9, 8]) })).toEqual(new Uint8Array([9, 8]));
    expect(await collectBody(undefined)).toEqual(new Uint8Array(0));
  });
});

describe("AWS errors", () => {
  const awsError = (name: string, status: number | undefined, message = "") =>
    Object.assign(new Error(message), { name, $metadata: status === undefined ? {} : { httpStatusCode: status } });

  it("names the AWS code and status", () => {
    expect(describeAwsError(awsError("AccessDenied", 403, "Access Denied"))).toBe("AccessDenied (HTTP 403): Access Denied");
    expect(describeAwsError(awsError("NotFound", 404, "UnknownError"))).toBe("NotFound (HTTP 404)");
    expect(describeAwsError(awsError("TimeoutError", undefined, "socket hang up"))).toBe("TimeoutError: socket hang up");
    expect(awsErrorName({ Code: "SlowDown", name: "Error" })).toBe("SlowDown");
    expect(awsErrorName("weird")).toBe("Error");
  });
  it("tells a missing key from a missing bucket", () => {
    expect(isMissingObject(awsError("NoSuchKey", 404))).toBe(true);
    expect(isMissingObject(awsError("NotFound", 404))).toBe(true);
    expect(isMissingObject(awsError("NoSuchBucket", 404))).toBe(false);
    expect(isMissingObject(awsError("AccessDenied", 403))).toBe(false);
  });
  it("wraps into STORE_FAILED or ABORTED and keeps ZarrErrors", () => {
    const failed = storeError(awsError("AccessDenied", 403, "no"), "Failed to read key \"k\"", "k", undefined);
    expect(failed.code).toBe("STORE_FAILED");
    expect(failed.key).toBe("k");
    expect(failed.message).toBe('Failed to read key "k": AccessDenied (HTTP 403): no');
    expect(storeError(awsError("AbortError", undefined), "x", "k", undefined).code).toBe("ABORTED");
    expect(storeError(new Error("boom"), "x", "k", AbortSignal.abort()).code).toBe("ABORTED");
    const own = new ZarrError("KEY_INVALID", "bad");
    expect(storeError(own, "x", "k", undefined)).toBe(own);
  });
});

describe("normalizeBucketPrefix", () => {
  it("trims slashes and validates segments", () => {
    expect(normalizeBucketPrefix(undefined)).toBe("");
    expect(normalizeBucketPrefix("/")).toBe("");
    expect(normalizeBucketPrefix("a")).toBe("a/");
    expect(normalizeBucketPrefix("//a/b//")).toBe("a/b/");
    expect(() => normalizeBucketPrefix("a//b")).toThrow(expect.objectContaining({ code: "KEY_INVALID" }));
    expect(() => normalizeBucketPrefix("a/./b")).toThrow(expect.objectContaining({ code: "KEY_INVALID" }));
  });
});
