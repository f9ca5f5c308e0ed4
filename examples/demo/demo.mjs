// The README demo: create a Zarr v3 hierarchy on the local filesystem, write an array,
// read parts of it back, and print what happened at each step.
// Run it with `pnpm demo` from the repository root (it builds the packages first).
import { mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import {
  consolidateMetadata,
  createArray,
  createGroup,
  get,
  openArray,
  openGroup,
  set,
  slice,
  walk,
} from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";

const dir = process.argv[2] ?? join(mkdtempSync(join(tmpdir(), "zarr-demo-")), "climate.zarr");
const store = new FileSystemStore(dir);
console.log(`1. Creating a Zarr v3 store at ${dir}`);

await createGroup(store, "", { attributes: { title: "A tiny synthetic climate dataset" } });
const [days, lat, lon] = [30, 90, 180];
const t2m = await createArray(store, "surface/t2m", {
  shape: [days, lat, lon],
  chunkShape: [10, 45, 90],
  dataType: "float32",
  fillValue: Number.NaN,
  dimensionNames: ["time", "lat", "lon"],
  attributes: { units: "K", long_name: "2 m temperature" },
});
console.log(`2. Created array "${t2m.path}": shape ${JSON.stringify(t2m.shape)}, chunks ${JSON.stringify(t2m.chunkShape)}, ${t2m.dataType.name}`);

// A smooth field: warmer at the equator, a seasonal cycle over the days.
const values = new Float32Array(days * lat * lon);
for (let d = 0; d < days; d++)
  for (let y = 0; y < lat; y++)
    for (let x = 0; x < lon; x++) {
      const latitude = -89 + 2 * y;
      values[(d * lat + y) * lon + x] = 288 + 30 * Math.cos((latitude * Math.PI) / 180) - 20 + 5 * Math.sin((2 * Math.PI * d) / 30) + Math.sin(x / 10);
    }
await set(t2m, null, values);
const files = [];
const list = (p) => {
  for (const name of readdirSync(p)) {
    const full = join(p, name);
    if (statSync(full).isDirectory()) list(full);
    else files.push(relative(dir, full));
  }
};
list(dir);
console.log(`3. Wrote ${values.length} values as ${files.filter((f) => f.includes("/c/")).length} chunk files`);

await consolidateMetadata(store);
console.log("4. Consolidated the metadata into the root zarr.json");

const root = await openGroup(store);
console.log(`5. Re-opened the root group: "${root.attributes.title}"`);
for await (const node of walk(root)) console.log(`   - ${node.kind} ${node.path}${node.kind === "array" ? ` ${JSON.stringify(node.shape)} ${node.dataType.name}` : ""}`);

const again = await openArray(root, "surface/t2m");
const equator = await get(again, [slice(0, 7), 45, slice(null, null, 30)]);
console.log(`6. Read the first week along the equator, every 30th longitude: shape ${JSON.stringify(equator.shape)}`);
for (let d = 0; d < equator.shape[0]; d++) {
  const row = Array.from(equator.data.subarray(d * equator.shape[1], (d + 1) * equator.shape[1]), (v) => v.toFixed(1));
  console.log(`   day ${d}: ${row.join("  ")}`);
}
let same = true;
const all = await get(again);
for (let i = 0; i < values.length; i++) if (all.data[i] !== values[i]) same = false;
console.log(`7. Read the whole array back: ${same ? "identical to what was written" : "MISMATCH"}`);
if (!same) process.exit(1);
