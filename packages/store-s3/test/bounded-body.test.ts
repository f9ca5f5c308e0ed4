/** The bounded readers of GetObject bodies, on bodies cut into small pieces (Node streams and web streams). */
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { BodyLimitExceeded, collectBounded, collectTail, collectWindow, type StreamingBody } from "../src/bounded-body.js";

const BODY = Uint8Array.from({ length: 20 }, (_, i) => i + 1);
const split = (size: number) => Array.from({ length: Math.ceil(BODY.length / size) }, (_, i) => BODY.slice(i * size, (i + 1) * size));

/** A Node Readable body (as the SDK returns in Node), recording whether it was destroyed. */
function nodeBody(size: number): StreamingBody & { destroyed: boolean } {
  const stream = Readable.from(split(size), { objectMode: true }) as Readable & StreamingBody;
  stream.transformToByteArray = async () => BODY;
  return stream as StreamingBody & { destroyed: boolean };
}

/** A body with only a web stream (as in browsers). */
function webBody(size: number): StreamingBody {
  return {
    transformToByteArray: async () => BODY,
    transformToWebStream: () => new Blob(split(size)).stream(),
  };
}

describe.each([
  ["a Node stream", nodeBody],
  ["a web stream", webBody],
])("%s", (_name, make) => {
  it("collectWindow returns bytes [from, to) for every window and piece size", async () => {
    for (const size of [1, 3, 7, 20]) {
      for (let from = 0; from <= 22; from += 3) {
        for (let to = from; to <= 24; to += 5) {
          expect(Array.from(await collectWindow(make(size), from, to, 100)), `${size} ${from}-${to}`).toEqual(Array.from(BODY.slice(from, to)));
        }
      }
    }
  });

  it("collectTail keeps the last n bytes for every n and piece size", async () => {
    for (const size of [1, 3, 7, 20]) {
      for (const n of [1, 2, 3, 5, 7, 19, 20, 25]) {
        expect(Array.from(await collectTail(make(size), n, 100)), `${size} ${n}`).toEqual(Array.from(BODY.slice(-n)));
      }
    }
  });

  it("collectBounded reads the whole body within the limit, else BodyLimitExceeded", async () => {
    expect(Array.from(await collectBounded(make(6), 20))).toEqual(Array.from(BODY));
    await expect(collectBounded(make(6), 19)).rejects.toBeInstanceOf(BodyLimitExceeded);
  });
});

it("a Node stream body is destroyed when reading stops early or fails", async () => {
  const stopped = nodeBody(2);
  await collectWindow(stopped, 0, 3, 100);
  expect(stopped.destroyed).toBe(true);
  const failed = nodeBody(2);
  await expect(collectBounded(failed, 5)).rejects.toBeInstanceOf(BodyLimitExceeded);
  expect(failed.destroyed).toBe(true);
});
