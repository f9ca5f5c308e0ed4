import { Application, Converter } from "typedoc";
import { readdirSync, readFileSync } from "node:fs";
const root = "/work/wt/docs";
const entries = [];
for (const dir of readdirSync(`${root}/packages`)) {
  const m = JSON.parse(readFileSync(`${root}/packages/${dir}/package.json`, "utf8"));
  for (const [sub, target] of Object.entries(m.exports ?? {})) {
    let src = typeof target === "object" ? target["@zarr/source"] : undefined; if (src && typeof src === "object") src = src.default;
    if (src) entries.push({ name: m.name + sub.slice(1), file: (await import("node:path")).join(root, "packages", dir, src) });
  }
}
console.log(entries.length);
const app = await Application.bootstrapWithPlugins({
  entryPointStrategy: "resolve",
  entryPoints: entries.map(e => e.file),
  tsconfig: `${root}/tools/docs/tsconfig.typedoc.json`,
  logLevel: "Warn",
  name: "@zarr",
  excludePrivate: true,
});
const project = await app.convert();
console.log(project?.children?.map(c=>c.name));
await app.generateDocs(project, "/tmp/td-test2");
