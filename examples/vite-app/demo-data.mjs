// Writes a demo array for the app: `field`, 1024×1024 float32 in 256×256 zstd chunks, a
// smooth pattern. Usage: node demo-data.mjs STORE_DIR   (then: node serve.mjs STORE_DIR)
import { zstd } from "@zarr/codec-zstd";
import { createArray, createRegistry, set } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";

const dir = process.argv[2];
if (dir === undefined) {
  console.error("usage: node demo-data.mjs STORE_DIR");
  process.exit(2);
}
const n = 1024;
const arr = await createArray(new FileSystemStore(dir), "field", {
  shape: [n, n],
  chunkShape: [256, 256],
  dataType: "float32",
  codecs: [
    { name: "bytes", configuration: { endian: "little" } },
    { name: "zstd", configuration: { level: 3, checksum: false } },
  ],
  registry: createRegistry([zstd]),
});
const values = new Float32Array(n * n);
for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) values[i * n + j] = Math.sin(i / 60) * Math.cos(j / 45) * 100 + Math.hypot(i - n / 2, j - n / 2) / 8;
await set(arr, null, values);
console.log(`wrote ${dir}/field (${n}×${n} float32, zstd)`);
