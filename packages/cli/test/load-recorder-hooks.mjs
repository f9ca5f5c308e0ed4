// Module hooks for load-recorder.mjs: they run on the loader thread and write each URL
// as it loads.
import { appendFileSync } from "node:fs";

export async function load(url, context, nextLoad) {
  if (process.env.ZARR_LOAD_LOG) appendFileSync(process.env.ZARR_LOAD_LOG, `${url}\n`);
  return nextLoad(url, context);
}
