// The production bundle's size: every dist/assets/*.js, raw and gzipped. Usage: node sizes.mjs [DIST]
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/** `{ file, raw, gzip }` in bytes for each .js file of `distDir`/assets, largest first. */
export function bundleSizes(distDir) {
  const assets = join(distDir, "assets");
  return readdirSync(assets)
    .filter((f) => f.endsWith(".js"))
    .map((file) => {
      const bytes = readFileSync(join(assets, file));
      return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    })
    .sort((a, b) => b.raw - a.raw);
}

/** The sizes as a text table with a total line. */
export function formatSizes(sizes) {
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`.padStart(10);
  const total = sizes.reduce((t, s) => ({ raw: t.raw + s.raw, gzip: t.gzip + s.gzip }), { raw: 0, gzip: 0 });
  const rows = [...sizes, { file: "total", ...total }];
  const width = Math.max(...rows.map((r) => r.file.length));
  return rows.map((r) => `${r.file.padEnd(width)} ${kib(r.raw)} ${kib(r.gzip)} gzip`).join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(formatSizes(bundleSizes(process.argv[2] ?? join(import.meta.dirname, "dist"))));
}
