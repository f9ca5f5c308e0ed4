/** The bounded body readers on bodies cut into small pieces: every window and tail, piece boundaries included. */
import { describe, expect, it } from "vitest";
import { BodyLimitExceeded, countBody, readTail, readWindow } from "../src/bounded-body.js";
import { bindKit } from "../src/kit.js";
import { KIT } from "../src/transport.js";

// The readers take the store's up-front functions from kit.ts, bound by the store's
// operations; called directly here, they need it bound first.
bindKit({ kit: KIT });

const BODY = Uint8Array.from({ length: 20 }, (_, i) => i + 1);

/** A response streaming BODY in pieces of `size` bytes, counting the pieces pulled. */
function pieces(size: number): { response: Response; pulled: () => number } {
  let at = 0;
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (at >= BODY.length) return c.close();
      pulled++;
      c.enqueue(BODY.slice(at, at + size));
      at += size;
    },
  });
  return { response: new Response(stream), pulled: () => pulled };
}

describe("readWindow", () => {
  it("returns bytes [from, to) of the value for every window and piece size, clamped at the end", async () => {
    for (const size of [1, 3, 7, 20]) {
      for (let from = 0; from <= 22; from += 3) {
        for (let to = from; to <= 24; to += 5) {
          const got = await readWindow(pieces(size).response, 0, from, to, 100);
          expect(Array.from(got), `${size} ${from}-${to}`).toEqual(Array.from(BODY.slice(from, to)));
        }
      }
    }
  });

  it("places a body that starts later in the value (a wider 206)", async () => {
    expect(Array.from(await readWindow(pieces(4).response, 100, 105, 108, 100))).toEqual([6, 7, 8]);
  });

  it("stops pulling pieces once the window's end has arrived", async () => {
    const p = pieces(2);
    await readWindow(p.response, 0, 0, 5, 100);
    expect(p.pulled()).toBe(3);
  });

  it("fails with BodyLimitExceeded once more than the limit would stream", async () => {
    await expect(readWindow(pieces(3).response, 0, 15, 20, 10)).rejects.toBeInstanceOf(BodyLimitExceeded);
  });
});

describe("readTail", () => {
  it("keeps the last n bytes for every n and piece size", async () => {
    for (const size of [1, 3, 7, 20]) {
      for (const n of [1, 2, 3, 5, 7, 19, 20, 25]) {
        expect(Array.from(await readTail(pieces(size).response, n, 100)), `${size} ${n}`).toEqual(Array.from(BODY.slice(-n)));
      }
    }
  });

  it("fails with BodyLimitExceeded when the body is longer than the limit", async () => {
    await expect(readTail(pieces(5).response, 2, 19)).rejects.toBeInstanceOf(BodyLimitExceeded);
  });
});

describe("countBody", () => {
  it("counts within the limit", async () => {
    expect(await countBody(pieces(6).response, 20)).toBe(20);
    await expect(countBody(pieces(6).response, 19)).rejects.toBeInstanceOf(BodyLimitExceeded);
  });
});
