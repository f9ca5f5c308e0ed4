#!/usr/bin/env node
// Bundles the `zarr` command with esbuild, after `tsc` has built dist/: `zarr info` and
// `zarr tree` (dist/metadata-main.js) into dist/bundle/, and every command (dist/main.js)
// with the worker threads' program (dist/worker.js, which registers the codec and store
// packages by name: core's own worker script loads them by file URLs the bundle moves)
// into dist/bundle/commands/.
// @zarr/* packages are included. Node loads a handful of files much faster than the ~90
// modules they come from, in the main thread and in every worker; the chunks of codecs,
// stores and formats stay separate and load on first use. bin/zarr.js uses the bundle
// when it exists. Run from packages/cli (the `build` script does).
//
// chunks.json in each directory says which packages each output file holds ({"chunk-X.js":
// ["@zarr/core", ...]}), so a test can tell which packages a command loaded.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/**
 * Node's crypto module takes ~4 ms to load, a tenth of Node's own start-up, and the
 * bundled code calls it only to write (temporary file names) or sign S3 requests: imports
 * of it get functions that load it on first call. A name this shim lacks fails the build.
 */
const lazyCrypto = {
  name: "lazy-node-crypto",
  setup(b) {
    b.onResolve({ filter: /^(node:)?crypto$/ }, (args) =>
      args.kind === "import-statement" ? { path: "lazy-crypto", namespace: "lazy-crypto" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "lazy-crypto" }, () => ({
      loader: "js",
      contents: [
        'import { createRequire } from "node:module";',
        "let crypto;",
        'const load = () => (crypto ??= createRequire(import.meta.url)("node:crypto"));',
        ...["createHash", "createHmac", "getRandomValues", "randomBytes"].map(
          (name) => `export const ${name} = (...args) => load().${name}(...args);`,
        ),
      ].join("\n"),
    }));
  },
};

/**
 * In Node, @zarr/core's and @zarr/spec's modules that load on first use (a browser
 * bundle's lazy chunks) cost a file each and save nothing: in the CLI's bundles their
 * relative dynamic imports become static ones, so those modules join the chunks that use
 * them instead of splitting the start-up into many small files.
 */
const eagerCore = {
  name: "eager-core-modules",
  setup(b) {
    // Only ours: the workspace packages, or @zarr/core and @zarr/spec as installed.
    b.onLoad({ filter: /(?:[\\/]packages|[\\/]@zarr)[\\/](?:core|spec)[\\/]dist[\\/][^\\]*\.js$/ }, (args) => {
      const imports = [];
      const contents = readFileSync(args.path, "utf8").replace(/\bimport\(("\.{1,2}\/[^"]+\.js")\)/g, (_, specifier) => {
        const name = `__eager${imports.length}`;
        imports.push(`import * as ${name} from ${specifier};`);
        return `Promise.resolve(${name})`;
      });
      return { contents: imports.length === 0 ? contents : `${imports.join("\n")}\n${contents}`, loader: "js", resolveDir: args.path.replace(/[\\/][^\\/]+$/, "") };
    });
  },
};

const root = fileURLToPath(new URL("..", import.meta.url));
rmSync(`${root}dist/bundle`, { recursive: true, force: true });

/**
 * Bundles `entryPoints` into `outdir` with code splitting, and writes `chunks.json` there
 * (which packages each output file holds).
 */
async function bundle(entryPoints, outdir) {
  const { metafile } = await build({
    metafile: true,
    absWorkingDir: root,
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // Maps point into dist/ and node_modules (shipped anyway) instead of embedding sources.
    sourcemap: "linked",
    sourcesContent: false,
    legalComments: "none",
    logLevel: "warning",
    plugins: [lazyCrypto, eagerCore],
    // CommonJS dependencies bundled into ES modules (the AWS SDK under @zarr/store-s3) call
    // require() for Node's built-in modules; it is made on first call, so chunks that never
    // call it pay nothing.
    banner: {
      js: 'import { createRequire as __zarrCreateRequire } from "node:module"; let __zarrRequire; const require = (id) => (__zarrRequire ??= __zarrCreateRequire(import.meta.url))(id);',
    },
    // Less text to parse at start-up; names stay (stack traces, `constructor.name`), and
    // the source map points back to dist/.
    minifyWhitespace: true,
    minifySyntax: true,
  });
  const chunks = {};
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (!file.endsWith(".js")) continue;
    const inputs = Object.entries(output.inputs).filter(([, { bytesInOutput }]) => bytesInOutput > 0);
    chunks[file.slice(file.lastIndexOf("/") + 1)] = [...new Set(inputs.map(([input]) => packageOf(input)))].sort();
  }
  writeFileSync(`${outdir}/chunks.json`, `${JSON.stringify(chunks, null, 1)}\n`);
}

/** The package an input file belongs to: `@zarr/<dir>` for workspace packages, else its npm name. */
function packageOf(input) {
  const inNodeModules = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/);
  if (inNodeModules) return inNodeModules[1];
  const workspace = input.match(/^\.\.\/([^/]+)\//);
  return workspace ? `@zarr/${workspace[1]}` : "@zarr/cli";
}

// Two bundles, so that each entry's chunks are its own: shared chunks between the
// metadata commands and the others would split `info`'s few files into many.
await bundle(["dist/metadata-main.js"], `${root}dist/bundle`);
await bundle(["dist/main.js", "dist/worker.js"], `${root}dist/bundle/commands`);
