// Time to first value for browser.mjs: fresh pages (bench/lib/browser/*-first.mjs) reading
// one value as soon as they load, and what they fetched before it.
import { PAGES, watchErrors } from "./chromium.mjs";
import { median } from "./measure.mjs";

/**
 * Time to first value, `reps` rounds (after an untimed one) of a fresh page per library
 * reading one value of the array at `storePath`: the medians of the page's figures.
 */
export async function timeFirstValue(browser, base, storePath, bundles, reps, note) {
  const names = Object.keys(bundles).filter((n) => n.endsWith("-first"));
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = -1; r < reps; r++) {
    for (const name of names) {
      const s = await firstValueOnce(browser, `${base}${name}/?store=${encodeURIComponent(storePath)}`, bundles[name], note);
      if (r >= 0) samples[name].push(s);
    }
  }
  const values = new Set(names.map((n) => samples[n][0]?.value));
  if (values.size !== 1) note(`c.: the first values differ: ${[...values].join(", ")}`);
  return names.map((name) => {
    const xs = samples[name];
    const med = (key) => median(xs.map((x) => x[key]));
    return {
      library: PAGES[name].library,
      entryStarted: med("entryStarted"),
      firstValue: med("firstValue"),
      jsRequests: med("jsRequests"),
      jsBytes: med("jsBytes"),
      jsGzipBytes: med("jsGzipBytes"),
      otherRequests: med("otherRequests"),
    };
  });
}

/**
 * One fresh page (a new browser context) reading its first value: the page's figures, and
 * the requests it made (network events) that started before the value arrived, the page
 * itself not counted. JS bytes are those of the bundle's files the requests named.
 */
async function firstValueOnce(browser, url, bundle, note) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    watchErrors(page, new URL(url).pathname, note);
    const requests = [];
    page.on("request", (request) => requests.push(request));
    await page.goto(url);
    await page.waitForFunction(() => globalThis.firstValue !== undefined, null, { timeout: 120_000 });
    const f = await page.evaluate(() => globalThis.firstValue);
    await page.waitForLoadState("networkidle"); // the responses (and timings) of every request made
    const firstValueAt = f.timeOrigin + f.firstValue;
    const before = requests.filter((q) => q.resourceType() !== "document" && q.timing().startTime <= firstValueAt);
    const files = before.map((q) => new URL(q.url()).pathname).filter((p) => p.endsWith(".js"));
    const file = (p) => bundle.files.find((x) => x.file === p.split("/").pop()) ?? { bytes: Number.NaN, gzipBytes: Number.NaN };
    return {
      entryStarted: f.entryStarted,
      firstValue: f.firstValue,
      value: f.value,
      jsRequests: files.length,
      jsBytes: files.reduce((n, p) => n + file(p).bytes, 0),
      jsGzipBytes: files.reduce((n, p) => n + file(p).gzipBytes, 0),
      otherRequests: before.length - files.length,
    };
  } finally {
    await context.close();
  }
}
