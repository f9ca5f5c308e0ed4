// Driving the bench pages of browser.mjs (bench/lib/browser/*-page.mjs, `globalThis.bench`):
// opening them, checking that the readers agree, and timing their reads in turns.
import { watchErrors } from "./chromium.mjs";
import { median, race } from "./measure.mjs";

/** Opens a bench page in a browser context of its own; resolves `{ context, page }` once its `bench` object is there. */
export async function openBenchPage(browser, url, note) {
  const context = await browser.newContext();
  const page = await context.newPage();
  watchErrors(page, new URL(url).pathname, note);
  await page.goto(url);
  await page.waitForFunction(() => globalThis.bench !== undefined, null, { timeout: 60_000 });
  return { context, page };
}

/** Seconds of one read in a page (measured in the page), the page in front. */
async function timeRead(page, source, mode) {
  await page.bringToFront();
  return (await page.evaluate(([s, m]) => globalThis.bench.time(s, m), [source, mode])) / 1000;
}

/**
 * One read by each reader from `source`, untimed (the warm-up round): their results must
 * have `elements` elements and equal checksums, and with a compressor the pool's must be on
 * shared memory (else the workers were not used; uncompressed reads need none). Resolves
 * whether they all agree; a disagreement is a note.
 */
export async function verify(pages, readers, source, v, elements, note) {
  const name = v.name;
  const sums = {};
  for (const r of readers) {
    try {
      sums[r.label] = await pages[r.page].page.evaluate(([s, m]) => globalThis.bench.verify(s, m), [source, r.mode]);
    } catch (error) {
      note(`${name} (${source}): ${r.label} failed: ${error.message.split("\n")[0]}`);
      return false;
    }
  }
  const [reference, ...others] = Object.values(sums);
  const agree = reference.length === elements && others.every((s) => s.length === reference.length && s.checksum === reference.checksum);
  if (!agree) note(`${name} (${source}): the results differ: ${JSON.stringify(sums)}`);
  if (v.v3.length > 0 && sums["@zarr, pool of 2"]?.shared === false) note(`${name} (${source}): the pool's result is not on a SharedArrayBuffer: the workers were not used`);
  return agree;
}

/**
 * `reps` rounds of one read by each reader from `source`, the readers taking turns: the
 * median seconds of each, as the page measured them (`t`), and of Chromium's CPU over the
 * same call (`cpu`, from `chromiumCpu`, a `cpuMeter`). A reader that fails is dropped, with
 * a note.
 */
export async function timeReads(pages, readers, source, chromiumCpu, reps, note) {
  const cpu = Object.fromEntries(readers.map((r) => [r.label, []]));
  const contenders = Object.fromEntries(
    readers.map((r) => [
      r.label,
      async () => {
        const before = await chromiumCpu();
        const wall = await timeRead(pages[r.page].page, source, r.mode);
        cpu[r.label].push((await chromiumCpu()) - before);
        return wall;
      },
    ]),
  );
  const { times, errors } = await race(contenders, { reps, warmup: 0 });
  for (const [who, e] of Object.entries(errors)) note(`${who} failed: ${e}`);
  return { t: times, cpu: Object.fromEntries(Object.keys(times).map((label) => [label, median(cpu[label])])) };
}
