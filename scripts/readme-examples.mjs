// Runs the code blocks of a package README marked ```js readme-example, so README
// examples cannot silently rot. Each block runs as an ES module inside the package
// directory (so its imports resolve like a user's would: through node_modules and the
// package's own name, i.e. its built dist/).
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The ```js readme-example blocks of `readmePath`. */
export function readmeExamples(readmePath) {
  const text = readFileSync(readmePath, "utf8");
  return [...text.matchAll(/```js readme-example\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** Runs every example block of `packageDir`/README.md; returns their outputs. Throws on failure. */
export function runReadmeExamples(packageDir, { env = {}, timeout = 60_000 } = {}) {
  const blocks = readmeExamples(join(packageDir, "README.md"));
  if (blocks.length === 0) throw new Error(`${packageDir}/README.md has no \`\`\`js readme-example block`);
  return blocks.map((code, i) => {
    const file = join(packageDir, `.readme-example-${process.pid}-${i}.mjs`);
    writeFileSync(file, code);
    try {
      return execFileSync(process.execPath, [file], { cwd: packageDir, encoding: "utf8", env: { ...process.env, ...env }, timeout });
    } catch (error) {
      throw new Error(`README example ${i + 1} of ${packageDir} failed:\n${error.stderr || error.message}`);
    } finally {
      rmSync(file, { force: true });
    }
  });
}
