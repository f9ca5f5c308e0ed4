import { describe, expect, it } from "vitest";
import { interruptible } from "../src/interrupt.js";

describe("interruptible", () => {
  it("aborts the body's signal on the first SIGINT, and removes its listener afterwards", async () => {
    const before = process.listenerCount("SIGINT");
    const reason = await interruptible(async (signal) => {
      expect(process.listenerCount("SIGINT")).toBe(before + 1);
      process.emit("SIGINT");
      expect(signal.aborted).toBe(true);
      return (signal.reason as Error).message;
    });
    expect(reason).toBe("interrupted");
    expect(process.listenerCount("SIGINT")).toBe(before);
  });

  it("listens to the signals it is given (cp adds SIGTERM), also when the body fails", async () => {
    const before = process.listenerCount("SIGTERM");
    const failed = interruptible(async (signal) => {
      process.emit("SIGTERM");
      throw new Error(`stopped: ${signal.aborted}`);
    }, ["SIGINT", "SIGTERM"]);
    await expect(failed).rejects.toThrow("stopped: true");
    expect(process.listenerCount("SIGTERM")).toBe(before);
  });
});
