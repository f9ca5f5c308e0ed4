/** The progress line shared by cp, convert and the geozarr commands. */
import { describe, expect, it } from "vitest";
import { formatProgress, progressLine, terminalProgress } from "../src/progress.js";

describe("progress line", () => {
  it("counts any unit and adds a label, with or without bytes", () => {
    expect(formatProgress(3, 12, undefined, "chunks", "level 1 b04")).toBe(`[${"#".repeat(6)}${"-".repeat(18)}]  25% 3/12 chunks  level 1 b04`);
    expect(formatProgress(3, 12, 1024 * 1024, "chunks")).toBe(`[${"#".repeat(6)}${"-".repeat(18)}]  25% 3/12 chunks  1.0 MiB`);
  });

  it("prints a plain line per 10% instead of redrawing when the width is unknown or 0 (as under script)", () => {
    for (const columns of [undefined, 0]) {
      const written: string[] = [];
      const line = progressLine({ write: (s) => written.push(s), columns }, { unit: "chunks", intervalMs: 0 });
      for (let done = 0; done <= 250; done++) line.update(done, 250, undefined, "x".repeat(100));
      line.end();
      const text = written.join("");
      expect(text.includes("\r") || text.includes("\x1b")).toBe(false);
      expect(written.every((w) => w.endsWith("\n") && w.indexOf("\n") === w.length - 1)).toBe(true);
      // 0%, 10%, ..., 100%: eleven lines, each the whole text (no cutting: nothing is redrawn in place).
      expect(written).toHaveLength(11);
      expect(written[1]).toBe(`${formatProgress(25, 250, undefined, "chunks", "x".repeat(100))}\n`);
      expect(written[10]).toBe(`${formatProgress(250, 250, undefined, "chunks", "x".repeat(100))}\n`);
    }
  });

  it("prints the final state once, even when it falls in the step already printed", () => {
    const written: string[] = [];
    const line = progressLine({ write: (s) => written.push(s) }, { intervalMs: 0 });
    line.update(995, 1000);
    line.update(999, 1000);
    line.update(1000, 1000);
    line.update(1000, 1000);
    line.end();
    expect(written).toEqual([`${formatProgress(995, 1000)}\n`, `${formatProgress(1000, 1000)}\n`]);
  });

  it("is not drawn at all when standard error is not a terminal", () => {
    const stream = { isTTY: false, write: () => true } as unknown as NodeJS.WriteStream;
    expect(terminalProgress("keys", stream)).toBeUndefined();
  });

  it("follows the width at each redraw (a resized terminal)", () => {
    const written: string[] = [];
    const sink = { write: (s: string) => written.push(s), columns: 30 };
    const line = progressLine(sink, { intervalMs: 0 });
    line.update(1, 4, 0);
    sink.columns = 50;
    line.update(2, 4, 0);
    expect(written[0].length).toBe(1 + 29 + 3);
    expect(written[1]).toBe(`\r${formatProgress(2, 4, 0).slice(0, 49)}\x1b[K`);
  });

  it("erases with spaces, not escape sequences, on a dumb terminal", () => {
    const written: string[] = [];
    const line = progressLine({ write: (s) => written.push(s), plain: true, columns: 200 }, { intervalMs: 0 });
    line.update(1, 1000, 0, "a long label");
    line.update(1000, 1000, 0);
    line.end();
    expect(written.join("")).not.toContain("\x1b");
    const first = formatProgress(1, 1000, 0, "keys", "a long label");
    const second = formatProgress(1000, 1000, 0);
    expect(written[1]).toBe(`\r${second}${" ".repeat(first.length - second.length)}`);
    expect(written[2]).toBe("\n");
  });
});
