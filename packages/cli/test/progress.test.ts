/** The progress line shared by cp, convert and the geozarr commands. */
import { describe, expect, it } from "vitest";
import { formatProgress, progressLine } from "../src/progress.js";

describe("progress line", () => {
  it("counts any unit and adds a label, with or without bytes", () => {
    expect(formatProgress(3, 12, undefined, "chunks", "level 1 b04")).toBe(`[${"#".repeat(6)}${"-".repeat(18)}]  25% 3/12 chunks  level 1 b04`);
    expect(formatProgress(3, 12, 1024 * 1024, "chunks")).toBe(`[${"#".repeat(6)}${"-".repeat(18)}]  25% 3/12 chunks  1.0 MiB`);
  });

  it("never draws wider than 79 columns when the terminal width is unknown", () => {
    const written: string[] = [];
    const line = progressLine({ write: (s) => written.push(s) }, { unit: "chunks" });
    line.update(1, 2, undefined, "x".repeat(200));
    expect(written[0]).toBe(`\r${formatProgress(1, 2, undefined, "chunks", "x".repeat(200)).slice(0, 79)}\x1b[K`);
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
    const line = progressLine({ write: (s) => written.push(s), plain: true }, { intervalMs: 0 });
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
