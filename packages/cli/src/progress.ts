/** A progress bar on one terminal line, redrawn in place (for long commands such as `zarr cp`). */

/** Where the line is drawn: a terminal's standard error. */
export interface ProgressSink {
  write(text: string): unknown;
  /** Terminal width in columns, when known. */
  columns?: number;
}

/** A progress line: `update` as work is done, `end` once (leaves the last state on screen). */
export interface ProgressLine {
  update(done: number, total: number, bytes: number): void;
  end(): void;
}

const MiB = 1024 * 1024;
const BAR = 24;

/**
 * The text of the line: a bar, keys done of all keys, and MiB moved, e.g.
 * `[##########--------------]  42% 420/1000 keys  12.3 MiB`.
 */
export function formatProgress(done: number, total: number, bytes: number): string {
  const fraction = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(fraction * BAR);
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
  return `[${"#".repeat(filled)}${"-".repeat(BAR - filled)}] ${percent} ${done}/${total} keys  ${(bytes / MiB).toFixed(1)} MiB`;
}

/**
 * Draws {@link formatProgress} on `sink` with a carriage return, at most every
 * `intervalMs` (the final state is always drawn), erasing what was left of a longer line.
 */
export function progressLine(sink: ProgressSink, { intervalMs = 100, now = () => performance.now() } = {}): ProgressLine {
  let last = Number.NEGATIVE_INFINITY;
  let pending: [number, number, number] | undefined;
  let drawn = false;
  const draw = (done: number, total: number, bytes: number) => {
    let text = formatProgress(done, total, bytes);
    if (sink.columns !== undefined && text.length >= sink.columns) text = text.slice(0, Math.max(0, sink.columns - 1));
    sink.write(`\r${text}\x1b[K`);
    drawn = true;
    pending = undefined;
  };
  return {
    update(done, total, bytes) {
      const t = now();
      if (t - last >= intervalMs || done === total) {
        last = t;
        draw(done, total, bytes);
      } else pending = [done, total, bytes];
    },
    end() {
      if (pending !== undefined) draw(...pending);
      if (drawn) sink.write("\n");
    },
  };
}
