import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BodyLimitExceeded,
  type BodyPieces,
  countBodyBytes,
  httpRangeHeader,
  joinPieces,
  parseHttpContentRange,
  pipeWithinLimit,
  planHttpRange,
  readBodyTail,
  readBodyWindow,
} from "../src/index.js";

describe("planHttpRange and httpRangeHeader", () => {
  it("classify every range form and write its header", () => {
    expect(planHttpRange({ offset: 10, length: 5 })).toEqual({ kind: "bounded", start: 10, end: 14 });
    expect(planHttpRange({ offset: 10 })).toEqual({ kind: "open", start: 10 });
    expect(planHttpRange({ offset: 0 })).toEqual({ kind: "open", start: 0 });
    expect(planHttpRange({ suffixLength: 8 })).toEqual({ kind: "suffix", length: 8 });
    expect(httpRangeHeader({ kind: "bounded", start: 10, end: 14 })).toBe("bytes=10-14");
    expect(httpRangeHeader({ kind: "open", start: 10 })).toBe("bytes=10-");
    expect(httpRangeHeader({ kind: "suffix", length: 8 })).toBe("bytes=-8");
  });

  it("make zero bytes an empty request (HTTP cannot ask for them)", () => {
    expect(planHttpRange({ offset: 3, length: 0 })).toEqual({ kind: "empty" });
    expect(planHttpRange({ suffixLength: 0 })).toEqual({ kind: "empty" });
  });

  it("make a range whose last byte is past the safe integers an open one; the last safe byte stays bounded", () => {
    expect(planHttpRange({ offset: 5, length: Number.MAX_SAFE_INTEGER })).toEqual({ kind: "open", start: 5 });
    expect(planHttpRange({ offset: 1, length: Number.MAX_SAFE_INTEGER })).toEqual({
      kind: "bounded",
      start: 1,
      end: Number.MAX_SAFE_INTEGER,
    });
  });

  it("reject negative, fractional and non-object ranges with INVALID_ARGUMENT", () => {
    for (const range of [{ offset: -1 }, { offset: 0.5 }, { offset: 1, length: -1 }, { suffixLength: 1.5 }, null, 7]) {
      expect(() => planHttpRange(range as never)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    }
  });
});

describe("parseHttpContentRange", () => {
  it("parses bytes first-last/total, total unknown, and any case and spacing", () => {
    expect(parseHttpContentRange("bytes 0-99/1234")).toEqual({ start: 0, end: 99, total: 1234 });
    expect(parseHttpContentRange("bytes 5-5/*")).toEqual({ start: 5, end: 5, total: undefined });
    expect(parseHttpContentRange("  BYTES  3-4/5 ")).toEqual({ start: 3, end: 4, total: 5 });
  });

  it("says what is wrong with a malformed, out-of-range or inconsistent header", () => {
    expect(parseHttpContentRange("bytes */100")).toEqual({ problem: 'malformed Content-Range "bytes */100"' });
    expect(parseHttpContentRange("items 0-1/2")).toEqual({ problem: 'malformed Content-Range "items 0-1/2"' });
    expect(parseHttpContentRange("bytes 0-99999999999999999/*")).toEqual({
      problem: 'Content-Range "bytes 0-99999999999999999/*" holds a number out of range',
    });
    expect(parseHttpContentRange("bytes 9-3/100")).toEqual({ problem: 'inconsistent Content-Range "bytes 9-3/100"' });
    // The last byte must lie inside the total: 0-99 of 100 is fine, 0-100 of 100 is not.
    expect(parseHttpContentRange("bytes 0-99/100")).toEqual({ start: 0, end: 99, total: 100 });
    expect(parseHttpContentRange("bytes 0-100/100")).toEqual({ problem: 'inconsistent Content-Range "bytes 0-100/100"' });
  });

  it("reads back what a bounded request's header asks for", () => {
    fc.assert(
      fc.property(fc.nat(1e9), fc.integer({ min: 1, max: 1e9 }), fc.nat(1e9), (start, length, extra) => {
        const header = httpRangeHeader({ kind: "bounded", start, end: start + length - 1 });
        const sent = `bytes ${header.slice("bytes=".length)}/${start + length + extra}`;
        expect(parseHttpContentRange(sent)).toEqual({ start, end: start + length - 1, total: start + length + extra });
      }),
    );
  });
});

/** A body of `sizes` pieces holding 0, 1, 2, ... that records whether it was abandoned; each piece's buffer is reused after the call (lent). */
function body(sizes: number[]) {
  const state = { abandoned: false, delivered: 0 };
  const pieces: BodyPieces = async (sink) => {
    let value = 0;
    for (const size of sizes) {
      const lent = new Uint8Array(size).map(() => value++ % 256);
      try {
        sink(lent);
      } catch (error) {
        state.abandoned = true;
        throw error;
      }
      state.delivered++;
      lent.fill(255); // the transport reuses its buffer: what was kept must be a copy
    }
  };
  return { state, pieces };
}

const list = (b: Uint8Array) => Array.from(b);

describe("bounded body readers", () => {
  it("pipeWithinLimit counts the bytes, stops on done, and fails past the limit naming what was read", async () => {
    const all = body([4, 4, 4]);
    expect(await pipeWithinLimit(all.pieces, 12, () => false)).toEqual({ received: 12, ended: true });
    const stopped = body([4, 4, 4]);
    expect(await pipeWithinLimit(stopped.pieces, 12, (_piece, at) => at >= 4)).toEqual({ received: 8, ended: false });
    expect(stopped.state).toEqual({ abandoned: true, delivered: 1 });
    const long = body([4, 4, 4]);
    const error = await pipeWithinLimit(long.pieces, 11, () => false, "the response body").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodyLimitExceeded);
    expect((error as BodyLimitExceeded).limit).toBe(11);
    expect((error as Error).message).toBe("the response body is larger than the 11 bytes accepted");
    expect(long.state.abandoned).toBe(true);
  });

  it("a body exactly at the limit is accepted", async () => {
    expect(await countBodyBytes(body([5, 5]).pieces, 10)).toBe(10);
    await expect(countBodyBytes(body([5, 6]).pieces, 10)).rejects.toBeInstanceOf(BodyLimitExceeded);
    expect(await countBodyBytes(body([]).pieces, 0)).toBe(0);
  });

  it("readBodyWindow keeps copies of the window, stops once it has it, and clamps to a body ending first", async () => {
    const b = body([4, 4, 4, 4]);
    expect(list(await readBodyWindow(b.pieces, 0, 3, 9, 100))).toEqual([3, 4, 5, 6, 7, 8]);
    expect(b.state).toEqual({ abandoned: true, delivered: 2 });
    expect(list(await readBodyWindow(body([4, 4]).pieces, 0, 6, Number.POSITIVE_INFINITY, 100))).toEqual([6, 7]);
    expect(list(await readBodyWindow(body([4, 4]).pieces, 0, 6, 20, 100))).toEqual([6, 7]);
    expect(list(await readBodyWindow(body([4]).pieces, 0, 10, 12, 100))).toEqual([]);
    // A body starting at byte 100 of the value (a 206 that began earlier than asked).
    expect(list(await readBodyWindow(body([4, 4]).pieces, 100, 102, 105, 100))).toEqual([2, 3, 4]);
  });

  it("readBodyWindow's result owns its ArrayBuffer, one piece or many", async () => {
    for (const sizes of [[8], [3, 3, 3]]) {
      const window = await readBodyWindow(body(sizes).pieces, 0, 1, 7, 100);
      expect(window.byteOffset).toBe(0);
      expect(window.buffer.byteLength).toBe(6);
    }
  });

  it("readBodyTail keeps the last n bytes of any body, copies of lent pieces", async () => {
    expect(list(await readBodyTail(body([4, 4, 4]).pieces, 5, 100))).toEqual([7, 8, 9, 10, 11]);
    expect(list(await readBodyTail(body([2, 1]).pieces, 5, 100))).toEqual([0, 1, 2]);
    expect(list(await readBodyTail(body([4]).pieces, 0, 100))).toEqual([]);
    expect(list(await readBodyTail(body([]).pieces, 3, 100))).toEqual([]);
    await expect(readBodyTail(body([4, 4]).pieces, 2, 7)).rejects.toBeInstanceOf(BodyLimitExceeded);
  });

  it("window and tail agree with slicing the whole body, for any pieces", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(9), { maxLength: 8 }), fc.nat(60), fc.nat(60), fc.nat(60), async (sizes, a, b, n) => {
        const whole = Uint8Array.from({ length: sizes.reduce((x, y) => x + y, 0) }, (_, i) => i % 256);
        const [from, to] = [Math.min(a, b), Math.max(a, b)];
        expect(list(await readBodyWindow(body(sizes).pieces, 0, from, to, 1000))).toEqual(list(whole.slice(from, to)));
        expect(list(await readBodyTail(body(sizes).pieces, n, 1000))).toEqual(list(whole.slice(Math.max(0, whole.length - n))));
      }),
    );
  });

  it("joinPieces returns a piece that already is the whole result, and copies otherwise", () => {
    const own = new Uint8Array([1, 2, 3]);
    expect(joinPieces([own], 3)).toBe(own);
    const view = new Uint8Array([0, 1, 2, 3]).subarray(1);
    const joined = joinPieces([view], 3);
    expect(joined).not.toBe(view);
    expect(list(joined)).toEqual([1, 2, 3]);
    expect(list(joinPieces([new Uint8Array([1, 2]), new Uint8Array([3, 4])], 3))).toEqual([1, 2, 3]);
    expect(list(joinPieces([], 0))).toEqual([]);
  });

  it("never hand out a Node Buffer (its slice is a view of a shared pool): results are plain Uint8Array copies", async () => {
    const pooled = Buffer.from([0, 1, 2, 3, 4, 5, 6, 7]);
    const whole = Buffer.alloc(3, 7);
    expect(joinPieces([whole], 3).constructor).toBe(Uint8Array);
    const buffers: BodyPieces = async (sink) => sink(pooled);
    for (const read of [readBodyWindow(buffers, 0, 2, 5, 100), readBodyWindow(buffers, 0, 0, 8, 100), readBodyTail(buffers, 3, 100)]) {
      const bytes = await read;
      expect(bytes.constructor).toBe(Uint8Array);
      expect(bytes.buffer).not.toBe(pooled.buffer);
    }
  });
});
