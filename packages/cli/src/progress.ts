/**
 * A progress bar on one terminal line, redrawn in place (for long commands: `cp`,
 * `convert`, `geozarr pyramid`, `geozarr from-geotiff`). Drawn only on a terminal, never
 * wider than it, and without escape sequences on a `TERM=dumb` terminal. When the terminal
 * reports no width (or 0 columns, as under `script`), nothing is redrawn in place: a plain
 * line is printed at every `stepPercent` (10%) instead, so a wrapped line cannot garble
 * anything. It never uses colour, so `NO_COLOR` holds as it is.
 */

/** Where the line is drawn: a terminal's standard error. */
export interface ProgressSink {
  write(text: string): unknown;
  /** Terminal width in columns, when known (read at each redraw, so resizing is followed). */
  readonly columns?: number;
  /** True for a terminal that understands no escape sequences (`TERM=dumb`): erase with spaces. */
  readonly plain?: boolean;
}

/** A progress line: `update` as work is done, `end` once (leaves the last state on screen). */
export interface ProgressLine {
  /** `bytes` adds the MiB moved; `label` says what is being worked on. */
  update(done: number, total: number, bytes?: number, label?: string): void;
  end(): void;
}

/** How a progress line counts. */
export interface ProgressOptions {
  /** What `done`/`total` count (default `keys`). */
  unit?: string;
  /** Least time between redraws (the final state is always drawn). */
  intervalMs?: number;
  /** When the width is unknown: a plain line each time progress passes a multiple of this (default 10). */
  stepPercent?: number;
  now?: () => number;
}

const MiB = 1024 * 1024;
const BAR = 24;

/**
 * The text of the line: a bar, done of total, MiB moved and a label, e.g.
 * `[##########--------------]  42% 420/1000 keys  12.3 MiB`.
 *
 * @example
 * ```ts
 * formatProgress(5, 10, 3 * 1024 * 1024); // "[############------------]  50% 5/10 keys  3.0 MiB"
 * ```
 */
export function formatProgress(done: number, total: number, bytes?: number, unit = "keys", label?: string): string {
  const fraction = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(fraction * BAR);
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
  let text = `[${"#".repeat(filled)}${"-".repeat(BAR - filled)}] ${percent} ${done}/${total} ${unit}`;
  if (bytes !== undefined) text += `  ${(bytes / MiB).toFixed(1)} MiB`;
  if (label !== undefined && label !== "") text += `  ${label}`;
  return text;
}

/**
 * Draws {@link formatProgress} on `sink` with a carriage return, at most every
 * `intervalMs`, cut to the terminal's width and erasing what was left of a longer line.
 *
 * @example
 * ```ts
 * const line = progressLine({ write: (t) => process.stderr.write(t), columns: process.stderr.columns });
 * line.update(1, 10, 4096);
 * line.end();
 * ```
 */
export function progressLine(
  sink: ProgressSink,
  { unit = "keys", intervalMs = 100, now = () => performance.now(), stepPercent = 10 }: ProgressOptions = {},
): ProgressLine {
  let last = Number.NEGATIVE_INFINITY;
  let pending: [number, number, number | undefined, string | undefined] | undefined;
  let drawn = false;
  let previousLength = 0;
  /** Plain lines: the last step printed, and whether the final state was. */
  let lastStep = -1;
  let printedFinal = false;
  const widthKnown = () => sink.columns !== undefined && sink.columns > 0;
  const draw = (done: number, total: number, bytes: number | undefined, label: string | undefined) => {
    pending = undefined;
    const text = formatProgress(done, total, bytes, unit, label);
    if (!widthKnown()) {
      const percent = total > 0 ? Math.min(100, (done / total) * 100) : 100;
      const step = Math.floor(percent / stepPercent);
      const final = done >= total;
      if (step === lastStep && !(final && !printedFinal)) return;
      lastStep = step;
      printedFinal = final;
      sink.write(`${text}\n`);
      return;
    }
    const columns = sink.columns as number;
    const cut = text.length >= columns ? text.slice(0, Math.max(0, columns - 1)) : text;
    if (sink.plain) sink.write(`\r${cut}${" ".repeat(Math.max(0, previousLength - cut.length))}`);
    else sink.write(`\r${cut}\x1b[K`);
    previousLength = cut.length;
    drawn = true;
  };
  return {
    update(done, total, bytes, label) {
      const t = now();
      if (t - last >= intervalMs || done === total) {
        last = t;
        draw(done, total, bytes, label);
      } else pending = [done, total, bytes, label];
    },
    end() {
      if (pending !== undefined) draw(...pending);
      if (drawn) sink.write("\n");
    },
  };
}

/**
 * A progress line on `stream` (standard error) when it is a terminal; `undefined`
 * otherwise, so pipes and logs stay clean.
 *
 * @example
 * ```ts
 * const progress = terminalProgress("chunks");
 * progress?.update(3, 10, undefined, "level 1");
 * progress?.end();
 * ```
 */
export function terminalProgress(unit: string, stream: NodeJS.WriteStream = process.stderr): ProgressLine | undefined {
  if (!stream.isTTY) return undefined;
  return progressLine(
    {
      write: (t) => stream.write(t),
      get columns() {
        return stream.columns;
      },
      plain: process.env.TERM === "dumb",
    },
    { unit },
  );
}
