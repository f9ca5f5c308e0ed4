// A writer process of concurrent-writers.test.ts: waits for "go" on stdin, then sets
// `count` single elements of each listed array, element `offset + i` to `offset + i + 1`,
// with or without `lock: true`, and prints a JSON summary (time, failed writes).
import { FileSystemStore } from "@zarr/store-fs";
import { openArray, registry, set } from "../dist/index.js";

const [root, arrays, offsetText, countText, lockText] = process.argv.slice(2);
const offset = Number(offsetText);
const count = Number(countText);
const lock = lockText === "lock";
const store = new FileSystemStore(root);

process.stdout.write("ready\n");
await new Promise((resolve) => process.stdin.once("data", resolve));
const summary = {};
for (const name of arrays.split(",")) {
  const arr = await openArray(store, name, { registry });
  const started = performance.now();
  const failures = {};
  for (let i = 0; i < count; i++) {
    const at = offset + i;
    try {
      await set(arr, [at], at + 1, { lock });
    } catch (error) {
      // Unlocked writers may fail (a shard replaced between its reads): count, go on.
      if (lock) throw error;
      failures[error.code ?? "other"] = (failures[error.code ?? "other"] ?? 0) + 1;
    }
  }
  summary[name] = { ms: Math.round(performance.now() - started), failures };
}
process.stdout.write(`${JSON.stringify(summary)}\n`);
process.stdin.destroy();
