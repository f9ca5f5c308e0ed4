/** forEachConcurrent (and mapConcurrent on it): bounded, streaming, synchronous items, aborts. */
import { describe, expect, it } from "vitest";
import { forEachConcurrent, mapConcurrent } from "../src/index.js";

function* endless(): Generator<number> {
  for (let i = 0; ; i++) yield i;
}

describe("forEachConcurrent", () => {
  it("never has more than `concurrency` items in flight, and runs each once", async () => {
    let inFlight = 0;
    let most = 0;
    const seen: number[] = [];
    await forEachConcurrent(
      Array.from({ length: 200 }, (_, i) => i),
      5,
      async (item, index) => {
        expect(index).toBe(item);
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, item % 3));
        seen.push(item);
        inFlight--;
      },
    );
    expect(most).toBe(5);
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });

  it("takes items only as runners become free (an endless iterable is fine)", async () => {
    let taken = 0;
    const items = (function* () {
      for (const i of endless()) {
        taken++;
        yield i;
      }
    })();
    let stop = false;
    const controller = new AbortController();
    const run = forEachConcurrent(items, 3, async (i) => {
      if (i === 10 && !stop) {
        stop = true;
        controller.abort();
      }
      await Promise.resolve();
    }, { signal: controller.signal });
    await expect(run).rejects.toMatchObject({ code: "ABORTED" });
    // The ten items before the abort, and at most one more per runner.
    expect(taken).toBeLessThanOrEqual(14);
  });

  it("mixes synchronous and asynchronous items, and an abort from a timer stops an endless synchronous stream", async () => {
    let sync = 0;
    let async = 0;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const run = forEachConcurrent(
      endless(),
      4,
      (i) => {
        if (i % 1000 === 0) {
          async++;
          return Promise.resolve();
        }
        sync++;
      },
      { signal: controller.signal },
    );
    // Without turns of the event loop the timer would never fire and this would hang.
    await expect(run).rejects.toMatchObject({ code: "ABORTED" });
    expect(sync).toBeGreaterThan(10_000);
    expect(async).toBeGreaterThan(10);
  });

  it("stops at the first failure, synchronous or not, and starts no further items", async () => {
    let started = 0;
    const boom = new Error("boom");
    await expect(
      forEachConcurrent(endless(), 4, (i) => {
        started++;
        if (i === 50) throw boom;
      }),
    ).rejects.toBe(boom);
    expect(started).toBe(51);
    await expect(
      forEachConcurrent([1, 2, 3], 1, async (i) => {
        if (i === 2) throw boom;
      }),
    ).rejects.toBe(boom);
  });

  it("mapConcurrent still returns the results in item order", async () => {
    const out = await mapConcurrent([3, 1, 2], 2, async (x) => {
      await new Promise((r) => setTimeout(r, x));
      return x * 10;
    });
    expect(out).toEqual([30, 10, 20]);
  });
});
